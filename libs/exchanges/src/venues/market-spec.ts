/**
 * The shape of a venue's market rows and the sources they cite (issue 32; markets.ts): the leaf the venue
 * folders' markets.ts build from.
 */
import type { PercentPrice } from '../exchange.port';

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


/** A row of a venue's markets: a source other than the catalogue. */
export type Row = Omit<MarketSpec, 'source'> & { source: Exclude<MarketSourceKey, 'catalogue'> };

/** The catalogue's values of a symbol (paper.constants.ts), used where the venue's are not known. */
export interface CatalogueSpec {
  priceStep: string;
  amountStep: string;
  minNotional: string;
}

/** Kucoin futures' shape of a market: a whole number of lots of `multiplier` base units, no minimum value. */
export const lots = (multiplier: string, tickSize: string, source: Row['source']): Row => ({
  priceStep: tickSize,
  amountStep: multiplier, // × lotSize 1
  minAmount: multiplier,
  minNotional: '0',
  contract: { multiplier, lotSize: '1' },
  source,
});
