/**
 * Binance spot (ccxt `binance`): everything of this venue the adapter needs, in one place (issue 42).
 * Rules with sources: ./rules.ts (docs/exchanges.md "Binance spot"); the key: ./account.ts.
 */
import type { CcxtInstanceLike, Venue } from '../venue';
import { BINANCE_SPOT_MAXIMUMS } from './maximums';
import { BINANCE_SPOT_MARKETS, binanceSpotFromCatalogue } from './markets';
import { BINANCE_ACCOUNT } from './account';
import { BINANCE_SPOT } from './rules';
import { BINANCE_SPOT_CAPACITY } from './capacity';

/**
 * The user data rides a WebSocket API subscription (userDataStream.subscribe.signature) that ccxt marks in
 * its client's `subscriptions.spot` and drops on `eventStreamTerminated`: the subscription, not only the socket.
 */
export function binanceSpotSubscribed(ex: CcxtInstanceLike): boolean {
  const url = ex.urls?.api?.ws?.['ws-api']?.spot;
  const client = url ? ex.clients?.[url] : undefined;
  try {
    return !!client && client.isOpen?.() === true && !!client.subscriptions?.spot;
  } catch {
    return false;
  }
}

export const BINANCE_SPOT_VENUE: Venue = {
  id: 'binance-spot',
  exchange: 'Binance',
  market: 'spot',
  name: 'Binance spot',
  account: BINANCE_ACCOUNT,
  rules: BINANCE_SPOT,
  ccxt: {
    id: 'binance',
    configure(ex) {
      ex.options.fetchMarkets = { ...(ex.options.fetchMarkets ?? {}), types: ['spot'] };
      ex.options.fetchMargins = false; // no margin trading: skip the sapi margin pair lists
    },
    loadMarketsParams: {},
    maximums: BINANCE_SPOT_MAXIMUMS,
  },
  rest: {
    // callWeight: what a call is counted as while in flight, about the venue's typical call (an order 1,
    // a symbol's open orders 6, an order 4, trades 5–20, the account 20)
    limits: { limit: 6000, windowMs: 60_000, callWeight: 10 },
    // GET /api/v3/openOrders: 6 for one symbol, 80 for all (docs/exchanges.md "Rate limits")
    openOrdersWeight: { one: 6, all: 80 },
    tradePaging: 'time',
    balanceParams: {},
    balanceRead: { call: 'GET /api/v3/account', weight: 20, pool: 'REQUEST_WEIGHT 6,000 a minute per IP', source: 'https://developers.binance.com/docs/binance-spot-api-docs/rest-api/account-endpoints#account-information-user_data' },
  },
  capacity: BINANCE_SPOT_CAPACITY,
  streams: {
    userData: "the WebSocket API's userDataStream.subscribe.signature (ccxt pro binance)",
    userDataOpen: binanceSpotSubscribed,
  },
  markets: { rows: BINANCE_SPOT_MARKETS, fromCatalogue: binanceSpotFromCatalogue },
  standin: {
    dialect: 'testing/standin/binance.dialect.ts',
    suites: ['testing/standin/binance-spot.streams.spec.ts', 'testing/standin/venue-pairs.standin.spec.ts', 'testing/standin/binance-klines.spec.ts', 'ccxt.exchange.spec.ts'],
  },
};
