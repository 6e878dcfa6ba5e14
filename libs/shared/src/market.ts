/** What the product trades (spec section 3). */
export const EXCHANGES = ['Binance', 'Kucoin'] as const;
export type ExchangeName = (typeof EXCHANGES)[number];

export const BOT_TYPES = ['Spot', 'Futures'] as const;
export type BotType = (typeof BOT_TYPES)[number];

export const BASE_ASSETS = [
  'ALGO', 'ALICE', 'ATOM', 'AVAX', 'BCH', 'BTC', 'CAKE', 'COCOS', 'CRVS', 'DOT', 'ETC', 'FIL', 'GRASS',
  'GBP', 'KCS', 'LTC', 'LINK', 'SFP', 'STX', 'SOL', 'TLM', 'XTZ', 'XRP',
] as const;

/** Every pair offered: each base against USDT, and BTC against USDC too. */
export const SYMBOLS: readonly string[] = [...BASE_ASSETS.map((b) => `${b}USDT`), 'BTCUSDC'];
