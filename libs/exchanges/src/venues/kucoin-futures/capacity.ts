/** KuCoin futures: the limits a start is checked against (issue 39, libs/bots domain/capacity.ts), each with its source. */
import type { VenueCapacity } from '../venue';
import { KUCOIN_ORDER_CAPS, KUCOIN_RATE_LIMIT } from '../kucoin-spot/capacity';

export const KUCOIN_FUTURES_CAPACITY: VenueCapacity = {
  // classic account: 100 limit orders per contract per UID
  maxOpenPerSymbol: { rule: 'limit orders per contract', limit: 100, source: `${KUCOIN_ORDER_CAPS} (classic account, futures)` },
  orderWindows: [],
  weight: { rule: 'Futures resource pool (VIP 0)', label: '30 s', windowMs: 30_000, limit: 2000, source: KUCOIN_RATE_LIMIT },
  // open orders 2 a contract, account overview 5, positions 2 (ccxt kucoinfutures.js: "2FW", "5FW", "2FW")
  reads: { openOrdersPerSymbol: 2, openOrdersAll: null, accountReads: 7, source: `${KUCOIN_RATE_LIMIT}; ccxt kucoinfutures.js costs orders 2FW, account-overview 5FW, positions 2FW` },
};
