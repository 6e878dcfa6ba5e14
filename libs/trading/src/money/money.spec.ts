import { processFill, initialState, desiredOrders } from '../grid/grid.engine';
import { roundMoney } from '../grid/decimal';
import type { GridConfig, GridState, MarketRules } from '../grid/grid.types';
import { accountPerformance, botPerformance, committedCapital, fifoLots, lotsCsv, LOT_CSV_COLUMNS, type MoneyEntry, type MoneyFill } from './money';

const T0 = Date.parse('2025-01-01T00:00:00.000Z');
const H = 3_600_000;
let seq = 0;
function buy(price: number, amount: number, fee: number, at: number, over: Partial<MoneyFill> = {}): MoneyFill {
  return { kind: 'fill', seq: seq++, at, fillId: `b${seq}`, role: 'buy', side: 'buy', price, amount, fee, cycle: 1, run: 2, profit: null, ...over };
}
function sell(price: number, amount: number, fee: number, at: number, profit: number, over: Partial<MoneyFill> = {}): MoneyFill {
  return { kind: 'fill', seq: seq++, at, fillId: `s${seq}`, role: 'take-profit', side: 'sell', price, amount, fee, cycle: 1, run: 2, profit, ...over };
}
const sumProfit = (rows: { profit: number }[]) => roundMoney(rows.reduce((s, r) => s + r.profit, 0));

describe('FIFO lots', () => {
  it('given two buys with the fee in quote (Kucoin), when one sell takes both, then each lot is a row: the oldest first, fees in the cost and out of the proceeds', () => {
    const entries = [buy(100, 1, 0.1, T0), buy(98, 1, 0.098, T0 + H), sell(101, 2, 0.202, T0 + 2 * H, 3.6)];
    const { rows, open } = fifoLots(entries);
    expect(open).toEqual([]);
    expect(rows).toEqual([
      expect.objectContaining({ acquiredAt: T0, soldAt: T0 + 2 * H, amount: 1, costBasis: 100.1, proceeds: 100.899, profit: 0.799 }),
      expect.objectContaining({ acquiredAt: T0 + H, amount: 1, costBasis: 98.098, proceeds: 100.899, profit: 2.801 }),
    ]);
    expect(sumProfit(rows)).toBe(3.6);
  });

  it('given a buy whose fee Binance took in the coin, then the lot holds the net amount and costs what was paid', () => {
    // 1 bought at 100, 0.001 of it kept as the fee (worth 0.1): 0.999 held, 100 paid
    const { rows, open } = fifoLots([buy(100, 1, 0.1, T0, { netAmount: 0.999 }), sell(102, 0.999, 0.101898, T0 + H, 1.796102)]);
    expect(open).toEqual([]);
    expect(rows).toEqual([expect.objectContaining({ amount: 0.999, costBasis: 100, proceeds: 101.796102, profit: 1.796102 })]);
  });

  it('given a partial sell, then the oldest lot is split and the rest stays open with its share of the cost', () => {
    const { rows, open } = fifoLots([buy(100, 1, 0.1, T0), buy(90, 1, 0.09, T0 + H), sell(110, 1.5, 0.165, T0 + 2 * H, 0)]);
    expect(rows.map((r) => [r.amount, r.costBasis, r.proceeds])).toEqual([
      [1, 100.1, 109.89],
      [0.5, 45.045, 54.945],
    ]);
    expect(open).toEqual([expect.objectContaining({ amount: 0.5, acquiredAt: T0 + H })]);
    expect(open[0].cost).toBeCloseTo(45.045, 9);
  });

  it('given a closing stop (futures), then a later run starts without the old lots', () => {
    const entries: MoneyEntry[] = [buy(100, 1, 0.1, T0, { run: 2 }), { kind: 'drop', seq: seq++, at: T0 + H }];
    const dropSeq = seq - 1;
    entries.push(buy(90, 1, 0.09, T0 + 2 * H, { run: dropSeq + 1 }), sell(95, 1, 0.095, T0 + 3 * H, 4.815, { run: dropSeq + 1 }));
    const { rows, open } = fifoLots(entries);
    expect(open).toEqual([]);
    expect(rows).toEqual([expect.objectContaining({ acquiredAt: T0 + 2 * H, costBasis: 90.09, profit: 4.815 })]);
  });
});

describe('the CSV of lots', () => {
  it('has the documented columns, ISO dates, plain decimals and one line per lot', () => {
    const { rows } = fifoLots([buy(100, 1, 0.1, T0), buy(98, 1, 0.098, T0 + H), sell(101, 2, 0.202, T0 + 2 * H, 3.6)]);
    const lines = lotsCsv(rows, 'BTCUSDT', 'USDT').split('\r\n');
    expect(lines[0]).toBe(LOT_CSV_COLUMNS.join(','));
    expect(lines[1]).toMatch(/^2025-01-01T00:00:00\.000Z,2025-01-01T02:00:00\.000Z,BTCUSDT,1,100\.1,100\.899,0\.799,USDT,1,b\d+,s\d+$/);
    expect(lines).toHaveLength(4); // header, two lots, the final CRLF
  });
});

// ---- reconciliation against the grid engine (the product's realised profit) ----

const rules: MarketRules = { priceStep: 0.01, amountStep: 0.001, minNotional: 5 };
const config: GridConfig = { botType: 'Spot', numOfOrders: 5, orderSize: 1, interval: 1, entryPrice: 100, takeProfit: 1, leverage: 1 };
const BOT = '0b6a4c1e-5d0e-4a55-9f1e-5f1d6b1a2c3d';

/** Random price path; buys fill when the price reaches them, the take-profit when the price reaches it. */
function simulate(seed: number, steps: number, fee: (price: number, amount: number, side: 'buy' | 'sell') => { fee: number; netAmount?: number }, r: MarketRules = rules) {
  let rnd = seed;
  const random = () => ((rnd = (rnd * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  let state: GridState = initialState(config, r, BOT);
  const entries: MoneyEntry[] = [];
  let n = 0;
  let price = 101;
  for (let step = 0; step < steps; step++) {
    price = Math.max(94, Math.min(106, price + (random() - 0.5) * 3));
    const at = T0 + step * 60_000;
    for (const o of desiredOrders(config, r, state)) {
      const hit = o.side === 'buy' ? price <= o.price : price >= o.price;
      if (!hit) continue;
      const f = fee(o.price, o.amount, o.side);
      const fillId = `f${++n}`;
      const out = processFill(state, { clientOrderId: o.clientOrderId, fillId, price: o.price, amount: o.amount, fee: f.fee, ...(f.netAmount !== undefined ? { netAmount: f.netAmount } : {}) });
      state = out.state;
      for (const e of out.effects) {
        if (e.type === 'BuyFilled') entries.push({ kind: 'fill', seq: entries.length, at, fillId, role: 'buy', side: 'buy', price: e.price, amount: e.amount, fee: e.fee, ...(f.netAmount !== undefined ? { netAmount: f.netAmount } : {}), cycle: e.cycle, run: 0, profit: null });
        if (e.type === 'TakeProfitFilled') entries.push({ kind: 'fill', seq: entries.length, at, fillId, role: 'take-profit', side: 'sell', price: e.price, amount: e.amount, fee: e.fee, cycle: e.cycle, run: 0, profit: e.profit });
        if (e.type === 'CycleCompleted') entries.push({ kind: 'cycle', seq: entries.length, at, cycle: e.cycle, run: 0, profit: e.profit });
      }
      break; // one fill per step: the desired orders change after it
    }
  }
  return { state, entries };
}

const quoteFee = (price: number, amount: number) => ({ fee: roundMoney(price * amount * 0.001) });
/** Binance spot: a buy's fee is 0.1 % of the coin bought (its quote value is the fee), a sell's is in quote. */
const coinFee = (step: number) => (price: number, amount: number, side: 'buy' | 'sell') => {
  if (side === 'sell') return quoteFee(price, amount);
  const coin = amount * 0.001;
  return { fee: roundMoney(coin * price), netAmount: Number((amount - coin).toFixed(Math.max(0, -Math.log10(step)) + 3)) };
};

describe('reconciliation: the sum of the lot profits is the bot\'s realised profit', () => {
  it.each([1, 7, 42])('with fees in quote (Kucoin), over several cycles (seed %i)', (seed) => {
    const { state, entries } = simulate(seed, 3000, quoteFee);
    expect(state.cyclesCompleted).toBeGreaterThanOrEqual(3);
    const { rows, open } = fifoLots(entries);
    const heldCost = open.reduce((s, l) => s + l.cost, 0);
    const engineHeldCost = state.position.cost + state.position.buyFees;
    // to the cent: what FIFO holds at a higher cost than the average it realised less on, and the reverse
    expect(Math.abs(sumProfit(rows) - state.profit - (heldCost - engineHeldCost))).toBeLessThan(0.005);
    if (state.position.amount === 0) expect(Math.abs(sumProfit(rows) - state.profit)).toBeLessThan(0.005);
  });

  it('with the buy fee taken in the coin (Binance spot), the position flat at the end: equal to the cent', () => {
    // amounts of 1 with a 0.1 % coin fee leave 0.999: a whole number of 0.001 steps, so the take-profit sells all
    let done = false;
    for (let seed = 1; seed < 60 && !done; seed++) {
      const { state, entries } = simulate(seed, 3000, coinFee(0.001));
      if (state.position.amount !== 0 || state.cyclesCompleted < 3) continue;
      const { rows } = fifoLots(entries);
      expect(entries.some((e) => e.kind === 'fill' && e.netAmount === 0.999)).toBe(true);
      expect(Math.abs(sumProfit(rows) - state.profit)).toBeLessThan(0.005);
      const perf = botPerformance(entries, 100, committedCapital(config), T0 + 3000 * 60_000);
      expect(perf.realisedPnl).toBeCloseTo(state.profit, 6);
      expect(perf.unrealisedPnl).toBe(0);
      done = true;
    }
    expect(done).toBe(true);
  });

  it('with the coin fee leaving dust below the amount step: the difference is only the held rest\'s cost', () => {
    const coarse: MarketRules = { ...rules, amountStep: 0.01 }; // 0.999 held, 0.99 sold, 0.009 left (issue 29, finding 7)
    const { state, entries } = simulate(3, 3000, coinFee(0.01), coarse);
    expect(state.cyclesCompleted).toBeGreaterThanOrEqual(3);
    const { rows, open } = fifoLots(entries);
    const heldCost = open.reduce((s, l) => s + l.cost, 0);
    const engineHeldCost = state.position.cost + state.position.buyFees;
    expect(Math.abs(sumProfit(rows) - state.profit - (heldCost - engineHeldCost))).toBeLessThan(0.005);
  });
});

describe('performance', () => {
  it('total P&L is realised plus the held amount at the price now; return on the ladder\'s cost, annualised over the running time', () => {
    const entries: MoneyEntry[] = [
      { kind: 'run', seq: seq++, at: T0, running: true },
      buy(100, 1, 0.1, T0 + H),
      buy(99, 1, 0.099, T0 + 2 * H),
      sell(101, 1, 0.101, T0 + 3 * H, 0.5),
      { kind: 'cycle', seq: seq++, at: T0 + 3 * H, cycle: 1, run: 2, profit: 0.5 },
    ];
    const capital = committedCapital({ entryPrice: 100, interval: 1, orderSize: 1, numOfOrders: 5 }); // 100+99+98+97+96
    expect(capital).toBe(490);
    const p = botPerformance(entries, 102, capital, T0 + 24 * H);
    // cash: −100.1 − 99.099 + 101 − 0.101 = −98.3; held 1 at 102: total 3.7
    expect(p.totalPnl).toBe(3.7);
    expect(p.realisedPnl).toBe(0.5);
    expect(p.unrealisedPnl).toBe(3.2);
    expect(p.returnPercent).toBeCloseTo((3.7 / 490) * 100, 6);
    // a day of running says nothing yearly (issue 40, point 5): from 7 days, over 8 days here
    expect(p.annualisedPercent).toBeNull();
    const week = botPerformance(entries, 102, capital, T0 + 8 * 24 * H);
    expect(week.annualisedPercent).toBeCloseTo(((3.7 / 490) * 100 * 365) / 8, 4);
    expect(p.cyclesCompleted).toBe(1);
    expect(p.equity.map((e) => e.pnl)).toEqual([-0.1, -1.199, 2.7, 3.7]); // each fill marks the held amount at its price
  });

  it('says nothing yearly before 7 days of running (issue 40, point 5: +703,450 % after ten minutes), then the simple yearly rate', () => {
    // ten minutes that earned 1.35 on 100: 1.35 % × (a year ÷ 10 min) would read +70,956 %
    const entries: MoneyEntry[] = [{ kind: 'run', seq: 0, at: T0, running: true }, buy(100, 1, 0, T0 + 1000), sell(101.35, 1, 0, T0 + 2000, 1.35)];
    const early = botPerformance(entries, 100, 100, T0 + 600_000);
    expect({ ret: early.returnPercent, annual: early.annualisedPercent }).toEqual({ ret: 1.35, annual: null });
    expect(botPerformance(entries, 100, 100, T0 + 7 * 24 * H - 1).annualisedPercent).toBeNull();
    expect(botPerformance(entries, 100, 100, T0 + 7 * 24 * H).annualisedPercent).toBeCloseTo((1.35 * 365) / 7, 6);
    expect(botPerformance([{ kind: 'run', seq: 0, at: T0, running: true }], 100, 490, T0 + 60_000).equity).toEqual([]);
  });

  it('the account adds its bots up and its curve is the sum of each bot\'s latest P&L', () => {
    const a = botPerformance([buy(100, 1, 0, T0), sell(110, 1, 0, T0 + 2 * H, 10)], null, 100, T0 + 3 * H);
    const b = botPerformance([buy(50, 1, 0, T0 + H), sell(45, 1, 0, T0 + 3 * H, -5)], null, 50, T0 + 3 * H);
    const acc = accountPerformance([a, b], T0 + 3 * H);
    // neither runs now: nothing is committed (issue 40, point 6); their return is over the capital of the bots that traded
    expect(acc).toMatchObject({ bots: 2, botsRunning: 0, totalPnl: 5, realisedPnl: 5, capitalCommitted: 0 });
    expect(acc.returnPercent).toBeCloseTo((5 / 150) * 100, 6);
    expect(acc.equity).toEqual([
      { time: T0, pnl: 0 },
      { time: T0 + H, pnl: 0 },
      { time: T0 + 2 * H, pnl: 10 },
      { time: T0 + 3 * H, pnl: 5 },
    ]);
  });
});

describe('a short grid\'s money (issue 32): rungs sell, take-profits buy back', () => {
  // the fills of test/short-grid-paper.spec.ts: sells of 0.5 at 92, 94, 96 (maker 0.02 %), one buy-back of 1.5 at 92.12
  const rung = (price: number, fee: number, at: number): MoneyFill => buy(price, 0.5, fee, at, { side: 'sell' });
  const buyBack = (price: number, amount: number, fee: number, at: number, profit: number): MoneyFill => sell(price, amount, fee, at, profit, { side: 'buy' });
  const cycle = () => [rung(92, 0.0092, T0), rung(94, 0.0094, T0 + H), rung(96, 0.0096, T0 + 2 * H), buyBack(92.12, 1.5, 0.027636, T0 + 3 * H, 2.764164)];

  it('FIFO: each short lot is opened by a sell and closed by the buy-back; the rows add up to the engine\'s profit', () => {
    const { rows, open } = fifoLots(cycle());
    expect(open).toEqual([]);
    // buy-back fee share 0.027636 ÷ 3 = 0.009212; cost basis 0.5 × 92.12 + 0.009212 = 46.069212
    // proceeds: 46 − 0.0092 = 45.9908, 47 − 0.0094 = 46.9906, 48 − 0.0096 = 47.9904
    // Dated as the fills were (issue 40, point 4): acquired by the buy-back at T0 + 3 h, sold by each opening sell
    // before it (the rows had the two swapped: a short's sale dated at the buy-back).
    expect(rows.map((r) => [r.acquiredAt, r.soldAt, r.amount, r.costBasis, r.proceeds, r.profit])).toEqual([
      [T0 + 3 * H, T0, 0.5, 46.069212, 45.9908, -0.078412],
      [T0 + 3 * H, T0 + H, 0.5, 46.069212, 46.9906, 0.921388],
      [T0 + 3 * H, T0 + 2 * H, 0.5, 46.069212, 47.9904, 1.921188],
    ]);
    // the CSV says the same: date_acquired is the buy's, date_sold the sell's, as for a long's lots
    const line = lotsCsv(rows, 'LINKUSDT', 'USDT').split('\r\n')[1].split(',');
    expect([line[0], line[1], line[9], line[10]]).toEqual([new Date(T0 + 3 * H).toISOString(), new Date(T0).toISOString(), rows[0].buyFillId, rows[0].sellFillId]);
    // −0.078412 + 0.921388 + 1.921188 = 2.764164
    expect(sumProfit(rows)).toBe(2.764164);
  });

  it('performance: the short position is negative, marked at the price now; total = realised + unrealised', () => {
    const entries = [...cycle(), rung(92.05, 0.0230125, T0 + 4 * H)];
    const p = botPerformance(entries, 92.4, 66, T0 + 5 * H);
    expect(p.position).toBe(-0.5);
    expect(p.realisedPnl).toBe(2.764164);
    // short 0.5 sold for 46.025 (fee 0.0230125), buying it back at 92.4 costs 46.2: 46.025 − 46.2 − 0.0230125 = −0.1980125
    expect(p.unrealisedPnl).toBe(-0.1980125);
    expect(p.totalPnl).toBe(2.5661515);
    expect(fifoLots(entries).open).toEqual([{ fillId: expect.any(String), acquiredAt: T0 + 4 * H, amount: -0.5, cost: -46.0019875 }]);
  });
});
