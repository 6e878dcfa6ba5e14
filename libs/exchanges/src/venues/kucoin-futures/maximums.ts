/** KuCoin futures' maximums (issue 39), GET /api/v1/contracts/active: maxOrderQty in lots (ccxt: limits.amount.max, in contracts). */
import type { Maximums } from '../ccxt-market';

export const KUCOIN_FUTURES_MAXIMUMS = {
  ruleNames: { maxAmount: 'maxOrderQty' },
  read(): Maximums {
    return {};
  },
};
