/** Symbols offered (spec section 3), each quoted against USDT; BTC also against USDC. */
export const PAIRS = [
  'ALGOUSDT', 'ALICEUSDT', 'ATOMUSDT', 'AVAXUSDT', 'BCHUSDT', 'BTCUSDT', 'BTCUSDC', 'CAKEUSDT',
  'COCOSUSDT', 'CRVSUSDT', 'DOTUSDT', 'ETCUSDT', 'FILUSDT', 'GRASSUSDT', 'GBPUSDT', 'KCSUSDT',
  'LTCUSDT', 'LINKUSDT', 'SFPUSDT', 'STXUSDT', 'SOLUSDT', 'TLMUSDT', 'XTZUSDT', 'XRPUSDT',
] as const;

export const EXCHANGES = ['Binance', 'Kucoin'] as const;

export function pairLabel(symbol: string): string {
  const quote = symbol.endsWith('USDC') ? 'USDC' : 'USDT';
  return `${symbol.slice(0, -4)}/${quote}`;
}
