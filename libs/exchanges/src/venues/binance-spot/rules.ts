/**
 * Binance spot: the documented rules a bot depends on, as data. Sources: docs/exchanges.md (Binance spot).
 */
import { DAY, type VenueRules } from '../venue.types';

export { DAY };

export const BINANCE_SPOT: VenueRules = {
  id: 'binance-spot',
  exchange: 'Binance',
  market: 'spot',
  fees: { maker: 0.001, taker: 0.001, buyFeeIn: 'base', sellFeeIn: 'quote', discountAsset: 'BNB', discount: 0.25 },
  clientOrderId: { pattern: /^[.A-Z:/a-z0-9_-]{1,36}$/, maxLength: 36, words: 'client order id must be 1 to 36 of A-Z a-z 0-9 . : / _ -' },
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
