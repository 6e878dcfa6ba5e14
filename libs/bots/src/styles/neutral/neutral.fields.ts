/** The neutral grid's own setting (issue 32) in a bot's configuration (bot.events.ts BotConfig: persisted, it may not change). */
export interface NeutralConfigFields {
  /** The stop-loss of its short side, a price above its highest sell (`stopLossPrice`: below its lowest buy). */
  stopLossPriceAbove?: number;
}
