/**
 * Crash safety of trailing down (issue 32, grid/trail-down.ts, docs/risk.md), with the machinery of
 * test/risk-crash.spec.ts: the runner is its own OS process on a data folder, the paper venue lives in THIS
 * process and is reached over RPC (its cancels and placements answer a little slowly, so the kill lands
 * inside the move). The runner is SIGKILLed as soon as `GridReanchored {trailDown}` is recorded, before or
 * while it cancels the old take-profit and places the new ladder; the price moves up before the restart.
 * After the restart the move is finished once: the position kept, one take-profit for all of it under the
 * new cycle's id, the new ladder's rungs once, nothing of the old cycle open, no second move.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { SqliteEventStore } from '@gridrocket/event-store';
import { BotCommandRunner } from '@gridrocket/bots/nest';
import type { BotConfig } from '@gridrocket/bots';
import { CsvReplayFeed, PaperExchangeProvider, PaperVenue } from '@gridrocket/exchanges';
import { buyOrderId, isOwnClientOrderId, takeProfitOrderId } from '@gridrocket/trading';
import { servePaperRpc, type PaperRpcServer } from '@gridrocket/trading/testing/paper-rpc';
import { startCrashRunner } from './support/crash-runner';
import { kill9 } from './support/server-process';

jest.setTimeout(120_000);

// LTCUSDT spot (Binance: the buy fee, 0.1 %, taken in LTC). Buys of 0.5 at 90 and 88 fill at 87.5;
// at 83 (more than 2 below 88) the ladder trails down to 83 (rungs 83, 81; limit 80); then 84.
const PATH = [
  'ms,exchange,symbol,price',
  '1000,Binance,LTCUSDT,91',
  '2000,Binance,LTCUSDT,87.5',
  '3000,Binance,LTCUSDT,83',
  '4000,Binance,LTCUSDT,84',
].join('\n');

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until<T>(what: string, probe: () => Promise<T | false | null | undefined>, timeoutMs = 30_000, everyMs = 10): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out: ${what}`);
    await sleep(everyMs);
  }
}

describe('trailing down survives SIGKILL', () => {
  let dir: string;
  let venue: PaperVenue;
  let provider: PaperExchangeProvider;
  let events: SqliteEventStore;
  let rpc: PaperRpcServer;
  let child: ChildProcess | null = null;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'gr-trail-crash-'));
    venue = new PaperVenue({ store: join(dir, 'paper.sqlite'), feed: new CsvReplayFeed(PATH) });
    provider = new PaperExchangeProvider(venue);
    events = new SqliteEventStore(join(dir, 'events.sqlite'), 20);
    // The venue answers cancels and market orders a little slowly (as a real one does): the kills land
    // inside the stop-loss and the re-anchor however fast or loaded the machine is.
    const slow = new Set(['cancelOrder', 'createMarketOrder', 'createLimitOrder']);
    const slowProvider = {
      ...provider,
      prices: provider.prices,
      mode: provider.mode,
      for: async (ref: Parameters<typeof provider.for>[0]) => {
        const port = await provider.for(ref);
        return new Proxy(port, {
          get(target, key, receiver) {
            const v = Reflect.get(target, key, receiver);
            if (typeof v !== 'function') return v;
            return slow.has(String(key)) ? async (...args: unknown[]) => (await sleep(60), v.apply(target, args)) : v.bind(target);
          },
        });
      },
    } as typeof provider;
    rpc = await servePaperRpc(slowProvider);
    venue.advanceTo(1000);
    child = await startCrashRunner(dir, rpc.url);
  });
  afterEach(async () => {
    if (child) await kill9(child);
    await rpc.close();
    await events.close();
    venue.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function createAndStart(userId: string, config: Omit<BotConfig, 'exchange' | 'leverage'>) {
    const id = randomUUID();
    const cmd = new BotCommandRunner(events);
    const ctx = { userId, correlationId: randomUUID() };
    await cmd.run({ type: 'CreateBot', botId: id, userId, botType: 'Spot', config: { exchange: 'Binance', leverage: 1, ...config } }, ctx);
    await cmd.run({ type: 'StartBot', botId: id, userId }, ctx);
    await until('started', async () => (await events.readStream(`bot-${id}`)).some((e) => e.type === 'BotStarted'));
    return id;
  }
  const stream = (id: string) => events.readStream(`bot-${id}`);
  const port = (userId: string) => provider.for({ userId, exchange: 'Binance', market: 'spot' });
  const own = async (userId: string, id: string, symbol: string) => (await (await port(userId)).openOrders(symbol)).filter((o) => isOwnClientOrderId(id, o.clientOrderId));

  it('killed as soon as the trail down is recorded: after the restart the position is kept, one take-profit for it, the new rungs once, nothing of the old cycle', async () => {
    const userId = 'trail-down';
    const id = await createAndStart(userId, { symbol: 'LTCUSDT', numOfOrders: 2, orderSize: 0.5, interval: 2, entryPrice: 90, takeProfit: 2, trailDownLimit: 80 });
    await until('ladder', async () => (await own(userId, id, 'LTCUSDT')).length === 2);
    venue.advanceTo(2000); // 87.5: both buys fill; held 2 × 0.4995 = 0.999 for 90 × 0.4995 + 88 × 0.4995 = 88.911, average 89
    const oldTp = takeProfitOrderId(id, 1, 2); // defined after the second buy fill
    await until('take-profit of the ladder', async () => (await own(userId, id, 'LTCUSDT')).some((o) => o.clientOrderId === oldTp));
    venue.advanceTo(3000); // 83 < 88 − 2: trail down to 83
    await until('GridReanchored', async () => (await stream(id)).some((e) => e.type === 'GridReanchored'), 30_000, 1);
    await kill9(child!);
    child = null;
    const p = await port(userId);
    const oldTpOpenAtKill = (await own(userId, id, 'LTCUSDT')).some((o) => o.clientOrderId === oldTp);
    venue.advanceTo(4000); // 84 while the runner is down
    child = await startCrashRunner(dir, rpc.url);
    const line = (o: { side: string; clientOrderId: string; price: number; amount: number }) => `${o.side} ${o.clientOrderId} ${o.price} ${o.amount}`;
    // The new first rung (83) filled at 83 if it was placed before the kill (it crossed the price 83);
    // placed after the restart it rests below 84. By hand, for each case:
    //  filled: held 0.999 + 0.4995 = 1.4985 for 88.911 + 83 × 0.4995 = 130.3695, average 87, take-profit 87 × 1.02 = 88.74
    //  resting: held 0.999 for 88.911, average 89, take-profit 89 × 1.02 = 90.78
    const firstFilled = (await p.recentFills('LTCUSDT', 0)).some((f) => f.clientOrderId === buyOrderId(id, 2, 0));
    const expected = (firstFilled
      ? [`buy ${buyOrderId(id, 2, 1)} 81 0.5`, `sell ${takeProfitOrderId(id, 2, 2)} 88.74 1.498`]
      : [`buy ${buyOrderId(id, 2, 0)} 83 0.5`, `buy ${buyOrderId(id, 2, 1)} 81 0.5`, `sell ${takeProfitOrderId(id, 2, 1)} 90.78 0.999`]
    ).sort();
    await until('the trailed grid', async () => JSON.stringify((await own(userId, id, 'LTCUSDT')).map(line).sort()) === JSON.stringify(expected));
    await sleep(500); // nothing else happens afterwards
    expect((await own(userId, id, 'LTCUSDT')).map(line).sort()).toEqual(expected);
    const after = await stream(id);
    expect(after.filter((e) => e.type === 'GridReanchored').map((e) => e.data)).toEqual([expect.objectContaining({ from: 90, to: 83, cycle: 2, trailDown: true })]);
    const fills = (await p.recentFills('LTCUSDT', 0)).filter((f) => isOwnClientOrderId(id, f.clientOrderId));
    // the two old buys, and the new first rung at most once; the position was never sold
    expect(fills.map((f) => f.clientOrderId)).toEqual([buyOrderId(id, 1, 0), buyOrderId(id, 1, 1), ...(firstFilled ? [buyOrderId(id, 2, 0)] : [])]);
    expect(after.filter((e) => e.type === 'BotFailed')).toHaveLength(0);
    // the kill landed inside the move: the old take-profit was still open (its cancel not yet done)
    expect(oldTpOpenAtKill).toBe(true);
  });
});
