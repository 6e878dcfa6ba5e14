import type { RecordedEvent } from '@gridrocket/event-store';
import { buildBotSummary, type SummaryEvent } from '../chart/bot-summary';
import { moneyEntryOf } from './bot-money.projection';
import { botFigures, botPerformance, MIN_RUNTIME_FOR_ANNUAL_MS } from './figures';
import { accountPerformance } from './account-figures';
import type { MoneyEntry } from './money-entries';

const T0 = Date.UTC(2026, 0, 10, 12, 0, 0);
const H = 3_600_000;
const ev = (type: string, data: Record<string, unknown>, at = T0): SummaryEvent => ({ type, data: { botId: 'b', ...data }, at });
/** The bot: Binance spot BTCUSDT, 2 buys of 0.001 (the fee taken in BTC), a stop-loss at 57500. */
const created = ev('BotCreated', { botType: 'Spot', exchange: 'Binance', symbol: 'BTCUSDT', numOfOrders: 2, orderSize: 0.001, interval: 1000, entryPrice: 60000, takeProfit: 1, leverage: 1, stopLossPrice: 57500 });
const placed = (id: string, price: number, at = T0) => ev('OrderPlaced', { run: 1, clientOrderId: id, side: 'buy', price, amount: 0.001, cycle: 1, level: 0, role: 'buy' }, at);
const bought = (id: string, price: number, at: number) =>
  ev('OrderFilled', { run: 1, fillId: `f-${id}`, clientOrderId: id, side: 'buy', price, amount: 0.001, netAmount: 0.000999, feeAsset: 'BTC', feeCost: 0.000001, fee: 0.000001 * price, cycle: 1, level: 0, late: false, at }, at);
const start = [created, ev('BotStartRequested', {}, T0), ev('BotStarted', { pid: 1 }, T0), placed('b0', 60000), placed('b1', 59000)];
const buys = [bought('b0', 60000, T0 + H), bought('b1', 59000, T0 + 2 * H)];
// the engine's loss: 0.00199 of 0.001998 sold at 57000 on the average cost (118.881 for 0.001998) and its share of the buy fees, the 0.1 % taker fee
const soldShare = 0.00199 / 0.001998;
const loss = Math.round((soldShare * (118.881 + 0.119) + 0.00199 * 57000 * 0.001 - 0.00199 * 57000) * 1e8) / 1e8;
const stopLoss = [
  ev('StopLossStarted', { run: 1, cycle: 1, price: 57000, level: 57500 }, T0 + 3 * H),
  ev('OrderCancelled', { run: 1, clientOrderId: 'b-tp', filled: 0 }, T0 + 3 * H),
  ev('StopLossTriggered', { run: 1, fillId: 'f-sl', clientOrderId: 'sl1', side: 'sell', price: 57000, amount: 0.00199, fee: 0.00199 * 57000 * 0.001, cycle: 1, loss, level: 57500, at: T0 + 3 * H }, T0 + 3 * H),
  ev('ProfitRealized', { run: 1, amount: -loss, totalProfit: -loss, cycle: 1, fillId: 'f-sl' }, T0 + 3 * H),
  ev('BotFailed', { reason: 'Stop-loss triggered' }, T0 + 3 * H),
];

/** The same events as the money read model stores them (bot-money.projection.ts). */
function entries(events: SummaryEvent[]): MoneyEntry[] {
  return events
    .map((e, i) => moneyEntryOf({ type: e.type, data: e.data, revision: BigInt(i), metadata: { occurredAt: new Date(e.at).toISOString() }, created: new Date(e.at).toISOString() } as unknown as RecordedEvent))
    .filter((e): e is MoneyEntry => e !== null);
}
const MONEY = ['position', 'dust', 'fills', 'feesPaid', 'realisedPnl', 'unrealisedPnl', 'totalPnl', 'cyclesCompleted', 'runtimeMs'] as const;
const pick = (x: object) => Object.fromEntries(MONEY.map((k) => [k, (x as Record<string, unknown>)[k]]));

describe('the bot\'s figures: one projection for the page, the cards and the performance view (issue 40, point 1)', () => {
  it('given the issue\'s bot after its stop-loss, then the page says what the stop-loss left: 0.000008 BTC, 3 fills, all three fees, the loss', () => {
    const page = buildBotSummary([...start, ...buys, ...stopLoss], 57100, T0 + 4 * H);
    // before: 0.001998 BTC, 2 fills and 119.28 USDT in use (the page did not read StopLossTriggered)
    expect(page.position).toBe(0.000008);
    expect(page.fills).toBe(3);
    expect(page.feesPaid).toBeCloseTo(0.06 + 0.059 + 0.00199 * 57000 * 0.001, 8);
    expect(page.realisedPnl).toBe(-loss);
    // what is left, at its average entry (59500): no order rests any more
    expect(page.capitalInUse).toBeCloseTo(0.000008 * 59500, 6);
    expect(page.averageEntry).toBe(59500);
    expect(page.running).toBe(false);
  });

  it('given every kind of event, then the stream\'s fold and the money read model\'s entries give the same figures', () => {
    const tp = [
      ev('TakeProfitPlaced', { run: 1, clientOrderId: 'tp1', side: 'sell', price: 60095, amount: 0.00199, cycle: 1, tpSeq: 1, role: 'take-profit' }, T0 + 2 * H),
      ev('TakeProfitFilled', { run: 1, fillId: 'f-tp', clientOrderId: 'tp1', side: 'sell', price: 60095, amount: 0.00199, fee: 0.11958905, cycle: 1, tpSeq: 1, profit: 0.9, at: T0 + 3 * H }, T0 + 3 * H),
      ev('CycleCompleted', { run: 1, cycle: 1, profit: 0.9, nextCycle: 2 }, T0 + 3 * H),
    ];
    const restart = [ev('BotStopRequested', { cancelAllOrders: false }, T0 + 4 * H), ev('BotStopped', { pid: -1 }, T0 + 4 * H), ev('BotStartRequested', {}, T0 + 5 * H), ev('BotStarted', { pid: 2 }, T0 + 5 * H), ev('BotResumed', { pid: 3 }, T0 + 6 * H)];
    const sale = [bought('c2', 60000, T0 + 7 * H), ev('BotStopRequested', { cancelAllOrders: true, closePosition: true }, T0 + 8 * H), ev('BotStopped', { pid: -1 }, T0 + 8 * H)];
    for (const events of [[...start, ...buys], [...start, ...buys, ...stopLoss], [...start, ...buys, ...tp], [...start, ...buys, ...tp, ...restart], [...start, ...buys, ...tp, ...restart, ...sale]]) {
      const page = buildBotSummary(events, 60010, T0 + 9 * H);
      const performance = botPerformance(entries(events), 60010, page.capitalCommitted, T0 + 9 * H);
      expect(pick(performance)).toEqual(pick(page));
      expect(pick(botFigures(events, 60010, T0 + 9 * H))).toEqual(pick(page));
    }
  });

  it('given a take-profit that leaves dust, a restart and a runner taking over, then the dust apart, one run more, the clock without the gap', () => {
    const tp = [
      ev('TakeProfitFilled', { run: 1, fillId: 'f-tp', clientOrderId: 'tp1', side: 'sell', price: 60095, amount: 0.00199, fee: 0.11958905, cycle: 1, tpSeq: 1, profit: 0.9, at: T0 + 3 * H }, T0 + 3 * H),
      ev('CycleCompleted', { run: 1, cycle: 1, profit: 0.9, nextCycle: 2 }, T0 + 3 * H),
    ];
    const s = buildBotSummary([...start, ...buys, ...tp, ev('BotStopped', { pid: -1 }, T0 + 4 * H), ev('BotStarted', { pid: 2 }, T0 + 5 * H), ev('BotResumed', { pid: 3 }, T0 + 6 * H)], 60010, T0 + 7 * H);
    expect({ position: s.position, dust: s.dust, averageEntry: s.averageEntry, runs: s.runs, runtimeMs: s.runtimeMs }).toEqual({ position: 0, dust: 0.000008, averageEntry: null, runs: 2, runtimeMs: 6 * H });
    expect(s.capitalInUse).toBe(0); // the dust locks nothing: no order sells it
  });

  it('given a manual stop that sells the position (closePosition), then nothing is held once it has stopped, on every screen', () => {
    const futures = ev('BotCreated', { botType: 'Futures', exchange: 'Binance', symbol: 'LINKUSDT', numOfOrders: 2, orderSize: 5, interval: 0.5, entryPrice: 14, takeProfit: 1, leverage: 5 });
    const fill = (id: string, price: number, at: number) => ev('OrderFilled', { run: 1, fillId: `f-${id}`, clientOrderId: id, side: 'buy', price, amount: 5, fee: 5 * price * 0.0002, cycle: 1, level: 0, late: false, at }, at);
    const before = [futures, ev('BotStartRequested', {}, T0), ev('BotStarted', { pid: 1 }, T0), fill('b0', 14, T0 + H), fill('b1', 13.5, T0 + 2 * H)];
    const held = buildBotSummary(before, 13.4, T0 + 3 * H);
    expect({ position: held.position, capitalInUse: held.capitalInUse, capitalCommitted: held.capitalCommitted }).toEqual({ position: 10, capitalInUse: 13.75 * 10 / 5, capitalCommitted: (14 * 5 + 13.5 * 5) / 5 });
    const stopping = [...before, ev('BotStopRequested', { cancelAllOrders: true, closePosition: true }, T0 + 3 * H)];
    expect(buildBotSummary(stopping, 13.4, T0 + 3 * H).position).toBe(10); // still held while it stops
    // a history from before issue 40 did not record the sale: the position leaves the books at its cost, its result in neither figure
    const stopped = buildBotSummary([...stopping, ev('BotStopped', { pid: -1 }, T0 + 3 * H)], 13.4, T0 + 4 * H);
    expect({ position: stopped.position, capitalInUse: stopped.capitalInUse, unrealised: stopped.unrealisedPnl, total: stopped.totalPnl }).toEqual({ position: 0, capitalInUse: 0, unrealised: 0, total: 0 });
    // its close's fill (PositionClosed): 10 sold at 13.4, taker fee 0.067, realised on the cost 137.5 and the buy fees 0.0275
    const sale = [
      ev('PositionClosed', { run: 1, fillId: 'f-close', clientOrderId: 'gr-x-1-close', side: 'sell', price: 13.4, amount: 10, fee: 0.067, cycle: 1, profit: -3.5945, at: T0 + 3 * H }, T0 + 3 * H),
      ev('ProfitRealized', { run: 1, amount: -3.5945, totalProfit: -3.5945, cycle: 1, fillId: 'f-close' }, T0 + 3 * H),
      ev('BotStopped', { pid: -1 }, T0 + 3 * H),
    ];
    const sold = buildBotSummary([...stopping, ...sale], 13.4, T0 + 4 * H);
    expect({ position: sold.position, fills: sold.fills, fees: sold.feesPaid, capitalInUse: sold.capitalInUse, realised: sold.realisedPnl, unrealised: sold.unrealisedPnl, total: sold.totalPnl }).toEqual({
      position: 0, fills: 3, fees: 0.0945, capitalInUse: 0, realised: -3.5945, unrealised: 0, total: -3.5945,
    });
    expect(pick(botPerformance(entries([...stopping, ...sale]), 13.4, sold.capitalCommitted, T0 + 4 * H))).toEqual(pick(sold));
  });
});

describe('a liquidation by the venue (PositionLiquidated, issue 40 point 3)', () => {
  it('closes the position on every screen, its loss realised on what the position cost, the same from the stream and the read model', () => {
    const futures = ev('BotCreated', { botType: 'Futures', exchange: 'Binance', symbol: 'BTCUSDT', numOfOrders: 2, orderSize: 0.01, interval: 1000, entryPrice: 60000, takeProfit: 1, leverage: 20 });
    const fill = (id: string, price: number, at: number) => ev('OrderFilled', { run: 1, fillId: `f-${id}`, clientOrderId: id, side: 'buy', price, amount: 0.01, fee: 0.01 * price * 0.0002, cycle: 1, level: 0, late: false, at }, at);
    const events = [
      futures,
      ev('BotStartRequested', {}, T0),
      ev('BotStarted', { pid: 1 }, T0),
      fill('b0', 60000, T0 + H),
      fill('b1', 59000, T0 + 2 * H),
      ev('PositionLiquidated', { run: 1, fillId: 'liq', clientOrderId: 'autoclose-1', side: 'sell', price: 56500, amount: 0.02, realized: -55, at: T0 + 3 * H }, T0 + 3 * H),
      ev('BotFailed', { reason: 'Liquidated by Binance' }, T0 + 3 * H),
    ];
    const page = buildBotSummary(events, 56400, T0 + 4 * H);
    // cost 600 + 590 and the opening fees 0.12 + 0.118; sold by the venue for 0.02 × 56500 = 1130
    const loss = 1130 - (1190 + 0.238);
    expect({ position: page.position, fills: page.fills, capitalInUse: page.capitalInUse, unrealised: page.unrealisedPnl }).toEqual({ position: 0, fills: 3, capitalInUse: 0, unrealised: 0 });
    expect(page.realisedPnl).toBeCloseTo(loss, 8);
    expect(page.totalPnl).toBeCloseTo(loss, 8);
    expect(pick(botPerformance(entries(events), 56400, page.capitalCommitted, T0 + 4 * H))).toEqual(pick(page));
    // since issue 40 the runner records what it realised (the engine's, the same here) with a ProfitRealized: the figures take it
    const withProfit = events.map((e) => (e.type === 'PositionLiquidated' ? { ...e, data: { ...e.data, profit: -60.238 } } : e));
    expect(buildBotSummary(withProfit, 56400, T0 + 4 * H).realisedPnl).toBe(-60.238);
  });
});

describe('annualised return (issue 40, point 5)', () => {
  it('is shown from 7 days of running only: none after ten minutes that would read +703,450 %', () => {
    const run = (ms: number) =>
      buildBotSummary(
        [created, ev('BotStarted', { pid: 1 }, T0), placed('b0', 60000), bought('b0', 60000, T0 + 1000), ev('TakeProfitFilled', { run: 1, fillId: 'tp', clientOrderId: 'tp1', side: 'sell', price: 69000, amount: 0.000999, fee: 0, cycle: 1, tpSeq: 1, profit: 8.931, at: T0 + 2000 }, T0 + 2000)],
        60000,
        T0 + ms,
      );
    const tenMinutes = run(600_000);
    expect(tenMinutes.returnPercent).toBeCloseTo((8.931 / 119) * 100, 4); // 7.5 % on the 119 USDT ladder
    expect(tenMinutes.annualisedPercent).toBeNull(); // before: 7.5 % × 52,560 = +394,477 %
    expect(run(MIN_RUNTIME_FOR_ANNUAL_MS - 1).annualisedPercent).toBeNull();
    expect(run(MIN_RUNTIME_FOR_ANNUAL_MS).annualisedPercent).toBeCloseTo(((8.931 / 119) * 100 * 365) / 7, 4);
  });
});

describe('the account\'s capital (issue 40, point 6)', () => {
  it('commits the running bots\' ladders only, not a bot never started nor one stopped; in use is what every bot holds', () => {
    const ladder = (id: string) => ev('BotCreated', { botType: 'Spot', exchange: 'Binance', symbol: 'AVAXUSDT', numOfOrders: 2, orderSize: 10, interval: 1, entryPrice: 30, takeProfit: 1, leverage: 1, botId: id });
    const rung = (price: number) => ev('OrderPlaced', { run: 1, clientOrderId: `r${price}`, side: 'buy', price, amount: 10, cycle: 1, level: 0, role: 'buy' });
    const fill = (at: number) => ev('OrderFilled', { run: 1, fillId: `f${at}`, clientOrderId: 'r30', side: 'buy', price: 30, amount: 10, fee: 0.3, cycle: 1, level: 0, late: false, at }, at);
    const running = botFigures([ladder('a'), ev('BotStarted', { pid: 1 }, T0), rung(30), rung(29)], 30, T0 + H);
    const never = botFigures([ladder('b')], 30, T0 + H);
    const stopped = botFigures([ladder('c'), ev('BotStarted', { pid: 1 }, T0), rung(30), rung(29), fill(T0 + 1000), ev('OrderCancelled', { run: 1, clientOrderId: 'r29', filled: 0 }), ev('BotStopped', { pid: -1 }, T0 + 2000)], 31, T0 + H);
    expect([running, never, stopped].map((f) => f.capitalCommitted)).toEqual([590, 590, 590]); // each bot's own ladder: 300 + 290
    const account = accountPerformance([running, never, stopped], T0 + H);
    expect(account).toMatchObject({ bots: 3, botsRunning: 1, capitalCommitted: 590 });
    // in use: the running bot's two resting buys (590) and the stopped bot's 10 AVAX at 30 (300)
    expect(account.capitalInUse).toBe(890);
    // the return is the stopped bot's P&L (10 × 31 − 300.3 = 9.7) over the capital of the two bots that ran
    expect(account.totalPnl).toBe(9.7);
    expect(account.returnPercent).toBeCloseTo((9.7 / 1180) * 100, 6);
  });
});
