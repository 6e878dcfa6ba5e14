import { buildGridChart } from './grid-chart';

const placed = (id: string, price: number, run = 3) => ({ type: 'OrderPlaced', data: { run, clientOrderId: id, price, side: 'buy', amount: 0.01, at: 1_000 } });

describe('grid chart data', () => {
  it('given a placed ladder, one fill and a take-profit, then levels, fills and the price line', () => {
    const chart = buildGridChart(
      [
        placed('b0', 100),
        placed('b1', 99),
        placed('b2', 98),
        { type: 'OrderFilled', data: { run: 3, clientOrderId: 'b0', price: 100, side: 'buy', amount: 0.01, at: 5_000 } },
        { type: 'TakeProfitPlaced', data: { run: 3, clientOrderId: 'tp1', price: 101, side: 'sell', amount: 0.01, at: 5_000 } },
      ],
      [{ time: 4, value: 100.5 }, { time: 6, value: 100.2 }],
    );
    expect(chart.levels).toEqual([
      { price: 101, kind: 'take-profit', status: 'open', side: 'sell' },
      { price: 100, kind: 'buy', status: 'filled', side: 'buy' },
      { price: 99, kind: 'buy', status: 'open', side: 'buy' },
      { price: 98, kind: 'buy', status: 'open', side: 'buy' },
    ]);
    expect(chart.fills).toEqual([{ time: 5, price: 100, side: 'buy', amount: 0.01 }]);
    expect(chart.points).toEqual([{ time: 4, value: 100.5 }, { time: 5, value: 100 }, { time: 6, value: 100.2 }]);
  });

  it('given a stop with cancel-all and a new run, then only the new run\'s orders are levels', () => {
    const chart = buildGridChart(
      [placed('old', 90, 1), { type: 'OrderCancelled', data: { run: 1, clientOrderId: 'old' } }, placed('new', 95, 7)],
      [],
    );
    expect(chart.levels).toEqual([{ price: 95, kind: 'buy', status: 'open', side: 'buy' }]);
  });

  it('given a completed cycle, then the filled buys of that cycle leave the chart but stay as fills', () => {
    const chart = buildGridChart(
      [
        placed('b0', 100),
        { type: 'OrderFilled', data: { run: 3, clientOrderId: 'b0', price: 100, side: 'buy', amount: 0.01, at: 2_000 } },
        { type: 'TakeProfitFilled', data: { run: 3, clientOrderId: 'tp1', price: 101, side: 'sell', amount: 0.01, at: 3_000 } },
        { type: 'CycleCompleted', data: { run: 3, cycle: 0 } },
        placed('b0-c1', 100),
      ],
      [],
    );
    expect(chart.levels).toEqual([{ price: 100, kind: 'buy', status: 'open', side: 'buy' }]);
    expect(chart.fills.map((f) => f.side)).toEqual(['buy', 'sell']);
  });

  it('given no events, then an empty chart', () => {
    expect(buildGridChart([], [])).toEqual({ points: [], levels: [], fills: [] });
  });
});
