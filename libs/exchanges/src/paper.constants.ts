/**
 * Every constant of the paper exchange in one place: fees, starting balance, default leverage, the
 * symbol catalogue (spec section 3, plus ETHUSDT) with realistic start prices and market rules.
 * Prices and steps are decimal strings so they convert to fixed-point units exactly.
 *
 * The catalogue's steps and minimum are NOT what an order is checked against: each venue's market has
 * its own (venues/markets.ts, issue 32). They are the fallback for a symbol whose market values were not
 * found in any source (marked 'catalogue' there and in docs/exchanges.md).
 */
import type { MarketType, PercentPrice } from './exchange.port';

/** Fee rates in basis points: spot 0.1 %, futures 0.02 %. Charged in the quote currency. */
export const PAPER_FEE_BPS: Readonly<Record<MarketType, number>> = { spot: 10, futures: 2 };

/** Every user starts with this much USDT on each exchange and market. */
export const PAPER_STARTING_USDT = '10000';

/** Binance's default futures leverage; used until setLeverage is called. */
export const PAPER_DEFAULT_LEVERAGE = 20;
export const PAPER_MAX_LEVERAGE = 125;

/** Random walk: one step per symbol every this many ms, each at most ± this many basis points. */
export const RANDOM_WALK_STEP_MS = 1000;
export const RANDOM_WALK_MAX_MOVE_BPS = 15;
/** After a long downtime the walk skips ahead instead of replaying more steps than this. */
export const RANDOM_WALK_MAX_CATCH_UP_STEPS = 3600;

export interface PaperSymbolSpec {
  symbol: string;
  /** Realistic start price of the random walk (and the price before a CSV's first row). */
  startPrice: string;
  priceStep: string;
  amountStep: string;
  minNotional: string;
  /** Smallest amount (base units); default the amount step. */
  minAmount?: string;
  /**
   * Set on a market's spec (PaperVenue.symbols(exchange, market)): where its rules come from
   * (venues/markets.ts MARKET_SOURCES), and Kucoin futures' contract size.
   */
  source?: string;
  contract?: { multiplier: string; lotSize: string };
  /** Issue 39: the market's maximums where its source states them (venues/markets.ts); absent: none. */
  maxAmount?: string;
  maxNotional?: string;
  maxNumOrders?: number;
  percentPrice?: PercentPrice;
}

const rows: Array<[string, string, string, string]> = [
  // symbol,     start price,  price step,   amount step   (fallback only: venues/markets.ts)
  ['BTCUSDT', '95000', '0.01', '0.00001'],
  ['BTCUSDC', '95000', '0.01', '0.00001'],
  ['ETHUSDT', '3300', '0.01', '0.0001'],
  ['ALGOUSDT', '0.2', '0.0001', '1'],
  ['ALICEUSDT', '0.35', '0.001', '0.1'],
  ['ATOMUSDT', '3.2', '0.001', '0.01'],
  ['AVAXUSDT', '18', '0.01', '0.01'],
  ['BCHUSDT', '480', '0.1', '0.001'],
  ['CAKEUSDT', '2.4', '0.001', '0.01'],
  ['COCOSUSDT', '0.00095', '0.000001', '1'],
  ['CRVSUSDT', '0.5', '0.0001', '0.1'],
  ['DOTUSDT', '3', '0.001', '0.01'],
  ['ETCUSDT', '14', '0.01', '0.01'],
  ['FILUSDT', '1.6', '0.001', '0.01'],
  ['GRASSUSDT', '0.6', '0.0001', '0.1'],
  ['GBPUSDT', '1.33', '0.0001', '0.1'],
  ['KCSUSDT', '11', '0.001', '0.01'],
  ['LTCUSDT', '90', '0.01', '0.001'],
  ['LINKUSDT', '14', '0.01', '0.01'],
  ['SFPUSDT', '0.35', '0.0001', '0.1'],
  ['STXUSDT', '0.45', '0.0001', '0.1'],
  ['SOLUSDT', '140', '0.01', '0.001'],
  ['TLMUSDT', '0.004', '0.000001', '1'],
  ['XTZUSDT', '0.55', '0.001', '0.1'],
  ['XRPUSDT', '2.2', '0.0001', '0.1'],
];

/** Minimum order value of the catalogue (fallback only, venues/markets.ts): Binance's usual 5 USDT. */
export const PAPER_MIN_NOTIONAL = '5';

export const PAPER_SYMBOLS: readonly PaperSymbolSpec[] = rows.map(([symbol, startPrice, priceStep, amountStep]) => ({
  symbol,
  startPrice,
  priceStep,
  amountStep,
  minNotional: PAPER_MIN_NOTIONAL,
}));

/**
 * Issue 39, "fifty idle bots on fifty symbols": 26 more USDT pairs the venues list (Binance spot and
 * USDⓈ-M, KuCoin spot and futures all list these bases against USDT), so that the stand-ins carry a fleet of
 * fifty bots on fifty symbols (test/venue-weight.spec.ts). No recorded answer of the venues gives their steps
 * (venues/markets.ts has no row for them): their market rules are the catalogue's fallback, marked
 * 'catalogue' there, in the form and in docs/exchanges.md, like the catalogue's own pairs without a row.
 */
const FLEET_ROWS: Array<[string, string, string, string]> = [
  // symbol,     start price,  price step,   amount step   (fallback only)
  ['BNBUSDT', '900', '0.01', '0.001'],
  ['DOGEUSDT', '0.2', '0.00001', '1'],
  ['TRXUSDT', '0.3', '0.0001', '0.1'],
  ['UNIUSDT', '7', '0.001', '0.01'],
  ['NEARUSDT', '2.5', '0.001', '0.1'],
  ['APTUSDT', '4', '0.001', '0.01'],
  ['ARBUSDT', '0.3', '0.0001', '0.1'],
  ['OPUSDT', '0.5', '0.0001', '0.01'],
  ['SUIUSDT', '2', '0.0001', '0.1'],
  ['INJUSDT', '8', '0.01', '0.01'],
  ['AAVEUSDT', '180', '0.01', '0.001'],
  ['ICPUSDT', '4', '0.001', '0.01'],
  ['HBARUSDT', '0.15', '0.00001', '1'],
  ['VETUSDT', '0.015', '0.00001', '1'],
  ['SANDUSDT', '0.16', '0.0001', '1'],
  ['MANAUSDT', '0.16', '0.0001', '1'],
  ['AXSUSDT', '1.2', '0.001', '0.01'],
  ['EGLDUSDT', '9', '0.01', '0.01'],
  ['THETAUSDT', '0.4', '0.001', '0.1'],
  ['RUNEUSDT', '0.7', '0.001', '0.1'],
  ['GALAUSDT', '0.008', '0.00001', '1'],
  ['LDOUSDT', '0.7', '0.001', '0.01'],
  ['SEIUSDT', '0.15', '0.0001', '0.1'],
  ['TIAUSDT', '0.7', '0.001', '0.01'],
  ['WLDUSDT', '0.6', '0.001', '0.1'],
  ['FETUSDT', '0.25', '0.0001', '0.1'],
];

/**
 * Issue 39, "Any pair the venue lists": pairs a venue lists that the paper catalogue does not. The venue
 * stand-ins' own venue core (a PaperVenue built with `symbols: STANDIN_SYMBOLS`) lists them, so a live bot
 * runs on them there; the paper exchange is built on PAPER_SYMBOLS and keeps its catalogue (a paper account
 * is refused them). Their market rules are the venue's rows (venues/markets.ts: ADAUSDT from BS-SNAP); the
 * start price is only the random walk's (a test's CSV sets its own).
 */
export const VENUE_ONLY_SYMBOLS: readonly PaperSymbolSpec[] = [
  { symbol: 'ADAUSDT', startPrice: '0.35', priceStep: '0.0001', amountStep: '0.1', minNotional: PAPER_MIN_NOTIONAL },
  ...FLEET_ROWS.map(([symbol, startPrice, priceStep, amountStep]) => ({ symbol, startPrice, priceStep, amountStep, minNotional: PAPER_MIN_NOTIONAL })),
];

/** What the venue stand-ins list: the catalogue and VENUE_ONLY_SYMBOLS. */
export const STANDIN_SYMBOLS: readonly PaperSymbolSpec[] = [...PAPER_SYMBOLS, ...VENUE_ONLY_SYMBOLS];
