/**
 * A runner whose lease lapsed makes no exchange call: the ownership check runs immediately before
 * EVERY attempt, the first included, after any wait for the rate limit or a back-off
 * (exchange-calls.ts, GridRunner.call; docs/resilience.md, "Exchange calls of a deposed runner").
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { SqliteEventStore } from '@gridrocket/event-store';
import { SqliteReadStore } from '@gridrocket/read-store';
import { ExchangeDownError, type ExchangeProvider } from '@gridrocket/exchanges';
import { LeasedTestOwnership } from '@gridrocket/streaming/testing/leased-ownership';
import { until } from '@gridrocket/shared/testing/until';
import { GridRunner } from './grid-runner';
import { BotTask, NotOwnedError } from './bot-task';
import { directCommands } from './direct-commands';

jest.setTimeout(30_000);

/** A live venue that is never reached here: the test's `fn` stands for its calls. */
const liveProvider = {
  mode: 'live',
  for: async () => {
    throw new Error('not used');
  },
  prices: { subscribe: () => () => undefined },
  forget: () => undefined,
  close: async () => undefined,
} as unknown as ExchangeProvider;

/** The shared rate limiter, with a token the test hands out (a call waiting for its turn). */
function heldLimiter() {
  let held = false;
  const waiting: (() => void)[] = [];
  return {
    limiter: {
      for: () => ({
        take: () => (held ? new Promise<void>((r) => waiting.push(r)) : Promise.resolve()),
      }),
    },
    hold() {
      held = true;
    },
    release() {
      held = false;
      for (const r of waiting.splice(0)) r();
    },
    get waiting() {
      return waiting.length;
    },
  };
}

describe('exchange calls of a runner whose lease lapsed', () => {
  let dir: string;
  let events: SqliteEventStore;
  let reads: SqliteReadStore;
  let lease: LeasedTestOwnership;
  let limits: ReturnType<typeof heldLimiter>;
  let runner: GridRunner;
  let task: BotTask;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'gr-call-fence-'));
    events = new SqliteEventStore(join(dir, 'events.sqlite'), 20);
    reads = new SqliteReadStore(join(dir, 'read.sqlite'));
    lease = new LeasedTestOwnership(1, [0], 300);
    limits = heldLimiter();
    const quiet = { log: () => undefined, warn: () => undefined, error: () => undefined };
    runner = new GridRunner({ events, reads, commands: directCommands(events), exchanges: liveProvider, ownership: lease, rateLimiter: limits.limiter, logger: quiet, retryBaseMs: 10, retryMaxMs: 20 });
    lease.heartbeats(30);
    await runner.start();
    task = new BotTask(
      {
        botId: randomUUID(),
        userId: 'user-fence',
        run: 1,
        correlationId: randomUUID(),
        causationId: randomUUID(),
        exchange: 'Binance',
        market: 'spot',
        symbol: 'BTCUSDT',
        config: { botType: 'Spot', numOfOrders: 3, orderSize: 0.01, interval: 700, entryPrice: 60500, takeProfit: 1, leverage: 1 },
      },
      runner,
    );
  });

  afterEach(async () => {
    lease.stopHeartbeats();
    await runner.stop();
    await events.close();
    await reads.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const lapse = async () => {
    lease.stopHeartbeats(); // the coordinator's answers stop coming (a split, a paused loop)
    await until('the lease lapsed', async () => !lease.leaseValid, 5_000);
  };

  it('makes the call while the runner owns the bot (the control)', async () => {
    const made: string[] = [];
    await expect(runner.call(task, async () => made.push('openOrders'))).resolves.toBe(1);
    expect(made).toEqual(['openOrders']);
  });

  it('does not make the first attempt once the lease has lapsed', async () => {
    await lapse();
    const made: string[] = [];
    await expect(runner.call(task, async () => void made.push('cancelOrder'))).rejects.toBeInstanceOf(NotOwnedError);
    expect(made).toEqual([]);
  });

  it('does not make the first attempt when the lease lapsed while the call waited for the rate limit', async () => {
    limits.hold();
    const made: string[] = [];
    const call = runner.call(task, async () => void made.push('createOrder'));
    await until('the call waits for its token', async () => limits.waiting > 0, 5_000);
    expect(task.released || !runner.owns(task.botId)).toBe(false); // owned when the call was asked for
    await lapse();
    limits.release();
    await expect(call).rejects.toBeInstanceOf(NotOwnedError);
    expect(made).toEqual([]);
  });

  it('does not retry once the lease lapsed during the back-off', async () => {
    const made: number[] = [];
    const call = runner.call(task, async () => {
      made.push(made.length + 1);
      if (made.length === 1) {
        lease.stopHeartbeats();
        await until('the lease lapsed', async () => !lease.leaseValid, 5_000);
        throw new ExchangeDownError('timeout');
      }
      return 'ok';
    });
    await expect(call).rejects.toBeInstanceOf(NotOwnedError);
    expect(made).toEqual([1]);
  });
});
