/**
 * The runner against a venue that behaves like a live one (testnet mode: fills polled, wall clock):
 *  - issue 10 finding 1: fills are never asked "since 0", and the poll cursor moves with time even
 *    when no fills come back;
 *  - finding 6: leverage (isolated margin) is set on every resume, not only on a fresh start;
 *  - finding 7: a futures account in hedge mode is refused at start with a clear reason;
 *  - issue 11: a resume records the live process (BotResumed {pid}); an error in a start or a stop
 *    ends in a terminal state with the reason, never a bot stuck starting or stopping.
 */
import { until } from '@gridrocket/shared/testing/until';
import type { BotConfig } from '@gridrocket/bots';
import type { PositionMode } from '@gridrocket/exchanges';
import { providerWith } from './support/port-proxy';
import { RunnerWorld } from './support/runner-world';

jest.setTimeout(60_000);

const T = Date.now();
const CSV = ['ms,exchange,symbol,price', `${T - 5000},Binance,BTCUSDT,61000`, `${T - 5000},Binance,LTCUSDT,95`, `${T + 1000},Binance,BTCUSDT,61100`].join('\n');
const spot: BotConfig = { exchange: 'Binance', symbol: 'BTCUSDT', numOfOrders: 2, orderSize: 0.01, interval: 500, entryPrice: 60000, takeProfit: 1, leverage: 1 };
const futures: BotConfig = { exchange: 'Binance', symbol: 'LTCUSDT', numOfOrders: 2, orderSize: 0.5, interval: 2, entryPrice: 90, takeProfit: 2, leverage: 5 };

interface Faults {
  positionMode?: PositionMode;
  balances?: Error;
  openOrders?: Error;
}

/** The paper venue seen as a live one: no push, a spy on what the runner asks, faults on demand. */
function liveLike(world: RunnerWorld, faults: Faults) {
  const fills: Array<{ since: number; at: number }> = [];
  const leverage: Array<{ symbol: string; leverage: number; marginMode?: string }> = [];
  const provider = providerWith({ mode: 'testnet', prices: world.paper.prices, forget: () => undefined, close: async () => undefined }, (ref) => world.paper.for(ref), (target) => ({
    watchOrders: undefined,
    recentFills: (symbol: string, since: number) => (fills.push({ since, at: Date.now() }), target.recentFills(symbol, since)),
    setLeverage: (symbol: string, lev: number, marginMode?: 'isolated' | 'cross') => (leverage.push({ symbol, leverage: lev, marginMode }), target.setLeverage(symbol, lev, marginMode)),
    positionMode: async () => faults.positionMode ?? 'oneway',
    ...(faults.balances ? { balances: async () => Promise.reject(faults.balances) } : {}),
    ...(faults.openOrders ? { openOrders: async () => Promise.reject(faults.openOrders) } : {}),
  }));
  return { provider, fills, leverage };
}

describe('the runner on a live-like venue', () => {
  let world: RunnerWorld;
  const faults: Faults = {};
  let spy: ReturnType<typeof liveLike>;
  beforeAll(() => {
    world = new RunnerWorld(CSV, T - 5000);
    spy = liveLike(world, faults);
  });
  afterAll(() => world.close());

  const status = async (id: string) => {
    const s = await world.state(id);
    return s.kind === 'live' ? s : null;
  };
  /** The bot once its start has failed: stopped, with the reason (within `timeoutMs`, until's 10 s by default). */
  const startFailed = (id: string, timeoutMs?: number) =>
    until('start failed', async () => {
      const x = await status(id);
      return x && x.status === 'stopped' && x.lastError ? x : null;
    }, timeoutMs);

  it('finding 1: fills are asked from the run\'s start, never since 0, and the cursor moves with time without fills', async () => {
    await world.runner({ exchanges: spy.provider, name: 'r1', pid: 1111 });
    const started = Date.now();
    const id = await world.create('u1', 'Spot', spot);
    await world.run({ type: 'StartBot', botId: id, userId: 'u1' }, 'u1');
    await until('started', async () => (await status(id))?.status === 'running');
    await until('a few polls', () => spy.fills.length >= 6);
    for (const c of spy.fills) expect(c.since).toBeGreaterThanOrEqual(started - 60_000 - 5_000);
    const first = spy.fills[0].since;
    await new Promise((r) => setTimeout(r, 300));
    const last = spy.fills[spy.fills.length - 1];
    expect(last.since).toBeGreaterThan(first + 100); // no fill came back, yet the cursor moved
    expect(last.since).toBeGreaterThanOrEqual(last.at - 60_000 - 1_000);
  });

  it('finding 6, issue 11: a resume by another process sets leverage again (isolated) and records its pid', async () => {
    const a = await world.runner({ exchanges: spy.provider, name: 'fa', pid: 2222 });
    const id = await world.create('u2', 'Futures', futures);
    await world.run({ type: 'StartBot', botId: id, userId: 'u2' }, 'u2');
    await until('started', async () => (await status(id))?.status === 'running');
    const before = spy.leverage.length;
    expect(spy.leverage[before - 1]).toEqual({ symbol: 'LTCUSDT', leverage: 5, marginMode: 'isolated' });
    await a.stop();
    await world.runner({ exchanges: spy.provider, name: 'fb', pid: 3333 });
    await until('resumed by 3333', async () => (await status(id))?.pid === 3333);
    expect(spy.leverage.length).toBeGreaterThan(before);
    expect(spy.leverage[spy.leverage.length - 1]).toEqual({ symbol: 'LTCUSDT', leverage: 5, marginMode: 'isolated' });
    expect(await world.types(id)).toContain('BotResumed');
  });

  it('finding 7: a futures account in hedge mode is refused at start with the reason, nothing placed', async () => {
    faults.positionMode = 'hedge';
    try {
      const id = await world.create('u3', 'Futures', futures);
      await world.run({ type: 'StartBot', botId: id, userId: 'u3' }, 'u3');
      const s = await startFailed(id);
      expect(s.lastError).toMatch(/hedge mode: GridRocket trades in one-way mode only/);
      expect(await (await world.paper.for({ userId: 'u3', exchange: 'Binance', market: 'futures' })).openOrders('LTCUSDT')).toEqual([]);
    } finally {
      delete faults.positionMode;
    }
  });

  it('issue 11: an error the runner does not know in a start ends in "start failed" with the reason', async () => {
    faults.balances = new RangeError('The number Infinity cannot be converted to a BigInt because it is not an integer');
    try {
      const id = await world.create('u4', 'Spot', spot);
      await world.run({ type: 'StartBot', botId: id, userId: 'u4' }, 'u4');
      const s = await startFailed(id, 20_000);
      expect(s.lastError).toMatch(/Infinity cannot be converted to a BigInt/);
      expect(await world.types(id)).toContain('BotStartFailed');
    } finally {
      delete faults.balances;
    }
  });

  it('issue 11: a stop always completes, even when the exchange answers with an error the runner does not know', async () => {
    const id = await world.create('u5', 'Spot', spot);
    await world.run({ type: 'StartBot', botId: id, userId: 'u5' }, 'u5');
    await until('started', async () => (await status(id))?.status === 'running');
    faults.openOrders = new TypeError("Cannot read properties of undefined (reading 'orderId')");
    try {
      await world.run({ type: 'StopBot', botId: id, userId: 'u5', cancelAllOrders: true }, 'u5');
      const s = await until('stopped', async () => {
        const x = await status(id);
        return x && x.status === 'stopped' ? x : null;
      }, 20_000);
      expect(s.lastError).toMatch(/reading 'orderId'/);
      expect(s.pid).toBe(-1);
    } finally {
      delete faults.openOrders;
    }
  });
});
