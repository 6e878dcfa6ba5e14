/**
 * Venue rules: what Binance and Kucoin document and a bot depends on, as data and pure functions
 * (no I/O). Written once and used twice: by the paper exchange (the embedded default behaves like the
 * venue) and by the venue stand-ins of the ccxt adapter's tests (the adapter's requests are checked
 * the way the venue checks them). Every rule's source is cited in docs/exchanges.md.
 */
import type { ExchangeName, MarketType, OrderSide, PositionMode, MarginMode } from '../exchange.port';

export type VenueId = 'binance-spot' | 'binance-usdm' | 'kucoin-spot' | 'kucoin-futures';

/** An error answer exactly as the venue sends it (HTTP status and body). */
export interface VenueAnswer {
  status: number;
  code: string | number;
  msg: string;
}

export interface VenueRules {
  id: VenueId;
  exchange: ExchangeName;
  market: MarketType;
  fees: {
    /** Default (lowest tier) rates as fractions: 0.001 = 0.1 %. */
    maker: number;
    taker: number;
    /** The asset a fill's fee is charged in: 'base' = the coin received on a buy (Binance spot). */
    buyFeeIn: 'base' | 'quote';
    sellFeeIn: 'quote';
    /** Paying fees in BNB (Binance) / KCS (Kucoin) when the account enables it: the discount. */
    discountAsset?: 'BNB' | 'KCS';
    discount?: number;
  };
  clientOrderId: { pattern: RegExp; maxLength: number };
  /** Does the venue refuse orders below a minimum value? (Kucoin futures: only a minimum of 1 lot.) */
  minNotional: boolean;
  tradeHistory: {
    /** Longest allowed startTime..endTime span. */
    maxWindowMs: number;
    /** Page size: default and maximum. */
    defaultLimit: number;
    maxLimit: number;
    /** With only a start time the venue answers [start, start + this]. */
    startOnlyMs: number;
    /** Without start and end: the newest `limit` trades, or [now − this, now]. */
    noRange: 'newest' | number;
    /** How far back the venue keeps trades for this endpoint (Infinity: not documented). */
    retentionMs: number;
  };
  positionModes: readonly PositionMode[];
  marginModes: readonly MarginMode[];
  /** Kucoin futures: leverage and margin mode travel on every order. */
  leveragePerOrder: boolean;
  rateLimit: { statuses: readonly number[]; retryAfterHeader: boolean; answer: VenueAnswer };
  answers: {
    duplicateClientOrderId: VenueAnswer;
    /** Cancel of an order that is already filled or cancelled (or never existed). */
    cancelUnknownOrder: VenueAnswer;
    lookupUnknownOrder: VenueAnswer;
    insufficientFunds: VenueAnswer;
    badClientOrderId: VenueAnswer;
    tradeWindowTooLong: VenueAnswer;
    /** Binance futures: an order whose positionSide does not match the account's position mode. */
    positionSideMismatch?: VenueAnswer;
    /** Binance futures: reduceOnly sent in hedge mode. */
    reduceOnlyInHedgeMode?: VenueAnswer;
    minNotional: VenueAnswer;
    priceStep: VenueAnswer;
    amountStep: VenueAnswer;
  };
}

const DAY = 24 * 60 * 60 * 1000;

export const BINANCE_SPOT: VenueRules = {
  id: 'binance-spot',
  exchange: 'Binance',
  market: 'spot',
  fees: { maker: 0.001, taker: 0.001, buyFeeIn: 'base', sellFeeIn: 'quote', discountAsset: 'BNB', discount: 0.25 },
  clientOrderId: { pattern: /^[.A-Z:/a-z0-9_-]{1,36}$/, maxLength: 36 },
  minNotional: true,
  tradeHistory: { maxWindowMs: DAY, defaultLimit: 500, maxLimit: 1000, startOnlyMs: DAY, noRange: 'newest', retentionMs: Infinity },
  positionModes: ['oneway'],
  marginModes: [],
  leveragePerOrder: false,
  rateLimit: { statuses: [429, 418], retryAfterHeader: true, answer: { status: 429, code: -1003, msg: 'Too many requests; please use the websocket for live updates to avoid polling the API.' } },
  answers: {
    duplicateClientOrderId: { status: 400, code: -2010, msg: 'Duplicate order sent.' },
    cancelUnknownOrder: { status: 400, code: -2011, msg: 'Unknown order sent.' },
    lookupUnknownOrder: { status: 400, code: -2013, msg: 'Order does not exist.' },
    insufficientFunds: { status: 400, code: -2010, msg: 'Account has insufficient balance for requested action.' },
    badClientOrderId: { status: 400, code: -1100, msg: "Illegal characters found in parameter 'newClientOrderId'; legal range is '^[\\.A-Z\\:/a-z0-9_-]{1,36}$'." },
    tradeWindowTooLong: { status: 400, code: -1127, msg: 'More than 24 hours between startTime and endTime.' },
    minNotional: { status: 400, code: -1013, msg: 'Filter failure: NOTIONAL' },
    priceStep: { status: 400, code: -1013, msg: 'Filter failure: PRICE_FILTER' },
    amountStep: { status: 400, code: -1013, msg: 'Filter failure: LOT_SIZE' },
  },
};

export const BINANCE_USDM: VenueRules = {
  id: 'binance-usdm',
  exchange: 'Binance',
  market: 'futures',
  fees: { maker: 0.0002, taker: 0.0005, buyFeeIn: 'quote', sellFeeIn: 'quote', discountAsset: 'BNB', discount: 0.1 },
  clientOrderId: { pattern: /^[.A-Z:/a-z0-9_-]{1,36}$/, maxLength: 36 },
  minNotional: true,
  tradeHistory: { maxWindowMs: 7 * DAY, defaultLimit: 500, maxLimit: 1000, startOnlyMs: 7 * DAY, noRange: 7 * DAY, retentionMs: 183 * DAY },
  positionModes: ['oneway', 'hedge'],
  marginModes: ['isolated', 'cross'],
  leveragePerOrder: false,
  rateLimit: { statuses: [429, 418], retryAfterHeader: true, answer: { status: 429, code: -1003, msg: 'Too many requests; current limit is 2400 requests per minute.' } },
  answers: {
    duplicateClientOrderId: { status: 400, code: -4116, msg: 'ClientOrderId is duplicated.' },
    cancelUnknownOrder: { status: 400, code: -2011, msg: 'Unknown order sent.' },
    lookupUnknownOrder: { status: 400, code: -2013, msg: 'Order does not exist.' },
    insufficientFunds: { status: 400, code: -2019, msg: 'Margin is insufficient.' },
    badClientOrderId: { status: 400, code: -1100, msg: "Illegal characters found in parameter 'newClientOrderId'; legal range is '^[\\.A-Z\\:/a-z0-9_-]{1,36}$'." },
    tradeWindowTooLong: { status: 400, code: -1127, msg: 'More than 7 days between startTime and endTime.' },
    positionSideMismatch: { status: 400, code: -4061, msg: "Order's position side does not match user's setting." },
    reduceOnlyInHedgeMode: { status: 400, code: -1106, msg: "Parameter 'reduceonly' sent when not required." },
    minNotional: { status: 400, code: -4164, msg: "Order's notional must be no smaller than 100 (unless you choose reduce only)." },
    priceStep: { status: 400, code: -4014, msg: 'Price not increased by tick size.' },
    amountStep: { status: 400, code: -1111, msg: 'Precision is over the maximum defined for this asset.' },
  },
};

const KUCOIN_CLIENT_OID = { pattern: /^[A-Za-z0-9_-]{1,40}$/, maxLength: 40 };

export const KUCOIN_SPOT: VenueRules = {
  id: 'kucoin-spot',
  exchange: 'Kucoin',
  market: 'spot',
  fees: { maker: 0.001, taker: 0.001, buyFeeIn: 'quote', sellFeeIn: 'quote', discountAsset: 'KCS', discount: 0.2 },
  clientOrderId: KUCOIN_CLIENT_OID,
  minNotional: true,
  tradeHistory: { maxWindowMs: 7 * DAY, defaultLimit: 50, maxLimit: 500, startOnlyMs: 7 * DAY, noRange: DAY, retentionMs: Infinity },
  positionModes: ['oneway'],
  marginModes: [],
  leveragePerOrder: false,
  rateLimit: { statuses: [429], retryAfterHeader: false, answer: { status: 429, code: '429000', msg: 'Too many requests in a short period of time, please retry later.' } },
  answers: {
    duplicateClientOrderId: { status: 200, code: '400100', msg: 'clientOid is duplicated' },
    cancelUnknownOrder: { status: 404, code: '400100', msg: 'order_not_exist_or_not_allow_to_cancel' },
    lookupUnknownOrder: { status: 404, code: '400100', msg: 'order_not_exist' },
    insufficientFunds: { status: 200, code: '200004', msg: 'Balance insufficient!' },
    badClientOrderId: { status: 200, code: '400100', msg: 'clientOid: Only numbers, characters, underline(_) and separator(-) are allowed, at most 40' },
    tradeWindowTooLong: { status: 200, code: '400100', msg: 'The time range of the query exceeds 7 days' },
    minNotional: { status: 200, code: '400100', msg: 'Order funds invalid' },
    priceStep: { status: 200, code: '400100', msg: 'Price increment invalid.' },
    amountStep: { status: 200, code: '400100', msg: 'Order size increment invalid.' },
  },
};

export const KUCOIN_FUTURES: VenueRules = {
  id: 'kucoin-futures',
  exchange: 'Kucoin',
  market: 'futures',
  fees: { maker: 0.0002, taker: 0.0006, buyFeeIn: 'quote', sellFeeIn: 'quote' },
  clientOrderId: KUCOIN_CLIENT_OID,
  minNotional: false,
  tradeHistory: { maxWindowMs: 7 * DAY, defaultLimit: 50, maxLimit: 1000, startOnlyMs: DAY, noRange: DAY, retentionMs: Infinity },
  positionModes: ['oneway', 'hedge'],
  marginModes: ['isolated', 'cross'],
  leveragePerOrder: true,
  rateLimit: { statuses: [429], retryAfterHeader: false, answer: { status: 429, code: '429000', msg: 'Too many requests in a short period of time, please retry later.' } },
  answers: {
    duplicateClientOrderId: { status: 200, code: '300000', msg: 'The clientOid is duplicated' },
    cancelUnknownOrder: { status: 404, code: '100001', msg: 'order_not_exist' },
    lookupUnknownOrder: { status: 404, code: '100001', msg: 'order_not_exist' },
    insufficientFunds: { status: 200, code: '300003', msg: 'Balance not enough, please first deposit at least 0.1 USDT.' },
    badClientOrderId: { status: 200, code: '400100', msg: 'Parameter Error: clientOid' },
    tradeWindowTooLong: { status: 200, code: '400100', msg: 'Parameter Error: the time range exceeds 7 days' },
    minNotional: { status: 200, code: '400100', msg: 'Parameter Error: size' },
    priceStep: { status: 200, code: '400100', msg: 'Parameter Error: price' },
    amountStep: { status: 200, code: '400100', msg: 'Parameter Error: size' },
  },
};

export const VENUES: readonly VenueRules[] = [BINANCE_SPOT, BINANCE_USDM, KUCOIN_SPOT, KUCOIN_FUTURES];

export function venueRules(exchange: ExchangeName, market: MarketType): VenueRules {
  if (exchange === 'Binance') return market === 'spot' ? BINANCE_SPOT : BINANCE_USDM;
  return market === 'spot' ? KUCOIN_SPOT : KUCOIN_FUTURES;
}

/** The fee of one fill: which asset it is charged in and how much, before any rounding. */
export function fillFee(
  rules: VenueRules,
  fill: { side: OrderSide; price: number; amount: number; role: 'maker' | 'taker' },
  options: { payInDiscountAsset?: boolean; discountAssetPrice?: number; base: string; quote: string } = { base: 'BASE', quote: 'QUOTE' },
): { asset: string; cost: number; quoteValue: number } {
  const rate = fill.role === 'maker' ? rules.fees.maker : rules.fees.taker;
  const notional = fill.price * fill.amount;
  if (options.payInDiscountAsset && rules.fees.discountAsset && options.discountAssetPrice) {
    const quoteValue = notional * rate * (1 - (rules.fees.discount ?? 0));
    return { asset: rules.fees.discountAsset, cost: quoteValue / options.discountAssetPrice, quoteValue };
  }
  if (fill.side === 'buy' && rules.fees.buyFeeIn === 'base') {
    const cost = fill.amount * rate;
    return { asset: options.base, cost, quoteValue: cost * fill.price };
  }
  return { asset: options.quote, cost: notional * rate, quoteValue: notional * rate };
}

/** What a buy of `amount` leaves in the account after a fee charged in the coin received. */
export function netBoughtAmount(rules: VenueRules, amount: number, role: 'maker' | 'taker' = 'maker'): number {
  if (rules.fees.buyFeeIn !== 'base') return amount;
  return amount * (1 - (role === 'maker' ? rules.fees.maker : rules.fees.taker));
}

/**
 * The smallest take-profit (percent above the average buy price) that covers a round trip of maker
 * fees (buy and take-profit sell both rest on the book): (1 + m) / (1 − m) − 1, rounded UP to
 * 0.01 %. A take-profit at or below it books a loss as "profit".
 */
export function minTakeProfitPercent(exchange: ExchangeName, market: MarketType): number {
  const m = venueRules(exchange, market).fees.maker;
  const breakEven = ((1 + m) / (1 - m) - 1) * 100;
  // the next 0.01 % strictly above break-even
  return Math.ceil(breakEven * 100 + 1e-9) / 100;
}

/** Does this client order id pass the venue's format check? */
export function validClientOrderId(rules: VenueRules, id: unknown): boolean {
  return typeof id === 'string' && id.length <= rules.clientOrderId.maxLength && rules.clientOrderId.pattern.test(id);
}

/**
 * The [start, end] windows (inclusive, ms) a fill recovery from `sinceMs` to `nowMs` must ask for, each
 * no longer than the venue allows, oldest first.
 */
export function tradeWindows(rules: VenueRules, sinceMs: number, nowMs: number): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  const span = rules.tradeHistory.maxWindowMs;
  for (let start = sinceMs; start <= nowMs; start += span) out.push([start, Math.min(start + span - 1, nowMs)]);
  return out;
}
