/** Binance USDⓈ-M: the limits a start is checked against (issue 39, libs/bots domain/capacity.ts), each with its source. */
import type { VenueCapacity } from '../venue';
import { binanceCapacity } from '../binance-spot/capacity';

const BINANCE_USDM_INFO = 'https://developers.binance.com/docs/derivatives/usds-margined-futures/general-info';

export const BINANCE_USDM_CAPACITY: VenueCapacity = binanceCapacity({
  maxOpen: { limit: 200, source: 'https://developers.binance.com/docs/derivatives/usds-margined-futures/market-data/rest-api/Exchange-Information (filter MAX_NUM_ORDERS, limit 200)' },
  orderWindows: [['10 s', 10_000, 300, 'SECOND 10'], ['1 min', 60_000, 1200, 'MINUTE 1']],
  sources: BINANCE_USDM_INFO,
  weightLimit: 2400,
  // GET /fapi/v1/openOrders 1 with a symbol, 40 without; GET /fapi/v2/account 5 and positionRisk 5
  reads: { openOrdersPerSymbol: 1, openOrdersAll: 40, accountReads: 10, source: 'https://developers.binance.com/docs/derivatives/usds-margined-futures/trade/rest-api/Current-All-Open-Orders (weights)' },
});
