/** The shape of a venue's rules (venues/<venue>/rules.ts); pure types and the one unit they use. */
import type { ExchangeName, MarketType, PositionMode, MarginMode } from '../exchange.port';

export const DAY = 24 * 60 * 60 * 1000;

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
  /** The format of a client order id, and how a refusal words it (the paper exchange's answer). */
  clientOrderId: { pattern: RegExp; maxLength: number; words: string };
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
    /**
     * Futures: a reduce-only order that would not reduce the position (no position, or one on the
     * order's own side: it would open or grow one) is refused (issue 32). Absent: the venue documents
     * no answer code for it, and the stand-in refuses with its generic parameter answer.
     */
    reduceOnlyRejected?: VenueAnswer;
    /**
     * Futures, the leverage and margin mode of a symbol (issue 40; docs/exchanges.md "Leverage and margin
     * mode"): the venue's answers to a margin mode change that changes nothing, one asked with open orders or
     * with a position, a leverage above what the symbol's tier allows, and (Binance) a lower leverage of an
     * isolated position. `%s` in a message is the leverage asked.
     */
    futuresSettings?: {
      marginModeUnchanged?: VenueAnswer;
      marginModeWithOpenOrders: VenueAnswer;
      marginModeWithPosition: VenueAnswer;
      leverageInvalid: VenueAnswer;
      /** What `%s` of leverageInvalid is: the leverage asked (Binance) or the highest allowed (KuCoin). */
      leverageInvalidNames: 'asked' | 'max';
      leverageReductionWithPosition?: VenueAnswer;
    };
    minNotional: VenueAnswer;
    priceStep: VenueAnswer;
    amountStep: VenueAnswer;
  };
}
