/**
 * The machinery of the risk-control crash tests (test/risk-crash.spec.ts, test/trail-down-crash.spec.ts):
 * the runner is its own OS process (crash-runner.child.ts) on a data folder; the paper venue lives in THIS
 * process (an independent actor, like a real exchange), reached over RPC, and answers cancels and orders a
 * little slowly (as a real one does), so the kills land inside a stop-loss or a re-anchor however fast or
 * loaded the machine is.
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
import { isOwnClientOrderId } from '@gridrocket/trading';
import { servePaperRpc, type PaperRpcServer } from '@gridrocket/trading/testing/paper-rpc';
import { startCrashRunner } from './crash-runner';
import { kill9 } from './server-process';

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** These tests' wait: 30 s, probing every 10 ms (1 ms to catch a record before the runner acts on it). */
export async function until<T>(what: string, probe: () => Promise<T | false | null | undefined>, timeoutMs = 30_000, everyMs = 10): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out: ${what}`);
    await sleep(everyMs);
  }
}

export class SlowPaperCrash {
  private child: ChildProcess | null = null;

  private constructor(
    readonly dir: string,
    readonly venue: PaperVenue,
    readonly provider: PaperExchangeProvider,
    readonly events: SqliteEventStore,
    private readonly rpc: PaperRpcServer,
  ) {}

  /**
   * The venue on `path` (a price CSV) at 1000 ms, its slow RPC server, and the runner child started.
   * `answered`: called once a slow call has been carried out on the venue, before its answer goes back (a
   * test holds the runner there to kill it between an exchange action and its record).
   */
  static async start(prefix: string, path: string, answered?: (method: string, args: unknown[]) => Promise<void>): Promise<SlowPaperCrash> {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    const venue = new PaperVenue({ store: join(dir, 'paper.sqlite'), feed: new CsvReplayFeed(path) });
    const provider = new PaperExchangeProvider(venue);
    const events = new SqliteEventStore(join(dir, 'events.sqlite'), 20);
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
            if (!slow.has(String(key))) return v.bind(target);
            return async (...args: unknown[]) => {
              await sleep(60);
              const result = await v.apply(target, args);
              await answered?.(String(key), args);
              return result;
            };
          },
        });
      },
    } as typeof provider;
    const rpc = await servePaperRpc(slowProvider);
    venue.advanceTo(1000);
    const w = new SlowPaperCrash(dir, venue, provider, events, rpc);
    await w.restart();
    return w;
  }

  /** SIGKILL of the runner child. */
  async kill(): Promise<void> {
    if (this.child) await kill9(this.child);
    this.child = null;
  }

  /** A new runner child on the same data folder. */
  async restart(): Promise<void> {
    this.child = await startCrashRunner(this.dir, this.rpc.url);
  }

  /** A spot bot on Binance created and started; resolves once it runs. */
  async createAndStart(userId: string, config: Omit<BotConfig, 'exchange' | 'leverage'>): Promise<string> {
    const id = randomUUID();
    const cmd = new BotCommandRunner(this.events);
    const ctx = { userId, correlationId: randomUUID() };
    await cmd.run({ type: 'CreateBot', botId: id, userId, botType: 'Spot', config: { exchange: 'Binance', leverage: 1, ...config } }, ctx);
    await cmd.run({ type: 'StartBot', botId: id, userId }, ctx);
    await until('started', async () => (await this.stream(id)).some((e) => e.type === 'BotStarted'));
    return id;
  }

  stream(id: string) {
    return this.events.readStream(`bot-${id}`);
  }

  port(userId: string) {
    return this.provider.for({ userId, exchange: 'Binance', market: 'spot' });
  }

  /** The bot's orders open on the venue. */
  async own(userId: string, id: string, symbol: string) {
    return (await (await this.port(userId)).openOrders(symbol)).filter((o) => isOwnClientOrderId(id, o.clientOrderId));
  }

  async close(): Promise<void> {
    await this.kill();
    await this.rpc.close();
    await this.events.close();
    this.venue.close();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/**
 * A SlowPaperCrash of `prefix` on `path` for each test of a describe block: started before the test, closed
 * after it. What it returns reads the running test's one (its venue, kill, restart, createAndStart, own, …).
 */
export function useSlowPaperCrash(prefix: string, path: string): SlowPaperCrash {
  let current: SlowPaperCrash | undefined;
  beforeEach(async () => {
    current = await SlowPaperCrash.start(prefix, path);
  });
  afterEach(() => current!.close());
  return new Proxy({} as SlowPaperCrash, {
    get(_, prop) {
      const v = (current as any)[prop];
      return typeof v === 'function' ? v.bind(current) : v;
    },
  });
}
