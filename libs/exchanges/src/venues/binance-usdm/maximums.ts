/**
 * Binance USDⓈ-M's maximums (issue 39), GET /fapi/v1/exchangeInfo `filters`: LOT_SIZE maxQty, MAX_NUM_ORDERS
 * `limit`, PERCENT_PRICE multiplierUp/multiplierDown against the mark price (a buy at most multiplierUp × it, a
 * sell at least multiplierDown × it).
 */
import { defined, filter, positive, type CcxtMarketLike, type Maximums } from '../ccxt-market';

export const BINANCE_USDM_MAXIMUMS = {
  ruleNames: { maxAmount: 'LOT_SIZE maxQty', maxNumOrders: 'MAX_NUM_ORDERS limit', percentPrice: 'PERCENT_PRICE' },
  read(m: CcxtMarketLike): Maximums {
    const plain = filter(m.info, 'PERCENT_PRICE');
    return {
      maxNumOrders: positive(filter(m.info, 'MAX_NUM_ORDERS')?.limit),
      percentPrice: plain ? defined({ bidUp: positive(plain.multiplierUp), askDown: positive(plain.multiplierDown) }) : undefined,
    };
  },
};
