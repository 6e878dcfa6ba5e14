/**
 * Issue 39: a ccxt market's maximums. The Binance markets are the venue's answers as ccxt recorded them
 * (BS-SNAP / BF-SNAP, venues/markets.ts: github.com/ccxt/ccxt ts/src/test/static/markets/binance.json), cut
 * to the fields read here; the KuCoin ones carry ccxt's unified limits as its kucoin markets do.
 */
import { ccxtMaximums } from './market-maximums';

const binanceBtcSpot = {
  limits: { amount: { min: 0.00001, max: 9000 }, cost: { min: 5, max: 9000000 } },
  info: {
    filters: [
      { filterType: 'LOT_SIZE', minQty: '0.00001000', maxQty: '9000.00000000', stepSize: '0.00001000' },
      { filterType: 'PERCENT_PRICE_BY_SIDE', bidMultiplierUp: '5', bidMultiplierDown: '0.2', askMultiplierUp: '5', askMultiplierDown: '0.2', avgPriceMins: '5' },
      { filterType: 'NOTIONAL', minNotional: '5.00000000', applyMinToMarket: true, maxNotional: '9000000.00000000', applyMaxToMarket: false, avgPriceMins: '5' },
      { filterType: 'MAX_NUM_ORDERS', maxNumOrders: '200' },
    ],
  },
};
const binanceBtcUsdm = {
  limits: { amount: { min: 0.001, max: 1000 }, cost: { min: 5 } },
  info: {
    filters: [
      { filterType: 'LOT_SIZE', stepSize: '0.001', minQty: '0.001', maxQty: '1000' },
      { limit: '200', filterType: 'MAX_NUM_ORDERS' },
      { filterType: 'MIN_NOTIONAL', notional: '5' },
      { filterType: 'PERCENT_PRICE', multiplierUp: '1.0500', multiplierDecimal: '4', multiplierDown: '0.9500' },
    ],
  },
};

describe('a ccxt market\'s maximums (issue 39)', () => {
  it('Binance spot: LOT_SIZE maxQty, NOTIONAL maxNotional, MAX_NUM_ORDERS, PERCENT_PRICE_BY_SIDE, each named', () => {
    expect(ccxtMaximums('binance-spot', binanceBtcSpot)).toEqual({
      maxAmount: 9000, maxNotional: 9000000, maxNumOrders: 200, percentPrice: { bidUp: 5, bidDown: 0.2, askUp: 5, askDown: 0.2 },
      ruleNames: { maxAmount: 'LOT_SIZE maxQty', maxNotional: 'NOTIONAL maxNotional', maxNumOrders: 'MAX_NUM_ORDERS maxNumOrders', percentPrice: 'PERCENT_PRICE_BY_SIDE' },
    });
  });
  it('Binance spot without ccxt\'s unified limits: read from the filters themselves', () => {
    expect(ccxtMaximums('binance-spot', { info: binanceBtcSpot.info })).toMatchObject({ maxAmount: 9000, maxNotional: 9000000 });
  });
  it('Binance USDⓈ-M: MAX_NUM_ORDERS limit, PERCENT_PRICE against the mark price (a buy at most up, a sell at least down)', () => {
    expect(ccxtMaximums('binance-usdm', binanceBtcUsdm)).toEqual({
      maxAmount: 1000, maxNumOrders: 200, percentPrice: { bidUp: 1.05, askDown: 0.95 },
      ruleNames: { maxAmount: 'LOT_SIZE maxQty', maxNumOrders: 'MAX_NUM_ORDERS limit', percentPrice: 'PERCENT_PRICE' },
    });
  });
  it('KuCoin spot baseMaxSize / quoteMaxSize; KuCoin futures maxOrderQty in lots × the multiplier', () => {
    expect(ccxtMaximums('kucoin-spot', { limits: { amount: { max: 10000000000 }, cost: { max: 99999999 } } })).toMatchObject({ maxAmount: 10000000000, maxNotional: 99999999, ruleNames: { maxAmount: 'baseMaxSize' } });
    expect(ccxtMaximums('kucoin-futures', { limits: { amount: { max: 1000000 } } }, 0.001)).toMatchObject({ maxAmount: 1000, ruleNames: { maxAmount: 'maxOrderQty' } });
  });
  it('a market that states no maximum has none (nothing is invented)', () => {
    expect(ccxtMaximums('binance-spot', { limits: { amount: {}, cost: {} }, info: { filters: [] } })).toEqual({});
  });
});
