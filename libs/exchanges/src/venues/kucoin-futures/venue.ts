/**
 * KuCoin futures (ccxt `kucoinfutures`, USDT-margined perpetuals): everything of this venue the adapter
 * needs (issue 42). Rules with sources: ./rules.ts (docs/exchanges.md "Kucoin futures"); the key is KuCoin's
 * (../kucoin-spot/account.ts: one key, asked on the spot host).
 */
import type { Venue } from '../venue';
import { KUCOIN_FUTURES_MAXIMUMS } from './maximums';
import { KUCOIN_FUTURES_MARKETS, kucoinFuturesFromCatalogue } from './markets';
import { KUCOIN_FUTURES_MARGIN_TIERS } from './margin-tiers';
import { KUCOIN_ACCOUNT } from '../kucoin-spot/account';
import { KUCOIN_FUTURES } from './rules';
import { KUCOIN_FUTURES_CAPACITY } from './capacity';

export const KUCOIN_FUTURES_VENUE: Venue = {
  id: 'kucoin-futures',
  exchange: 'Kucoin',
  market: 'futures',
  name: 'KuCoin futures',
  account: KUCOIN_ACCOUNT,
  rules: KUCOIN_FUTURES,
  ccxt: {
    id: 'kucoinfutures',
    configure(ex) {
      ex.options.defaultType = 'swap';
    },
    loadMarketsParams: { marginables: false },
    maximums: KUCOIN_FUTURES_MAXIMUMS,
  },
  rest: {
    // KuCoin's Futures pool (VIP 0) 2,000 per 30 s, the account's own (see kucoin-spot)
    limits: { limit: 2000, windowMs: 30_000, callWeight: 10, perAccount: true },
    // GET /api/v1/orders weighs 2 with or without a symbol (docs-new api-3470244): one read for all from two symbols on
    openOrdersWeight: { one: 2, all: 2 },
    // "Get Order List" up to 1000 a page (api-3470244)
    openOrdersPage: 1000,
    tradePaging: 'pages',
    balanceParams: { code: 'USDT' },
    balanceRead: { call: 'GET /api/v1/account-overview', weight: 5, pool: 'Futures 2,000 per 30 s per account (VIP 0)', source: 'https://www.kucoin.com/docs-new/rate-limit' },
    // no leverage listing: the open positions carry theirs
    leverages: 'positions',
    // the margin mode on /api/v2/position/changeMarginMode; an isolated position's leverage travels on
    // every order (rules.leveragePerOrder), the cross endpoint is for cross only
    setLeverage: 'cross',
    reduceOnlyWithPositionSide: true,
  },
  capacity: KUCOIN_FUTURES_CAPACITY,
  streams: { userData: 'bullet-private tokens (POST /api/v1/bullet-private), ccxt pro kucoinfutures' },
  marginTiers: KUCOIN_FUTURES_MARGIN_TIERS,
  markets: { rows: KUCOIN_FUTURES_MARKETS, fromCatalogue: kucoinFuturesFromCatalogue },
  standin: {
    dialect: 'testing/standin/kucoin.dialect.ts',
    suites: ['testing/standin/kucoin.streams.spec.ts', 'testing/standin/futures-settings.standin.spec.ts', 'testing/standin/reduce-only.standin.spec.ts', 'ccxt.exchange.spec.ts'],
  },
};
