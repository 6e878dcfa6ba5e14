/**
 * What the investment sizing of every style shares (issue 40; bot-investment.rules.ts sizes the ladder, a
 * style its own field through BotStyle.sizeInvestment, styles/<style>/): the market it reads, the bot's
 * settings it reads, and how its messages write numbers. Its own file so the styles' sizing need not import
 * bot-investment.rules.ts, which asks the style registry. Pure.
 */

/** The step of sizes when the market's is not known: 8 decimals (bot.rules.ts MAX_DECIMALS). */
export const FALLBACK_STEP = 1e-8;
export const CENT = 0.01;

/** What the sizing reads of a market (the exchange port's MarketRules, a subset). */
export interface SizingMarket {
  priceStep?: number;
  amountStep?: number;
  minNotional?: number;
  minAmount?: number;
}

/** A bot's settings as the server's sizing reads them (bot.rules.ts OrderSizer's argument): null is a setting turned off. */
export interface SettingsToSize {
  /** The bot's style (styles/registry.ts BotStyleName), absent: the ladder. */
  style?: string;
  numOfOrders: number;
  interval: number;
  entryPrice: number;
  leverage?: number;
  spacing?: 'absolute' | 'percent' | null;
  sizeScale?: number | null;
  /** The ladder's direction (styles/registry.ts BotDirection). */
  direction?: string | null;
  stepPercent?: number;
  lowerPrice?: number;
  initialQuote?: number;
}

export const fmt = (x: number) => String(Number(x.toPrecision(12)));
export const usd = (x: number) => x.toFixed(2);
export const stepOf = (m: SizingMarket | undefined, k: 'amountStep' | 'priceStep') => {
  const s = m?.[k];
  return typeof s === 'number' && Number.isFinite(s) && s > 0 ? s : FALLBACK_STEP;
};
export const minOf = (m: SizingMarket | undefined, k: 'minNotional' | 'minAmount') => {
  const s = m?.[k];
  return typeof s === 'number' && Number.isFinite(s) && s > 0 ? s : 0;
};
