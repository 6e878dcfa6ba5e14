/**
 * KuCoin spot (ccxt `kucoin`, classic and HF accounts): everything of this venue the adapter needs (issue 42).
 * Rules with sources: ./rules.ts (docs/exchanges.md "Kucoin spot"); the key: ./account.ts.
 */
import type { Venue } from '../venue';
import { KUCOIN_SPOT_MAXIMUMS } from './maximums';
import { KUCOIN_SPOT_MARKETS, kucoinSpotFromCatalogue } from './markets';
import { KUCOIN_ACCOUNT } from './account';
import { KUCOIN_SPOT } from './rules';
import { KUCOIN_SPOT_CAPACITY } from './capacity';

export const KUCOIN_SPOT_VENUE: Venue = {
  id: 'kucoin-spot',
  exchange: 'Kucoin',
  market: 'spot',
  name: 'KuCoin spot',
  account: KUCOIN_ACCOUNT,
  rules: KUCOIN_SPOT,
  ccxt: {
    id: 'kucoin',
    configure(ex) {
      ex.options.fetchMarkets = { ...(ex.options.fetchMarkets ?? {}), types: ['spot'], fetchTickersFees: false };
    },
    loadMarketsParams: { marginables: false },
    maximums: KUCOIN_SPOT_MAXIMUMS,
    // markets shared from the public instance: the account's HF status is still this account's own
    sharedMarkets: { needed: (ex) => !!ex.apiKey && ex.options.hf === undefined, load: (ex) => ex.loadMigrationStatus() },
  },
  rest: {
    // KuCoin's Spot pool (VIP 0) 4,000 per 30 s; the headers carry the account's own pool (perAccount:
    // VenueBudget `countsInstall` false: only a 429 pauses the install)
    limits: { limit: 4000, windowMs: 30_000, callWeight: 10, perAccount: true },
    // open orders per symbol, 2 each (docs-new api-3470346 / HF api-3470178): an HF account's are listed
    // per symbol only (ccxt refuses the read without one)
    openOrdersWeight: { one: 2, all: Infinity },
    // "Get Orders List - Old" pageSize 10 to 500 (docs-new api-3470346)
    openOrdersPage: 500,
    tradePaging: 'pages',
    balanceParams: {},
    balanceRead: { call: 'GET /api/v1/accounts', weight: 5, pool: 'Management 2,000 per 30 s per account (VIP 0)', source: 'https://www.kucoin.com/docs-new/rate-limit' },
  },
  capacity: KUCOIN_SPOT_CAPACITY,
  streams: { userData: 'bullet-private tokens (POST /api/v1/bullet-private), ccxt pro kucoin' },
  markets: { rows: KUCOIN_SPOT_MARKETS, fromCatalogue: kucoinSpotFromCatalogue },
  standin: {
    dialect: 'testing/standin/kucoin.dialect.ts',
    suites: ['testing/standin/kucoin.streams.spec.ts', 'testing/standin/kucoin.rate-limits.spec.ts', 'ccxt.exchange.spec.ts'],
  },
};
