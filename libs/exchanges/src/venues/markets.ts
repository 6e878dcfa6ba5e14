/**
 * Each venue's markets as the venue reports them (issue 32): price step, amount step, minimum amount
 * and minimum order value per symbol, for Binance spot, Binance USDⓈ-M futures, Kucoin spot and Kucoin
 * futures, the same symbol differing by market (Binance's SOLUSDT perpetual trades whole coins where
 * its spot market takes 0.001 SOL). Pure data and one lookup; the paper exchange checks orders against
 * it and reports it as the market's rules (paper-order-rules.ts, paper.exchange.ts marketRules), so the
 * bot's create-time check (libs/bots market-check.ts) refuses what the venue's market would refuse.
 *
 * Every row names its source (MARKET_SOURCES, also in docs/exchanges.md "Markets"). The venues publish
 * a symbol's current values only through their APIs (Binance GET /api/v3/exchangeInfo and
 * /fapi/v1/exchangeInfo, Kucoin GET /api/v2/symbols and /api/v1/contracts/active), not in their
 * documentation; the rows below are the venues' own answers as recorded in public snapshots (with the
 * commit), announced changes, and one value only the issue states (ISSUE-32: re-check it). A symbol without a row here was NOT found in any source: the paper
 * catalogue's values (paper.constants.ts) are used for it and `source` says 'catalogue' — not the venue's
 * word (docs/exchanges.md lists which). Values change on the venues without notice ("Binance Futures will
 * adjust the minimum order threshold from time to time without prior announcement", BF-MIN5).
 *
 * Fees are per venue and market, not per symbol: the venue rules' `fees` (binance-spot.rules.ts …),
 * sources in docs/exchanges.md.
 */
import type { ExchangeName, MarketType, PercentPrice } from '../exchange.port';
import type { VenueId } from './venue.types';

export const MARKET_SOURCES = {
  /** Binance spot: the `filters` of GET /api/v3/exchangeInfo (PRICE_FILTER tickSize, LOT_SIZE stepSize/minQty, NOTIONAL minNotional). */
  'BS-SNAP':
    'GET /api/v3/exchangeInfo answer recorded in github.com/ccxt/ccxt ts/src/test/static/markets/binance.json (commit 0dca8ac0a3ce97d642fd9973b3121c2d6e3e3063, markets["BTC/USDT"… ].info.filters); filter meanings: binance-spot-api-docs filters.md (BS-FILT)',
  /** Binance USDⓈ-M: the `filters` of GET /fapi/v1/exchangeInfo (PRICE_FILTER, LOT_SIZE, MARKET_LOT_SIZE, MIN_NOTIONAL notional). */
  'BF-SNAP':
    'GET /fapi/v1/exchangeInfo answer recorded in github.com/ccxt/ccxt ts/src/test/static/markets/binance.json (commit 0dca8ac0a3ce97d642fd9973b3121c2d6e3e3063, markets["BTC/USDT:USDT"… ].info.filters; taken in late 2023, before BF-NOTIONAL-2023)',
  /** The minimum order value of BTCUSDT and ETHUSDT perpetuals since 2023-11-02. */
  'BF-NOTIONAL-2023':
    'Binance Futures announcement of the minimum notional update of 2023-11-02 10:00 UTC: BTCUSDT 5 → 100 USDT, ETHUSDT 5 → 20 USDT ("can be checked through GET /fapi/v1/exchangeInfo"); as reposted at https://app.wrgsb.com/tr/post/status/17744539 (the original announcement was not in the searched corpus)',
  /** The default minimum order value of every USDⓈ-M contract. */
  'BF-MIN5':
    'Binance "Updates to USDⓈ-M Futures Trading Rules" (2021-02-23): "The minimum notional value of each order must be no less than the threshold of 5 USDT", reduce-only not affected, https://www.binance.com/ru/support/announcement/1d762daf60dd417f9d8a05d44b06a25c ; also https://www.binance.com/en/support/faq/360033161972',
  /** SOLUSDT perpetual: amount step 1, minimum 1 SOL. */
  'ISSUE-32':
    'GitHub issue 32 of this project ("Paper markets as the venues have them"), quoting the live /fapi/v1/exchangeInfo: SOLUSDT LOT_SIZE stepSize 1, minQty 1. Not found in the searched documentation or snapshots; re-check against the venue',
  /** Kucoin spot: GET /api/v2/symbols (priceIncrement, baseIncrement, baseMinSize, minFunds). */
  'KS-SNAP':
    'GET /api/v2/symbols answer recorded in github.com/ccxt/ccxt ts/src/test/static/markets/kucoin.json (commit 18c1301c3177d77ac7c5e59fba7f332956b4a70c, markets["BTC/USDT"].info …); field meanings: Kucoin spot API docs "Get Symbols List" (KS)',
  /** Kucoin futures: GET /api/v1/contracts/active (multiplier, lotSize, tickSize). */
  'KF-SNAP':
    'GET /api/v1/contracts/active answer recorded in github.com/ccxt/ccxt ts/src/test/static/markets/kucoinfutures.json (commit 23dc7b5a4544e4b2fd19ab33b3576a1296f345e5: XBTUSDTM, ETHUSDTM); field meanings: Kucoin futures API docs "Get Open Contract List" (KF)',
  'KF-SOL':
    'GET /api/v1/contracts/active answer (SOLUSDTM: multiplier 0.1, lotSize 1, tickSize 0.001; markPrice 133) recorded in a test mock of github.com/hummingbot/hummingbot, test/hummingbot/data_feed/candles_feed/kucoin_perpetual_candles/test_kucoin_perpetual_candles.py (commit ff17959413f0c8e3553fdc55de946d9600a9121f)',
  /** No source found: the paper catalogue's values. */
  catalogue: 'not found in any searched source: the paper catalogue (paper.constants.ts), not the venue\'s word',
} as const;

export type MarketSourceKey = keyof typeof MARKET_SOURCES;

/** One market's order rules, decimal strings (exact in fixed point). */
export interface MarketSpec {
  /** Price increment (Binance PRICE_FILTER tickSize, Kucoin priceIncrement / tickSize), quote. */
  priceStep: string;
  /** Amount increment in base units (LOT_SIZE stepSize, baseIncrement; Kucoin futures: multiplier × lotSize). */
  amountStep: string;
  /** Smallest amount in base units (LOT_SIZE minQty, baseMinSize; Kucoin futures: one lot). */
  minAmount: string;
  /** Smallest order value in quote (NOTIONAL minNotional, MIN_NOTIONAL notional, minFunds); '0': none. */
  minNotional: string;
  /**
   * Kucoin futures: an order's size is a whole number of contracts, each `multiplier` base units, in
   * multiples of `lotSize` contracts. Paper takes base amounts: amount = contracts × multiplier, so the
   * amount step is multiplier × lotSize and the smallest amount one lot (the stand-in sends
   * size = amount ÷ multiplier).
   */
  contract?: { multiplier: string; lotSize: string };
  /** Where the values come from (MARKET_SOURCES). */
  source: MarketSourceKey;
  /**
   * Issue 39, the market's maximums where the source states them (market-maximums.ts names the rules):
   * largest amount of one order (LOT_SIZE maxQty), largest order value (NOTIONAL maxNotional), most open
   * orders on the symbol (MAX_NUM_ORDERS), the price band around the current price (PERCENT_PRICE_BY_SIDE,
   * USDⓈ-M PERCENT_PRICE). Absent: not known, not checked.
   */
  maxAmount?: string;
  maxNotional?: string;
  maxNumOrders?: number;
  percentPrice?: PercentPrice;
}

type Row = Omit<MarketSpec, 'source'> & { source: Exclude<MarketSourceKey, 'catalogue'> };

/** Binance spot's maximums shared by the BS-SNAP rows: NOTIONAL maxNotional, MAX_NUM_ORDERS, PERCENT_PRICE_BY_SIDE. */
const BS_MAX = { maxNotional: '9000000', maxNumOrders: 200, percentPrice: { bidUp: 5, bidDown: 0.2, askUp: 5, askDown: 0.2 } } as const;

/** Binance spot, LOT_SIZE minQty = stepSize on these symbols. */
const BINANCE_SPOT_MARKETS: Record<string, Row> = {
  BTCUSDT: { priceStep: '0.01', amountStep: '0.00001', minAmount: '0.00001', minNotional: '5', source: 'BS-SNAP', maxAmount: '9000', ...BS_MAX },
  ETHUSDT: { priceStep: '0.01', amountStep: '0.0001', minAmount: '0.0001', minNotional: '5', source: 'BS-SNAP', maxAmount: '9000', ...BS_MAX },
  LTCUSDT: { priceStep: '0.01', amountStep: '0.001', minAmount: '0.001', minNotional: '5', source: 'BS-SNAP', maxAmount: '90000', ...BS_MAX },
  // issue 39: listed by the venue, not in the paper catalogue (paper.constants.ts VENUE_ONLY_SYMBOLS: the stand-ins list it)
  ADAUSDT: { priceStep: '0.0001', amountStep: '0.1', minAmount: '0.1', minNotional: '5', source: 'BS-SNAP', maxAmount: '900000', ...BS_MAX },
  XRPUSDT: { priceStep: '0.0001', amountStep: '1', minAmount: '1', minNotional: '5', source: 'BS-SNAP' },
};

/** USDⓈ-M maximums of the BF-SNAP rows: MAX_NUM_ORDERS limit 200, PERCENT_PRICE 1.05 / 0.95 of the mark price (a buy at most, a sell at least). */
const BF_MAX = { maxNumOrders: 200, percentPrice: { bidUp: 1.05, askDown: 0.95 } } as const;

/** Binance USDⓈ-M perpetuals (MARKET_LOT_SIZE equals LOT_SIZE's step and minimum on these symbols in BF-SNAP). */
const BINANCE_USDM_MARKETS: Record<string, Row> = {
  BTCUSDT: { priceStep: '0.1', amountStep: '0.001', minAmount: '0.001', minNotional: '100', source: 'BF-NOTIONAL-2023', maxAmount: '1000', ...BF_MAX }, // steps and maximums: BF-SNAP
  ETHUSDT: { priceStep: '0.01', amountStep: '0.001', minAmount: '0.001', minNotional: '20', source: 'BF-NOTIONAL-2023', maxAmount: '10000', ...BF_MAX }, // steps and maximums: BF-SNAP
  LTCUSDT: { priceStep: '0.01', amountStep: '0.001', minAmount: '0.001', minNotional: '5', source: 'BF-SNAP', maxAmount: '10000', ...BF_MAX },
  XRPUSDT: { priceStep: '0.0001', amountStep: '0.1', minAmount: '0.1', minNotional: '5', source: 'BF-SNAP' },
  // tick size not in ISSUE-32: the catalogue's 0.01; minimum value the default of BF-MIN5
  SOLUSDT: { priceStep: '0.01', amountStep: '1', minAmount: '1', minNotional: '5', source: 'ISSUE-32' },
};

/** Kucoin spot. */
const KUCOIN_SPOT_MARKETS: Record<string, Row> = {
  BTCUSDT: { priceStep: '0.1', amountStep: '0.00000001', minAmount: '0.00001', minNotional: '0.1', source: 'KS-SNAP' },
  ETHUSDT: { priceStep: '0.01', amountStep: '0.0000001', minAmount: '0.0001', minNotional: '0.1', source: 'KS-SNAP' },
};

const lots = (multiplier: string, tickSize: string, source: Row['source']): Row => ({
  priceStep: tickSize,
  amountStep: multiplier, // × lotSize 1
  minAmount: multiplier,
  minNotional: '0',
  contract: { multiplier, lotSize: '1' },
  source,
});

/** Kucoin futures (USDT-margined perpetuals, lotSize 1 on all of these); no minimum order value (KF). */
const KUCOIN_FUTURES_MARKETS: Record<string, Row> = {
  BTCUSDT: lots('0.001', '0.1', 'KF-SNAP'),
  ETHUSDT: lots('0.01', '0.01', 'KF-SNAP'),
  SOLUSDT: lots('0.1', '0.001', 'KF-SOL'),
};

export const MARKETS: Readonly<Record<VenueId, Readonly<Record<string, Row>>>> = {
  'binance-spot': BINANCE_SPOT_MARKETS,
  'binance-usdm': BINANCE_USDM_MARKETS,
  'kucoin-spot': KUCOIN_SPOT_MARKETS,
  'kucoin-futures': KUCOIN_FUTURES_MARKETS,
};

export function venueIdOf(exchange: ExchangeName, market: MarketType): VenueId {
  if (exchange === 'Binance') return market === 'spot' ? 'binance-spot' : 'binance-usdm';
  return market === 'spot' ? 'kucoin-spot' : 'kucoin-futures';
}

/** The catalogue's values of a symbol (paper.constants.ts), used where the venue's are not known. */
export interface CatalogueSpec {
  priceStep: string;
  amountStep: string;
  minNotional: string;
}

/**
 * The rules of `symbol` on `exchange`'s `market`: the venue's row, else the catalogue's values
 * (source 'catalogue'), shaped by what the venue's market documents: Kucoin futures trades in lots
 * (the catalogue's amount step as the multiplier) with no minimum value; Binance USDⓈ-M has the 5 USDT
 * default minimum (BF-MIN5).
 */
export function marketSpec(exchange: ExchangeName, market: MarketType, symbol: string, catalogue: CatalogueSpec): MarketSpec {
  const id = venueIdOf(exchange, market);
  const row = MARKETS[id][symbol.toUpperCase()];
  if (row) return { ...row };
  if (id === 'kucoin-futures') return { ...lots(catalogue.amountStep, catalogue.priceStep, 'KF-SNAP'), source: 'catalogue' };
  return {
    priceStep: catalogue.priceStep,
    amountStep: catalogue.amountStep,
    minAmount: catalogue.amountStep,
    minNotional: id === 'binance-usdm' ? '5' : catalogue.minNotional,
    source: 'catalogue',
  };
}
