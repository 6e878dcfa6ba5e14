/** KuCoin spot's maximums (issue 39), GET /api/v2/symbols: baseMaxSize, quoteMaxSize (ccxt: limits.amount.max, limits.cost.max). */
import { positive, type CcxtMarketLike, type Maximums } from '../ccxt-market';

export const KUCOIN_SPOT_MAXIMUMS = {
  ruleNames: { maxAmount: 'baseMaxSize', maxNotional: 'quoteMaxSize' },
  read(m: CcxtMarketLike): Maximums {
    return { maxNotional: positive(m.limits?.cost?.max) ?? positive((m.info as { quoteMaxSize?: unknown })?.quoteMaxSize) };
  },
};
