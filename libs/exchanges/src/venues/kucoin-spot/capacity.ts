/** KuCoin spot: the limits a start is checked against (issue 39, libs/bots domain/capacity.ts), each with its source. */
import type { VenueCapacity } from '../venue';

/** KuCoin's order caps and rate limits (its futures market's capacity cites them too). */
export const KUCOIN_ORDER_CAPS = 'https://www.kucoin.com/docs-new/rest/ua/place-order';
export const KUCOIN_RATE_LIMIT = 'https://www.kucoin.com/docs-new/rate-limit';

export const KUCOIN_SPOT_CAPACITY: VenueCapacity = {
  // classic account: 200 active orders per trading pair (and 2,000 per UID)
  maxOpenPerSymbol: { rule: 'active orders per trading pair', limit: 200, source: `${KUCOIN_ORDER_CAPS} (classic account, spot)` },
  orderWindows: [],
  weight: { rule: 'Spot resource pool (VIP 0)', label: '30 s', windowMs: 30_000, limit: 4000, source: KUCOIN_RATE_LIMIT },
  // HF open orders 2 a symbol (no all-symbols read is used), the account list 5 (the weights ccxt 4.5 records for KuCoin)
  reads: { openOrdersPerSymbol: 2, openOrdersAll: null, accountReads: 5, source: `${KUCOIN_RATE_LIMIT}; ccxt kucoin.js costs hf/orders/active 2, accounts 5` },
};
