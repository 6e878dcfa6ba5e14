/**
 * A runner killed after the venue accepted a placement and before its record, the order then filling
 * while no runner runs: the next runner finds the fill among the missed ones, and the history records
 * the order's placement (as the engine wanted it: a take-profit is a TakeProfitPlaced) before its fill.
 * Without it the history held a fill of an order it never said was placed (test/neutral-grid-crash.spec.ts
 * seed 32033 found it: a reduce-only close with no placement at all). The same when the order still rests
 * when the next runner comes: it is adopted by its client order id, and its placement is recorded then.
 */
import { engineBotId, toEngineFill, toGridRules } from '@gridrocket/trading';
import { applyFills, desiredOrders, initialState, type GridConfig } from '@gridrocket/trading/grid';
import { until } from '@gridrocket/shared/testing/until';
import { RunnerWorld } from './support/runner-world';

jest.setTimeout(30_000);

// 1000: above the ladder; 2000: through its first buy; 3000: through that buy's take-profit
const CSV = ['ms,exchange,symbol,price', '1000,Binance,BTCUSDT,61000', '2000,Binance,BTCUSDT,59900', '3000,Binance,BTCUSDT,61000'].join('\n');

/** A started bot whose first buy filled and whose take-profit the killed runner placed on the venue and never recorded. */
async function lostTakeProfit(world: RunnerWorld, userId: string) {
  const { venue, paper: provider } = world;
  const first = await world.runner();
  const config = { numOfOrders: 3, orderSize: 0.01, interval: 500, entryPrice: 60000, takeProfit: 1, leverage: 1 };
  const botId = await world.create(userId, 'Spot', { exchange: 'Binance', symbol: 'BTCUSDT', ...config });
  await world.run({ type: 'StartBot', botId, userId }, userId);
  await until('bot started', async () => (await world.history(botId)).some((e) => e.type === 'BotStarted'));
  await first.stop();
  const port = await provider.for({ userId, exchange: 'Binance', market: 'spot' });
  venue.advanceTo(2000);
  const buyFills = await port.recentFills('BTCUSDT', 1);
  expect(buyFills).toHaveLength(1);
  const rules = toGridRules(await port.marketRules('BTCUSDT'));
  const grid: GridConfig = { botType: 'Spot', ...config };
  const engine = applyFills(initialState(grid, rules, engineBotId(botId)), buyFills.map((f) => toEngineFill(f, 'BTC')));
  const tp = desiredOrders(grid, rules, engine).find((d) => d.role === 'take-profit')!;
  expect(tp).toBeDefined();
  await port.createLimitOrder({ symbol: 'BTCUSDT', side: tp.side, price: tp.price, amount: tp.amount, clientOrderId: tp.clientOrderId });
  return { botId, port, tp };
}

describe('runner: a placement lost in a crash reaches the history before its fill', () => {
  const world = new RunnerWorld(CSV, 1000);
  afterAll(() => world.close());

  it('given a take-profit placed on the venue but not recorded, filled while the runner was down, when a runner resumes, then TakeProfitPlaced, then its fill, once each', async () => {
    const { venue } = world;
    const history = (id: string) => world.history(id);
    // what the killed runner did and never recorded: the first buy filled, it placed that buy's take-profit
    // (the client order id its engine gives it), and was killed; the take-profit then filled
    const { botId, port, tp } = await lostTakeProfit(world, 'user-1');
    venue.advanceTo(3000);
    expect((await port.recentFills('BTCUSDT', 1)).filter((f) => f.clientOrderId === tp.clientOrderId).length).toBeGreaterThan(0);
    expect((await history(botId)).some((e) => (e.data as { clientOrderId?: string }).clientOrderId === tp.clientOrderId)).toBe(false);

    const second = await world.runner();
    await until('the take-profit fill recorded', async () => (await history(botId)).some((e) => e.type === 'TakeProfitFilled'));
    await second.stop();

    const stream = await history(botId);
    const ofTp = stream.filter((e) => (e.data as { clientOrderId?: string }).clientOrderId === tp.clientOrderId).map((e) => e.type);
    expect(ofTp.slice(0, 2)).toEqual(['TakeProfitPlaced', 'TakeProfitFilled']);
    expect(ofTp.filter((t) => t === 'TakeProfitPlaced')).toHaveLength(1);
    const placed = stream.find((e) => e.type === 'TakeProfitPlaced')!.data as { price: number; amount: number; side: string };
    expect({ side: placed.side, price: placed.price, amount: placed.amount }).toEqual({ side: tp.side, price: tp.price, amount: tp.amount });
    // the buy's fill is recorded once, before the take-profit's placement
    const types = stream.map((e) => e.type);
    expect(types.filter((t) => t === 'OrderFilled')).toHaveLength(1);
    expect(types.indexOf('OrderFilled')).toBeLessThan(types.indexOf('TakeProfitPlaced'));
  });
});

describe('runner: a placement lost in a crash, still resting on the venue, is recorded when the runner adopts it', () => {
  const world = new RunnerWorld(CSV, 1000);
  afterAll(() => world.close());

  it('given a take-profit placed on the venue but not recorded, still open, when a runner resumes, then TakeProfitPlaced at once, and its fill after it, once each', async () => {
    const { venue } = world;
    const history = (id: string) => world.history(id);
    const { botId, port, tp } = await lostTakeProfit(world, 'user-2');
    const ofTp = async () => (await history(botId)).filter((e) => (e.data as { clientOrderId?: string }).clientOrderId === tp.clientOrderId).map((e) => e.type);
    expect(await ofTp()).toEqual([]);

    // the runner resumes while the take-profit rests: its placement is recorded before anything fills it
    const second = await world.runner();
    await until('the resting take-profit recorded', async () => (await ofTp()).includes('TakeProfitPlaced'));
    expect(await ofTp()).toEqual(['TakeProfitPlaced']);
    const placed = (await history(botId)).find((e) => e.type === 'TakeProfitPlaced')!.data as { price: number; amount: number; side: string };
    expect({ side: placed.side, price: placed.price, amount: placed.amount }).toEqual({ side: tp.side, price: tp.price, amount: tp.amount });
    // not placed again: the venue holds it once
    expect((await port.openOrders('BTCUSDT')).filter((o) => o.side === tp.side)).toHaveLength(1);

    venue.advanceTo(3000);
    await until('the take-profit fill recorded', async () => (await ofTp()).includes('TakeProfitFilled'));
    await second.stop();
    expect(await ofTp()).toEqual(['TakeProfitPlaced', 'TakeProfitFilled']);
  });
});
