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

/**
 * Issue 39, "Any pair the venue lists": a pair is written as the venues write it, base then quote, in
 * capitals, letters and digits only (1000PEPEUSDT), quoted in USDT or USDC (the quotes every cost, profit
 * and balance is counted in). Which pairs exist is the account's venue's word, asked at create
 * (libs/bots market-check.ts: a live or testnet account lists what its venue lists through ccxt, a paper
 * account its catalogue, SYMBOLS); this rule only says what a pair looks like.
 */
export const SYMBOL_MAX_LENGTH = 20;
export const SYMBOL_PATTERN = /^[A-Z0-9]{2,16}(USDT|USDC)$/;
export const SYMBOL_SYNTAX_MESSAGE = 'symbol must be a pair of letters and digits quoted in USDT or USDC, e.g. BTCUSDT';

/** The pair as the venues write it (trimmed, upper-cased), or null when it cannot be one. */
export function normalSymbol(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const s = value.trim().toUpperCase();
  return s.length <= SYMBOL_MAX_LENGTH && SYMBOL_PATTERN.test(s) ? s : null;
}

/** The field message of a pair the account's venue does not list (market-check.ts). */
export function unlistedSymbolMessage(symbol: string, venue: string): string {
  return `symbol must be a pair ${venue} lists: ${symbol} is not one of its markets`;
}

/**
 * The currency a pair is quoted in (its costs, profits and losses are counted in it): 'USDT' for BTCUSDT,
 * 'USDC' for BTCUSDC, also from ccxt's 'BTC/USDT' and 'BTC/USDT:USDT'; null when the pair names none.
 */
export function quoteOf(symbol: string): string | null {
  const pair = String(symbol).split(':')[0].trim().toUpperCase();
  if (pair.includes('/')) return pair.split('/')[1] || null;
  const m = /(USDT|USDC)$/.exec(pair);
  return m && pair.length > m[1].length ? m[1] : null;
}
