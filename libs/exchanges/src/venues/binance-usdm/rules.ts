/**
 * Binance USDⓈ-M futures: the documented rules a bot depends on, as data. Sources: docs/exchanges.md (Binance USDⓈ-M futures).
 */
import { DAY, type VenueRules } from '../venue.types';

export const BINANCE_USDM: VenueRules = {
  id: 'binance-usdm',
  exchange: 'Binance',
  market: 'futures',
  fees: { maker: 0.0002, taker: 0.0005, buyFeeIn: 'quote', sellFeeIn: 'quote', discountAsset: 'BNB', discount: 0.1 },
  clientOrderId: { pattern: /^[.A-Z:/a-z0-9_-]{1,36}$/, maxLength: 36, words: 'client order id must be 1 to 36 of A-Z a-z 0-9 . : / _ -' },
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
    // POST /fapi/v1/order `reduceOnly` ("true" or "false", one-way mode only: BF-ORDER,
    // https://developers.binance.com/docs/derivatives/usds-margined-futures/trade/rest-api/New-Order);
    // an order it flags that would not reduce the position is refused with -2022 REDUCE_ONLY_REJECT
    // (BF-ERR, https://developers.binance.com/docs/derivatives/usds-margined-futures/error-code#-2022-reduce_only_reject)
    reduceOnlyRejected: { status: 400, code: -2022, msg: 'ReduceOnly Order is rejected.' },
    // POST /fapi/v1/marginType and POST /fapi/v1/leverage ("Change Margin Type", "Change Initial Leverage": leverage
    // "int from 1 to 125") and their answers in the error codes (BF-ERR,
    // https://developers.binance.com/docs/derivatives/usds-margined-futures/error-code): -4046 NO_NEED_TO_CHANGE_MARGIN_TYPE,
    // -4047 THERE_EXISTS_OPEN_ORDERS, -4048 THERE_EXISTS_QUANTITY, -4028 INVALID_LEVERAGE ("Leverage %s is not valid"),
    // -4161 ISOLATED_LEVERAGE_REJECT_WITH_POSITION; as mirrored in github.com/rosssaunders/cryptoapidocs
    // docs/binance/usdm/private_rest_api.md (commit 172cf199cfe5f54e4ca2ceb80cad090946898890)
    futuresSettings: {
      marginModeUnchanged: { status: 400, code: -4046, msg: 'No need to change margin type.' },
      marginModeWithOpenOrders: { status: 400, code: -4047, msg: 'Margin type cannot be changed if there exists open orders.' },
      marginModeWithPosition: { status: 400, code: -4048, msg: 'Margin type cannot be changed if there exists position.' },
      leverageInvalid: { status: 400, code: -4028, msg: 'Leverage %s is not valid' },
      leverageInvalidNames: 'asked',
      leverageReductionWithPosition: { status: 400, code: -4161, msg: 'Leverage reduction is not supported in Isolated Margin Mode with open positions' },
    },
    minNotional: { status: 400, code: -4164, msg: "Order's notional must be no smaller than 100 (unless you choose reduce only)." },
    priceStep: { status: 400, code: -4014, msg: 'Price not increased by tick size.' },
    amountStep: { status: 400, code: -1111, msg: 'Precision is over the maximum defined for this asset.' },
  },
};
