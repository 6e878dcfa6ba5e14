/**
 * The infinity grid's own settings (issue 32, docs/infinity.md; libs/trading styles/infinity/infinity.engine.ts)
 * as a bot's configuration and its view carry them: persisted in BotCreated (bot.events.ts BotConfig) and
 * answered by the API (bot.view.ts BotView). Their names and values may not change: history replays them.
 */
export interface InfinityConfigFields {
  /** One step, in % of the reference price (0 < p < 50). */
  stepPercent?: number;
  /** The quote value (USDT) sold on each step up and bought on each step down. */
  quoteValue?: number;
  /** No buy below this price (below `entryPrice`). */
  lowerPrice?: number;
  /** Quote spent on coin at the start (0: none). */
  initialQuote?: number;
}

/** The same settings as the bot view names them (lowercase, spec section 3). */
export interface InfinityViewFields {
  steppercent?: number;
  quotevalue?: number;
  lowerprice?: number;
  initialquote?: number;
}
