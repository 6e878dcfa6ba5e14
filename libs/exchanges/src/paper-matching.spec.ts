import { toUnits } from './fixed-point';
import { execution, holdRateBps, takesOnPlacement } from './paper-matching';
import { BINANCE_USDM, KUCOIN_FUTURES } from './venues/venue-rules';

describe('paper matching: price and role of a fill', () => {
  const now = toUnits(95000);
  it('an order across the current price takes; one behind it rests; a market order always takes', () => {
    expect(takesOnPlacement({ side: 'buy', price: toUnits(96000) }, now, false)).toBe(true);
    expect(takesOnPlacement({ side: 'buy', price: toUnits(94000) }, now, false)).toBe(false);
    expect(takesOnPlacement({ side: 'sell', price: toUnits(94000) }, now, false)).toBe(true);
    expect(takesOnPlacement({ side: 'sell', price: toUnits(96000) }, now, true)).toBe(true);
  });

  it('a taker fills at the current price with the taker rate, a maker at its limit with the maker rate', () => {
    expect(execution(BINANCE_USDM, toUnits(96000), now)).toEqual({ price: now, role: 'taker', rateBps: 5 });
    expect(execution(BINANCE_USDM, toUnits(94000), undefined)).toEqual({ price: toUnits(94000), role: 'maker', rateBps: 2 });
    expect(holdRateBps(KUCOIN_FUTURES, true)).toBe(6);
    expect(holdRateBps(KUCOIN_FUTURES, false)).toBe(2);
  });
});
