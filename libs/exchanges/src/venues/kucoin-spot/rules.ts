/**
 * Kucoin spot: the documented rules a bot depends on, as data. Sources: docs/exchanges.md (Kucoin spot).
 */
import { DAY, type VenueRules } from '../venue.types';

/** clientOid: numbers, letters, _ and -, at most 40 (both Kucoin APIs). */
export const KUCOIN_CLIENT_OID = { pattern: /^[A-Za-z0-9_-]{1,40}$/, maxLength: 40, words: 'client order id must be 1 to 40 of A-Z a-z 0-9 _ -' };

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
