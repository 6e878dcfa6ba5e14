import { buildBotSummary, SummaryEvent } from './bot-summary';

const T0 = Date.UTC(2026, 0, 10, 12, 0, 0);
const ev = (type: string, data: Record<string, unknown>, at = T0): SummaryEvent => ({ type, data: { botId: 'b', ...data }, at });
const created = ev('BotCreated', { numOfOrders: 3, orderSize: 1, interval: 10, entryPrice: 100, takeProfit: 1, leverage: 1 });
const placed = (id: string, price: number, cycle = 0, run = 4) => ev('OrderPlaced', { run, clientOrderId: id, price, amount: 1, side: 'buy', cycle });
const fill = (id: string, price: number, at: number, amount = 1, fee = 0.1, run = 4) =>
  ev('OrderFilled', { run, clientOrderId: id, price, amount, side: 'buy', fee, cycle: 0 }, at);

describe('bot summary (the bot page figures)', () => {
  it('given a buy fee taken in the coin (Binance spot), then the rest a completed cycle leaves is dust, not a position, until the next buy takes it along', () => {
    const buy = (id: string, at: number) => ev('OrderFilled', { run: 4, clientOrderId: id, price: 14, amount: 1, netAmount: 0.999, feeAsset: 'LINK', feeCost: 0.001, side: 'buy', fee: 0.014, cycle: 0 }, at);
    const events = [
      created,
      ev('BotStarted', { pid: 1 }, T0),
      placed('b0', 14),
      buy('b0', T0 + 1000),
      ev('TakeProfitFilled', { run: 4, clientOrderId: 'tp', price: 14.14, amount: 0.99, side: 'sell', fee: 0.014, profit: 0.1 }, T0 + 2000),
      ev('CycleCompleted', { run: 4, cycle: 0, profit: 0.1, nextCycle: 1 }, T0 + 2000),
    ];
    const after = buildBotSummary(events, 14.5, T0 + 3000);
    // the dust is still the account's coin: worth 0.009 × 14.5 now, in the total P&L (cash −14 + 13.9846, + 0.1305) and so
    // in the unrealised (total 0.1151 − realised 0.1), not in the position
    expect({ position: after.position, dust: after.dust, averageEntry: after.averageEntry, unrealised: after.unrealisedPnl }).toEqual({ position: 0, dust: 0.009, averageEntry: null, unrealised: 0.0151 });
    const next = buildBotSummary([...events, placed('b0-c1', 14, 1), buy('b0-c1', T0 + 4000)], 14.5, T0 + 5000);
    expect({ position: next.position, dust: next.dust }).toEqual({ position: 1.008, dust: 0 });
  });

  it('given a placed ladder and two buy fills, then rung states, position, average entry and unrealised P&L at the price now', () => {
    const s = buildBotSummary(
      [created, ev('BotStarted', { pid: 1 }, T0), placed('b0', 100), placed('b1', 90), placed('b2', 80), fill('b0', 100, T0 + 1000), fill('b1', 90, T0 + 2000)],
      92,
      T0 + 3_600_000,
    );
    expect(s.ladder).toEqual([
      { price: 100, size: 1, filled: 1, state: 'filled' },
      { price: 90, size: 1, filled: 1, state: 'filled' },
      { price: 80, size: 1, filled: 0, state: 'open' },
    ]);
    expect(s.position).toBe(2);
    expect(s.averageEntry).toBe(95);
    // 2 × (92 − 95), less the two buys' fees (0.1 each) a sale now would realise against: realised + unrealised = total
    expect(s.unrealisedPnl).toBe(-6.2);
    expect(s.totalPnl).toBe(-6.2);
    expect(s.feesPaid).toBe(0.2);
    expect(s.fills).toBe(2);
    expect(s.capitalInUse).toBe(270); // open rung 80 + held 2 × 95
    expect(s.runtimeSeconds).toBe(3600);
    expect(s.running).toBe(true);
    // an hour of running says nothing yearly (issue 40, point 5: +703,450 % after ten minutes)
    expect(s.annualisedReturn).toBeNull();
    expect(s.capitalCommitted).toBe(270);
  });

  it('given a take-profit fill and a completed cycle, then realised P&L (total and today), the cycle count, a flat position and an annualised return', () => {
    const s = buildBotSummary(
      [
        created,
        ev('BotStarted', { pid: 1 }, T0 - 8 * 86_400_000),
        placed('b0', 100),
        fill('b0', 100, T0 - 86_000_000),
        ev('TakeProfitPlaced', { run: 4, clientOrderId: 'tp', price: 101, amount: 1, side: 'sell' }, T0 - 86_000_000),
        ev('TakeProfitFilled', { run: 4, clientOrderId: 'tp', price: 101, amount: 1, side: 'sell', fee: 0.1, profit: 0.8 }, T0 - 80_000_000),
        ev('ProfitRealized', { amount: 0.8, totalProfit: 0.8, cycle: 0 }, T0 - 80_000_000),
        ev('CycleCompleted', { run: 4, cycle: 0, profit: 0.8, nextCycle: 1 }, T0 - 80_000_000),
        placed('b0-c1', 100, 1),
        fill('b0-c1', 100, T0),
        ev('TakeProfitPlaced', { run: 4, clientOrderId: 'tp2', price: 100.9, amount: 1, side: 'sell' }, T0),
        ev('TakeProfitFilled', { run: 4, clientOrderId: 'tp2', price: 100.9, amount: 1, side: 'sell', fee: 0.1, profit: 0.7 }, T0 + 1000),
        ev('ProfitRealized', { amount: 0.7, totalProfit: 1.5, cycle: 1 }, T0 + 1000),
        ev('CycleCompleted', { run: 4, cycle: 1, profit: 0.7, nextCycle: 2 }, T0 + 1000),
      ],
      100,
      T0 + 2000,
    );
    expect(s.realisedPnl).toBe(1.5);
    expect(s.realisedToday).toBe(0.7);
    expect(s.cyclesCompleted).toBe(2);
    expect(s.position).toBe(0);
    expect(s.averageEntry).toBeNull();
    expect(s.unrealisedPnl).toBe(0);
    expect(s.ladder).toEqual([{ price: 100, size: 1, filled: 1, state: 'filled' }]);
    expect(s.takeProfit).toEqual({ price: 100.9, size: 1, filled: 1, state: 'filled' });
    // 1.5 on a ladder of 100 + 90 + 80 = 270 over eight days and 2 s, scaled to a year (the performance view's figure)
    expect(s.totalPnl).toBe(1.5);
    expect(s.returnPercent).toBeCloseTo((1.5 / 270) * 100, 6);
    expect(s.annualisedReturn).toBeCloseTo((1.5 / 270) * ((365 * 86400) / (8 * 86400 + 2)) * 100, 4);
    expect(s.annualisedPercent).toBe(s.annualisedReturn);
  });

  it('given a stop with cancel-all, then the open rungs are cancelled and runtime stops counting', () => {
    const s = buildBotSummary(
      [created, ev('BotStarted', { pid: 1 }, T0), placed('b0', 100), placed('b1', 90), fill('b0', 100, T0 + 1000),
        ev('OrderCancelled', { run: 4, clientOrderId: 'b1', filled: 0 }, T0 + 5000), ev('BotStopped', { pid: -1 }, T0 + 60_000)],
      100,
      T0 + 3_600_000,
    );
    expect(s.ladder.map((r) => r.state)).toEqual(['filled', 'cancelled']);
    expect(s.runtimeSeconds).toBe(60);
    expect(s.running).toBe(false);
    expect(s.annualisedReturn).toBeNull();
  });

  it('given a bot that ran twice and stopped, then its last run keeps its length (not 0s) and the total adds both runs (issue 29)', () => {
    const events = [
      created,
      ev('BotStarted', { pid: 1 }, T0),
      ev('BotStopped', { pid: -1 }, T0 + 90_000),
      ev('BotStarted', { pid: 1 }, T0 + 600_000),
      ev('BotFailed', { reason: 'The exchange refused the API key' }, T0 + 600_000 + 42_500),
    ];
    const stopped = buildBotSummary(events, 100, T0 + 7_200_000);
    expect(stopped.running).toBe(false);
    expect(stopped.runs).toBe(2);
    expect(stopped.lastRun).toEqual({ startedAt: T0 + 600_000, endedAt: T0 + 642_500, ms: 42_500 });
    expect(stopped.runtimeSeconds).toBe(132); // 90 + 42.5, whole seconds
    // while it runs, the run going on, without an end
    const running = buildBotSummary(events.slice(0, 4), 100, T0 + 660_000);
    expect(running.lastRun).toEqual({ startedAt: T0 + 600_000, endedAt: null, ms: 60_000 });
    expect(running.runtimeSeconds).toBe(150);
    // a run shorter than a second is still a run, of its length in ms
    const blink = buildBotSummary([created, ev('BotStarted', { pid: 1 }, T0), ev('BotStopped', { pid: -1 }, T0 + 441)], 100, T0 + 5000);
    expect(blink.lastRun).toEqual({ startedAt: T0, endedAt: T0 + 441, ms: 441 });
    expect(blink.runtimeSeconds).toBe(0);
    // never started: no run at all
    const never = buildBotSummary([created], 100, T0);
    expect({ lastRun: never.lastRun, runs: never.runs }).toEqual({ lastRun: null, runs: 0 });
  });

  it('given a failed start after a run, then the last error in words; a later start clears it', () => {
    const failed = buildBotSummary([created, ev('BotStartFailed', { reason: 'Insufficient balance: 12 USDT available, the ladder needs 270' }, T0)], null, T0);
    expect(failed.lastError).toBe('Insufficient balance: 12 USDT available, the ladder needs 270');
    expect(failed.lastErrorAt).toBe(T0);
    const again = buildBotSummary([created, ev('BotStartFailed', { reason: 'x' }, T0), ev('BotStarted', { pid: 1 }, T0 + 1)], null, T0 + 1);
    expect(again.lastError).toBeNull();
  });

  it('given a partial fill, then the rung stays open with its filled amount; an earlier run\'s order cancelled by the restart is gone', () => {
    const cancelled = ev('OrderCancelled', { run: 4, clientOrderId: 'old', side: 'buy' });
    const s = buildBotSummary([created, placed('old', 100, 0, 1), cancelled, placed('b0', 100, 1), fill('b0', 100, T0, 0.4)], 100, T0);
    expect(s.ladder).toEqual([{ price: 100, size: 1, filled: 0.4, state: 'open' }]);
    expect(s.position).toBe(0.4);
  });

  it('given buys of an earlier cycle and an earlier run still resting (adopted), then they are listed and counted in the capital in use (issue 29)', () => {
    const s = buildBotSummary(
      [
        created,
        placed('r1-b0', 100, 0, 1), // run 1, cycle 0: adopted by run 4, never cancelled
        placed('c0-b1', 90, 0),
        placed('c0-b2', 80, 0),
        fill('c0-b1', 90, T0),
        ev('TakeProfitPlaced', { run: 4, clientOrderId: 'tp', price: 91, amount: 1, side: 'sell' }),
        ev('TakeProfitFilled', { run: 4, clientOrderId: 'tp', price: 91, amount: 1, side: 'sell', fee: 0, profit: 1 }),
        ev('CycleCompleted', { run: 4, cycle: 0, profit: 1, nextCycle: 1 }),
        placed('c1-b1', 90, 1),
      ],
      95,
      T0,
    );
    expect(s.ladder).toEqual([
      { price: 100, size: 1, filled: 0, state: 'open' },
      { price: 90, size: 1, filled: 0, state: 'open' },
      { price: 80, size: 1, filled: 0, state: 'open' },
    ]);
    expect(s.capitalInUse).toBe(270);
    expect(s.takeProfit).toMatchObject({ price: 91, state: 'filled' });
  });

  it('given futures leverage, then the capital in use is the margin', () => {
    const lev = ev('BotCreated', { numOfOrders: 1, orderSize: 1, interval: 1, entryPrice: 100, takeProfit: 1, leverage: 5 });
    expect(buildBotSummary([lev, placed('b0', 100)], 100, T0).capitalInUse).toBe(20);
  });
});

describe('bot summary of a short grid (issue 32)', () => {
  it('given two rung SELLS, then the position is short (negative), its average the sell prices\', and it gains as the price falls', () => {
    const shortCreated = ev('BotCreated', { numOfOrders: 3, orderSize: 1, interval: 10, entryPrice: 100, takeProfit: 1, leverage: 2, direction: 'short' });
    const sold = (id: string, price: number, at: number) => ev('OrderFilled', { run: 4, clientOrderId: id, price, amount: 1, side: 'sell', fee: 0.1, cycle: 0 }, at);
    const placedSell = (id: string, price: number) => ev('OrderPlaced', { run: 4, clientOrderId: id, price, amount: 1, side: 'sell', cycle: 0 });
    const s = buildBotSummary([shortCreated, ev('BotStarted', { pid: 1 }, T0), placedSell('b0', 100), placedSell('b1', 110), placedSell('b2', 120), sold('b0', 100, T0 + 1000), sold('b1', 110, T0 + 2000)], 102, T0 + 3000);
    expect(s.position).toBe(-2);
    expect(s.averageEntry).toBe(105); // (100 + 110) ÷ 2
    expect(s.unrealisedPnl).toBe(5.8); // −2 × (102 − 105), less the two sells' fees (0.1 each)
    expect(s.capitalInUse).toBe(165); // (open rung 120 + short 2 × 105) ÷ leverage 2
    // a buy-back of both at 103.95 (105 × 0.99) closes it
    const closed = buildBotSummary(
      [shortCreated, sold('b0', 100, T0 + 1000), sold('b1', 110, T0 + 2000), ev('TakeProfitFilled', { run: 4, clientOrderId: 'tp', price: 103.95, amount: 2, side: 'buy', fee: 0.2, profit: 1.7 }, T0 + 3000)],
      103,
      T0 + 4000,
    );
    expect({ position: closed.position, unrealised: closed.unrealisedPnl, realised: closed.realisedPnl }).toEqual({ position: 0, unrealised: 0, realised: 1.7 }); // 210 − 207.9 − the fees 0.2 + 0.2
  });
});

describe('bot summary of a neutral grid (issue 32)', () => {
  // reference 100, interval 5, 2 lines each side, 1 coin each, leverage 2: buys 95, 90 | sells 105, 110
  const neutralCreated = ev('BotCreated', { numOfOrders: 2, orderSize: 1, interval: 5, entryPrice: 100, takeProfit: 1, leverage: 2, direction: 'neutral' });
  const opens = (id: string, side: 'buy' | 'sell', price: number) => ev('OrderPlaced', { run: 4, clientOrderId: id, price, amount: 1, side, cycle: 1, role: 'buy' });
  const closes = (id: string, side: 'buy' | 'sell', price: number) => ev('TakeProfitPlaced', { run: 4, clientOrderId: id, price, amount: 1, side, cycle: 2, role: 'take-profit' });
  const filled = (type: 'OrderFilled' | 'TakeProfitFilled', id: string, side: 'buy' | 'sell', price: number, at: number, profit?: number) =>
    ev(type, { run: 4, clientOrderId: id, price, amount: 1, side, fee: 0.01, cycle: 1, ...(profit !== undefined ? { profit } : {}) }, at);
  const start = [neutralCreated, ev('BotStarted', { pid: 1 }, T0), opens('b1', 'buy', 95), opens('b0', 'buy', 90), opens('b3', 'sell', 105), opens('b4', 'sell', 110)];

  it('given both halves resting, then the table lists its sells and buys (highest first), no take-profit, flat', () => {
    const s = buildBotSummary(start, 100, T0 + 1000);
    expect(s.ladder.map((r) => `${r.side ?? 'buy'} ${r.price} ${r.state}`)).toEqual(['sell 110 open', 'sell 105 open', 'buy 95 open', 'buy 90 open']);
    expect(s.takeProfit).toBeNull();
    expect(s.position).toBe(0);
    // the margin of the four opening orders: (110 + 105 + 95 + 90) ÷ 2 = 200
    expect(s.capitalInUse).toBe(200);
  });

  it('given the sells filled (short 2 at 107.5) and one closed by a buy at 105, then the position is short 1 at the sell its pair left (105), the answer rests reduce-only in the table, and the pair is realised', () => {
    const events = [
      ...start,
      filled('OrderFilled', 'b3', 'sell', 105, T0 + 1000),
      closes('b2', 'buy', 100),
      filled('OrderFilled', 'b4', 'sell', 110, T0 + 2000),
      closes('b3g', 'buy', 105),
      // the buy at 105 closes the lot sold at 110: 1 × 5 − 0.01 − 0.01 = 4.98
      filled('TakeProfitFilled', 'b3g', 'buy', 105, T0 + 3000, 4.98),
      ev('ProfitRealized', { run: 4, amount: 4.98, totalProfit: 4.98, cycle: 2, fillId: 'f3' }, T0 + 3000),
    ];
    const s = buildBotSummary(events, 104, T0 + 4000);
    expect(s.position).toBe(-1);
    // the buy at 105 closed its pair, the sell at 110 (the engine's realised 4.98): what is left is the sell at 105.
    // (Before issue 40 the page said 107.5, the average of both sells, and an unrealised 3.5: with the realised 4.98
    // that counted the sell at 110's gain twice; total P&L is 5.97 = 214.98 − 105.01 − 104.)
    expect(s.averageEntry).toBe(105);
    expect(s.unrealisedPnl).toBe(0.99); // −1 × (104 − 105), less the sell's fee 0.01
    expect(s.realisedPnl).toBe(4.98);
    expect(s.totalPnl).toBe(5.97);
    expect(s.ladder.filter((r) => r.state === 'open').map((r) => `${r.side ?? 'buy'} ${r.price}${r.answer ? ' answer' : ''}`)).toEqual(['buy 100 answer', 'buy 95', 'buy 90']);
    // margin: the opening buys 95 and 90 (the buy at 100 is reduce-only) plus the short 1 × 105, ÷ 2 = 145
    expect(s.capitalInUse).toBe(145);
  });
});
