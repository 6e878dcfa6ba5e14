/**
 * What an API key may do, as the venue reports it (issue 30: keys that cannot withdraw). The parsers of
 * each venue's answer live in its folder (binance-spot/, kucoin-spot/ key-permissions.ts); the ccxt adapter asks (ccxt.exchange.ts keyPermissions), the paper exchange and
 * the stand-ins answer in the same shapes. Endpoints and fields: docs/exchanges.md, "Key permissions".
 */

export type { KeyPermissions } from './key-permissions.types';
export { binanceKeyPermissions } from './binance-spot/key-permissions';
export { kucoinKeyPermissions } from './kucoin-spot/key-permissions';
