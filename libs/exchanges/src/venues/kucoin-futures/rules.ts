/**
 * Kucoin futures (USDT-margined perpetuals): the documented rules a bot depends on, as data. Sources: docs/exchanges.md (Kucoin futures).
 */
import { DAY, type VenueRules } from '../venue.types';
import { KUCOIN_CLIENT_OID } from '../kucoin-spot/rules';

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
    // Leverage: 300016 "The leverage cannot be greater than xxx." (KF `_errors.md`). The margin mode change
    // (POST /api/v2/position/changeMarginMode, KF-NEW) with open orders or a position: refused by the venue (its
    // app says so) but no answer code is documented: the stand-in answers its generic 400100 (our reading)
    futuresSettings: {
      marginModeWithOpenOrders: { status: 200, code: '400100', msg: 'Parameter Error: marginMode cannot be changed with open orders' },
      marginModeWithPosition: { status: 200, code: '400100', msg: 'Parameter Error: marginMode cannot be changed with a position' },
      leverageInvalid: { status: 200, code: '300016', msg: 'The leverage cannot be greater than %s.' },
      leverageInvalidNames: 'max',
    },
    minNotional: { status: 200, code: '400100', msg: 'Parameter Error: size' },
    priceStep: { status: 200, code: '400100', msg: 'Parameter Error: price' },
    amountStep: { status: 200, code: '400100', msg: 'Parameter Error: size' },
  },
};
