/**
 * Binance USDⓈ-M futures (ccxt `binanceusdm`): everything of this venue the adapter needs (issue 42).
 * Rules with sources: ./rules.ts (docs/exchanges.md "Binance USDⓈ-M futures"); the key is Binance's
 * (../binance-spot/account.ts: one key, asked on the spot host).
 */
import type { Venue } from '../venue';
import { BINANCE_USDM_MAXIMUMS } from './maximums';
import { BINANCE_USDM_MARKETS, binanceUsdmFromCatalogue } from './markets';
import { BINANCE_USDM_MARGIN_TIERS } from './margin-tiers';
import { BINANCE_ACCOUNT } from '../binance-spot/account';
import { BINANCE_USDM } from './rules';
import { BINANCE_USDM_CAPACITY } from './capacity';

export const BINANCE_USDM_VENUE: Venue = {
  id: 'binance-usdm',
  exchange: 'Binance',
  market: 'futures',
  name: 'Binance USDⓈ-M',
  account: BINANCE_ACCOUNT,
  rules: BINANCE_USDM,
  ccxt: {
    id: 'binanceusdm',
    configure(ex) {
      ex.options.defaultType = 'swap';
    },
    loadMarketsParams: {},
    maximums: BINANCE_USDM_MAXIMUMS,
  },
  rest: {
    limits: { limit: 2400, windowMs: 60_000, callWeight: 5 }, // calls mostly weigh 1–5
    // GET /fapi/v1/openOrders: 1 for one symbol, 40 for all
    openOrdersWeight: { one: 1, all: 40 },
    tradePaging: 'time',
    balanceParams: {},
    balanceRead: { call: 'GET /fapi/v3/account', weight: 5, pool: 'REQUEST_WEIGHT 2,400 a minute per IP', source: 'https://developers.binance.com/docs/derivatives/usds-margined-futures/account/rest-api/Account-Information-V3' },
    // /fapi/v1/symbolConfig: the leverage of every symbol, with or without a position
    leverages: 'listing',
    // POST /fapi/v1/marginType then /fapi/v1/leverage
    setLeverage: 'always',
    // hedge mode: reduceOnly must not be sent with positionSide (-1106)
    reduceOnlyWithPositionSide: false,
  },
  capacity: BINANCE_USDM_CAPACITY,
  streams: {
    userData: 'a listenKey stream (POST /fapi/v1/listenKey) kept alive by ccxt pro binanceusdm',
    // ccxt keeps a listenKey 20 minutes before it asks again: after a failure (an expired key,
    // listenKeyExpired) the next subscription asks for a fresh one (POST /fapi/v1/listenKey)
    renew(ex) {
      ex.options.future = { ...(ex.options.future ?? {}), listenKey: undefined, lastAuthenticatedTime: 0 };
    },
  },
  marginTiers: BINANCE_USDM_MARGIN_TIERS,
  markets: { rows: BINANCE_USDM_MARKETS, fromCatalogue: binanceUsdmFromCatalogue },
  standin: {
    dialect: 'testing/standin/binance.dialect.ts',
    suites: ['testing/standin/binance-usdm.streams.spec.ts', 'testing/standin/futures-settings.standin.spec.ts', 'testing/standin/reduce-only.standin.spec.ts', 'ccxt.exchange.spec.ts'],
  },
};
