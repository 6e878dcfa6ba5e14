/** Issue 39: the capacity answer before a start, with the venues' own figures (capacity.ts, sources there). */
import { capacityAnswer, capacityRefusal, mostResting, ordersAtStart, type CapacityInput } from './capacity';

const spot = (over: Partial<CapacityInput> = {}): CapacityInput => ({
  exchange: 'Binance', botType: 'Spot', symbol: 'BTCUSDT', bot: { numOfOrders: 10 }, others: [], ...over,
});

describe('the orders a start places', () => {
  it('a ladder its rungs (its take-profit joins them while a rung is partly filled); a neutral grid both halves; an infinity grid its initial buy or first pair', () => {
    expect([ordersAtStart({ numOfOrders: 40 }), mostResting({ numOfOrders: 40 })]).toEqual([40, 41]);
    expect([ordersAtStart({ numOfOrders: 40, direction: 'short' }), mostResting({ numOfOrders: 40, direction: 'short' })]).toEqual([40, 41]);
    expect([ordersAtStart({ numOfOrders: 40, direction: 'neutral' }), mostResting({ numOfOrders: 40, direction: 'neutral' })]).toEqual([80, 80]);
    expect(ordersAtStart({ numOfOrders: 0, style: 'infinity', initialQuote: 100 })).toBe(1);
    expect(ordersAtStart({ numOfOrders: 0, style: 'infinity', initialQuote: 0 })).toBe(2);
    expect(mostResting({ numOfOrders: 0, style: 'infinity' })).toBe(2);
  });
});

describe('Binance spot: MAX_NUM_ORDERS 200 per symbol, ORDERS 100 per 10 s and 200,000 a day, REQUEST_WEIGHT 6,000 a minute', () => {
  it('a 240-rung ladder on an empty symbol is over MAX_NUM_ORDERS, and the refusal says so with the numbers', () => {
    const a = capacityAnswer(spot({ bot: { numOfOrders: 240 } }));
    expect(a.openOrders).toMatchObject({ rule: 'MAX_NUM_ORDERS', limit: 200, others: 0, thisBot: 241, total: 241, exceeded: true });
    expect(a.exceeded).toEqual(['MAX_NUM_ORDERS']);
    expect(capacityRefusal(a)).toBe(
      'This start places 240 orders on BTCUSDT and rests up to 241 there; Binance spot allows 200 open orders per symbol (MAX_NUM_ORDERS); ' +
        'your other bots hold up to 0 open on BTCUSDT: 241 in all. Lower the grid size, or stop a bot on BTCUSDT.',
    );
  });

  it("the account's other bots on the symbol count; those on other symbols do not", () => {
    const others = [{ symbol: 'BTCUSDT', openOrders: 100 }, { symbol: 'BTCUSDT', openOrders: 60 }, { symbol: 'ETHUSDT', openOrders: 199 }];
    expect(capacityAnswer(spot({ bot: { numOfOrders: 39 }, others })).openOrders).toMatchObject({ others: 160, total: 200, exceeded: false });
    const over = capacityAnswer(spot({ bot: { numOfOrders: 40 }, others }));
    expect(over.openOrders).toMatchObject({ others: 160, total: 201, exceeded: true });
    expect(capacityRefusal(over)).toMatch(/your other bots hold up to 160 open on BTCUSDT: 201 in all/);
  });

  it("the market's own maximum (rules.maxNumOrders) replaces the table's when the venue reports one", () => {
    const a = capacityAnswer(spot({ bot: { numOfOrders: 30 }, maxNumOrders: 25 }));
    expect(a.openOrders).toMatchObject({ limit: 25, exceeded: true });
    expect(a.openOrders.source).toMatch(/reported by the venue/);
  });

  it('the order-count windows: at the runner\'s pace (10 at once, then 8 a second) a start never puts more than 90 orders in 10 s', () => {
    const a = capacityAnswer(spot({ bot: { numOfOrders: 150, direction: 'neutral' } })); // 300 orders
    expect(a.orderWindows.map((w) => [w.label, w.limit, w.atMost, w.exceeded])).toEqual([
      ['10 s', 100, 90, false],
      ['1 day', 200_000, 300, false],
    ]);
    expect(a.placingSeconds).toBe(37); // (300 − 10) ÷ 8
    // a faster pace than the venue's window would be refused with the numbers
    const fast = capacityAnswer(spot({ bot: { numOfOrders: 150 }, pace: { burst: 150, perSecond: 50 } }));
    expect(fast.orderWindows[0]).toMatchObject({ atMost: 150, exceeded: true });
    expect(capacityRefusal(fast)).toMatch(/^This start places 150 orders, 150 of them within 10 s; Binance spot allows 100 orders per 10 s \(ORDERS\)/);
  });

  it("the orders the key has already placed today count: 199,995 placed and 10 more pass the day's 200,000, refused with the numbers", () => {
    const placed = [{ windowMs: 10_000, used: 5 }, { windowMs: 86_400_000, used: 199_995 }];
    const over = capacityAnswer(spot({ bot: { numOfOrders: 10 }, placed }));
    expect(over.orderWindows.map((w) => [w.label, w.placed, w.atMost, w.exceeded])).toEqual([
      ['10 s', 5, 10, false],
      ['1 day', 199_995, 10, true],
    ]);
    expect(over.exceeded).toEqual(['ORDERS 1 day']);
    expect(capacityRefusal(over)).toBe(
      'This start places 10 orders, 10 of them within 1 day, and your key has already placed 199,995 in this 1 day window: 200,005 in all; Binance spot allows 200,000 orders per 1 day (ORDERS). Lower the grid size, or start it once the 1 day window has passed.',
    );
    // five fit exactly
    expect(capacityAnswer(spot({ bot: { numOfOrders: 5 }, placed })).exceeded).toEqual([]);
  });

  it('the weight: two bots on two symbols cost 32 a minute (6 a symbol + 20), fifty on fifty 100 (the all-symbols read, 80): the measured figures', () => {
    const two = capacityAnswer(spot({ symbol: 'ETHUSDT', otherSymbols: ['BTCUSDT'] }));
    expect(two.weight).toMatchObject({ rule: 'REQUEST_WEIGHT', limit: 6000, share: 0.5, budget: 3000, account: 32, symbols: 2, exceeded: false });
    expect(two.weight.budgetShareUsed).toBeCloseTo(32 / 3000, 10);
    const fifty = Array.from({ length: 49 }, (_, i) => `C${i}USDT`);
    expect(capacityAnswer(spot({ otherSymbols: fifty })).weight).toMatchObject({ account: 100, symbols: 50 });
    // the install's share is configurable: at 0.5 % the budget is 30 and 32 passes it
    const tight = capacityAnswer(spot({ symbol: 'ETHUSDT', otherSymbols: ['BTCUSDT'], budgetShare: 0.005 }));
    expect(tight.weight).toMatchObject({ budget: 30, exceeded: true });
    expect(capacityRefusal(tight)).toMatch(/Your bots on Binance spot would use 32 weight per 1 min, more than this install's budget of 30 \(0\.5 % of 6,000, REQUEST_WEIGHT\)/);
  });
});

describe('Binance USDⓈ-M: MAX_NUM_ORDERS 200, ORDERS 300 per 10 s and 1,200 a minute, REQUEST_WEIGHT 2,400', () => {
  it('a neutral grid of 100 a side places 200 and fits; 101 a side does not', () => {
    const fits = capacityAnswer({ exchange: 'Binance', botType: 'Futures', symbol: 'ETHUSDT', bot: { numOfOrders: 100, direction: 'neutral' }, others: [] });
    expect(fits.openOrders).toMatchObject({ limit: 200, total: 200, exceeded: false });
    expect(fits.orderWindows.map((w) => [w.label, w.limit, w.atMost])).toEqual([['10 s', 300, 90], ['1 min', 1200, 200]]);
    expect(fits.weight).toMatchObject({ limit: 2400, budget: 1200, account: 11 }); // openOrders 1 + account 5 + positionRisk 5
    const over = capacityAnswer({ exchange: 'Binance', botType: 'Futures', symbol: 'ETHUSDT', bot: { numOfOrders: 101, direction: 'neutral' }, others: [] });
    expect(capacityRefusal(over)).toBe(
      'This start places 202 orders on ETHUSDT; Binance USDⓈ-M allows 200 open orders per symbol (MAX_NUM_ORDERS); your other bots hold up to 0 open on ETHUSDT: 202 in all. Lower the grid size, or stop a bot on ETHUSDT.',
    );
  });
});

describe('KuCoin: 200 active orders per spot pair, 100 limit orders per futures contract (classic account); resource pools per 30 s', () => {
  it('spot and futures each against their own cap; no order-count window (KuCoin counts orders in its pool)', () => {
    const s = capacityAnswer({ exchange: 'Kucoin', botType: 'Spot', symbol: 'BTCUSDT', bot: { numOfOrders: 99 }, others: [{ symbol: 'BTCUSDT', openOrders: 100 }] });
    expect(s.openOrders).toMatchObject({ rule: 'active orders per trading pair', limit: 200, total: 200, exceeded: false });
    expect(s.orderWindows).toEqual([]);
    expect(s.weight).toMatchObject({ limit: 4000, label: '30 s', account: 7 });
    const f = capacityAnswer({ exchange: 'Kucoin', botType: 'Futures', symbol: 'BTCUSDT', bot: { numOfOrders: 50, direction: 'neutral' }, others: [] });
    expect(f.openOrders).toMatchObject({ rule: 'limit orders per contract', limit: 100, total: 100, exceeded: false });
    const g = capacityAnswer({ exchange: 'Kucoin', botType: 'Futures', symbol: 'BTCUSDT', bot: { numOfOrders: 100 }, others: [] });
    expect(capacityRefusal(g)).toMatch(/^This start places 100 orders on BTCUSDT and rests up to 101 there; KuCoin futures allows 100 open orders per symbol \(limit orders per contract\)/);
  });

  it('every limit names its source', () => {
    for (const [exchange, botType] of [['Binance', 'Spot'], ['Binance', 'Futures'], ['Kucoin', 'Spot'], ['Kucoin', 'Futures']] as const) {
      const a = capacityAnswer({ exchange, botType, symbol: 'BTCUSDT', bot: { numOfOrders: 5 }, others: [] });
      for (const s of [a.openOrders.source, a.weight.source, ...a.orderWindows.map((w) => w.source)]) expect(s).toMatch(/https:\/\/(developers\.binance\.com|www\.kucoin\.com)\//);
      expect(capacityRefusal(a)).toBeNull();
    }
  });
});
