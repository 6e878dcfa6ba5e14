/**
 * Binance spot's maximums (issue 39), GET /api/v3/exchangeInfo `filters`
 * (https://developers.binance.com/docs/binance-spot-api-docs/filters): LOT_SIZE maxQty ("quantity <= maxQty"),
 * NOTIONAL maxNotional ("price * quantity <= maxNotional"), MAX_NUM_ORDERS maxNumOrders ("the maximum number of
 * orders an account is allowed to have open on a symbol"), PERCENT_PRICE_BY_SIDE ("buy: price <=
 * weightedAveragePrice * bidMultiplierUp, price >= weightedAveragePrice * bidMultiplierDown"; sells the same with
 * askMultiplierUp/Down). ccxt's binance market puts LOT_SIZE maxQty in limits.amount.max and NOTIONAL
 * maxNotional in limits.cost.max.
 */
import { defined, filter, positive, type CcxtMarketLike, type Maximums, type PercentPrice } from '../ccxt-market';

export const BINANCE_SPOT_MAXIMUMS = {
  ruleNames: { maxAmount: 'LOT_SIZE maxQty', maxNotional: 'NOTIONAL maxNotional', maxNumOrders: 'MAX_NUM_ORDERS maxNumOrders', percentPrice: 'PERCENT_PRICE_BY_SIDE' },
  read(m: CcxtMarketLike): Maximums {
    const info = m.info;
    const side = filter(info, 'PERCENT_PRICE_BY_SIDE');
    const plain = filter(info, 'PERCENT_PRICE');
    let percentPrice: PercentPrice | undefined;
    if (side) percentPrice = defined({ bidUp: positive(side.bidMultiplierUp), bidDown: positive(side.bidMultiplierDown), askUp: positive(side.askMultiplierUp), askDown: positive(side.askMultiplierDown) });
    else if (plain) percentPrice = defined({ bidUp: positive(plain.multiplierUp), bidDown: positive(plain.multiplierDown), askUp: positive(plain.multiplierUp), askDown: positive(plain.multiplierDown) });
    return {
      maxNotional: positive(m.limits?.cost?.max) ?? positive(filter(info, 'NOTIONAL')?.maxNotional),
      maxNumOrders: positive(filter(info, 'MAX_NUM_ORDERS')?.maxNumOrders),
      percentPrice,
    };
  },
};
