/**
 * Issue 12, fencing: two runners share one event store and one paper venue. Runner A's exchange
 * call is in flight when it is deposed and runner B takes the bot over. Whatever A's local view
 * says afterwards, its appends are refused (the ownership epoch in the event store) and no order
 * is placed twice on the venue.
 *
 * B's own first placement is held too until A has finished: A's call completes and A tries to
 * record before B has recorded anything. Had B recorded first, A's facts (the same client order
 * ids, the same MarkStarted) would be dropped by the bot decider as already recorded and A would
 * have nothing to append, so nothing would meet the fence: the runner records through
 * executeCommand, which appends only what the decider accepts.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { EventStore, FencedError, SqliteEventStore } from '@gridrocket/event-store';
import { SqliteReadStore } from '@gridrocket/read-store';
import { BotCommandRunner } from '@gridrocket/bots/nest';
import { FencedOwnership } from '@gridrocket/streaming';
import { LeasedTestOwnership } from '@gridrocket/streaming/testing/leased-ownership';
import { PaperExchangeProvider, PaperVenue } from '@gridrocket/exchanges';
import { CsvReplayFeed } from '@gridrocket/exchanges';
import type { ExchangePort, ExchangeProvider } from '@gridrocket/exchanges';
import { GridRunner, engineBotId } from '@gridrocket/trading';
import { directCommands } from '@gridrocket/trading/nest';
import { isOwnClientOrderId } from '@gridrocket/trading/grid';
import { until } from '@gridrocket/shared/testing/until';
import { closeAll } from './support/close-all';

jest.setTimeout(90_000);

const CSV = ['ms,exchange,symbol,price', '1000,Binance,BTCUSDT,61000', '2000,Binance,BTCUSDT,61000'].join('\n');

/** A's view of the venue: createLimitOrder can be held in flight (the request is on its way). */
function gatedProvider(inner: ExchangeProvider) {
  let gate: Promise<void> | null = null;
  let open: (() => void) | null = null;
  let held = 0;
  const provider: ExchangeProvider = {
    mode: inner.mode,
    prices: inner.prices,
    forget: (u, e) => inner.forget(u, e),
    close: () => inner.close(),
    async for(ref) {
      const port = await inner.for(ref);
      return new Proxy(port, {
        get(target, prop, receiver) {
          const value = Reflect.get(target, prop, receiver);
          if (prop !== 'createLimitOrder') return typeof value === 'function' ? value.bind(target) : value;
          return async (...args: unknown[]) => {
            if (gate) {
              held++;
              await gate;
            }
            return (value as (...a: unknown[]) => unknown).apply(target, args);
          };
        },
      }) as ExchangePort;
    },
  };
  return {
    provider,
    hold() {
      gate = new Promise<void>((r) => (open = r));
    },
    release() {
      gate = null;
      open?.();
    },
    get held() {
      return held;
    },
  };
}

/** Runner A's event store: every append it makes after B's claim is logged with its outcome. */
function watchedStore(inner: EventStore) {
  const log: { stream: string; types: string[]; outcome: 'ok' | 'fenced' | 'error'; position?: bigint }[] = [];
  const store: EventStore = {
    kind: inner.kind,
    readStream: (s, o) => inner.readStream(s, o),
    readAll: (o) => inner.readAll(o),
    subscribeToAll: (o) => inner.subscribeToAll(o),
    headPosition: () => inner.headPosition(),
    close: async () => undefined,
    async append(stream, events, expected, options) {
      try {
        const r = await inner.append(stream, events, expected, options);
        log.push({ stream, types: events.map((e) => e.type), outcome: 'ok', position: r.position });
        return r;
      } catch (err) {
        log.push({ stream, types: events.map((e) => e.type), outcome: err instanceof FencedError ? 'fenced' : 'error' });
        throw err;
      }
    },
  };
  return { store, log };
}

describe('fencing: a deposed runner with an exchange call in flight', () => {
  const quiet = { log: () => undefined, warn: () => undefined, error: () => undefined };

  async function scenario(aKeepsItsLease: boolean) {
    const dir = mkdtempSync(join(tmpdir(), 'gr-fence-'));
    const venue = new PaperVenue({ store: join(dir, 'paper.sqlite'), feed: new CsvReplayFeed(CSV) });
    venue.advanceTo(1000);
    const paper = new PaperExchangeProvider(venue);
    const events = new SqliteEventStore(join(dir, 'events.sqlite'), 20);
    const reads = new SqliteReadStore(join(dir, 'read.sqlite'));
    const gatedA = gatedProvider(paper);
    const watchA = watchedStore(events);
    const leaseA = new LeasedTestOwnership(1, [0], 400);
    const leaseB = new LeasedTestOwnership(1, [], 400);
    const ownA = new FencedOwnership(leaseA, events, { owner: 'runner-a' });
    const ownB = new FencedOwnership(leaseB, events, { owner: 'runner-b' });
    const a = new GridRunner({ events: watchA.store, reads, commands: directCommands(watchA.store), exchanges: gatedA.provider, ownership: ownA, name: 'runner-a', pid: 1001, logger: quiet, retryBaseMs: 20, retryMaxMs: 200 });
    const gatedB = gatedProvider(paper);
    const b = new GridRunner({ events, reads, commands: directCommands(events), exchanges: gatedB.provider, ownership: ownB, name: 'runner-b', pid: 1002, logger: quiet, retryBaseMs: 20, retryMaxMs: 200 });
    leaseA.heartbeats(50);
    await a.start();
    await b.start();
    expect(ownA.epochOf(0)).toBe(0n);

    // A starts a bot; its first order placement is held in flight
    gatedA.hold();
    const botId = randomUUID();
    const userId = 'user-fence';
    const cmd = new BotCommandRunner(events);
    const ctx = { userId, correlationId: randomUUID() };
    await cmd.run({ type: 'CreateBot', botId, userId, botType: 'Spot', config: { exchange: 'Binance', symbol: 'BTCUSDT', numOfOrders: 3, orderSize: 0.01, interval: 700, entryPrice: 60500, takeProfit: 1, leverage: 1 } }, ctx);
    await cmd.run({ type: 'StartBot', botId, userId }, ctx);
    await until('A has an order placement in flight', async () => gatedA.held > 0, 20_000);

    if (aKeepsItsLease) {
      // the coordinator moved the partition without A hearing of it (kafkajs does not wait for onRevoked)
    } else {
      // A's heartbeats stop: its lease lapses (before the group's session timeout would)
      leaseA.stopHeartbeats();
      await until('A lease lapsed', async () => !leaseA.leaseValid, 5_000);
    }
    leaseB.heartbeats(50);
    gatedB.hold();
    // B claims the partition (epoch 1) and resumes the bot (moveTo resolves once B's resume is done)
    const moved = leaseB.moveTo([0]);
    await until('B has its first order placement in flight', async () => gatedB.held > 0, 20_000);
    expect(ownB.epochOf(0)).toBe(1n);
    const claimedAt = (await events.readStream(ownB.streamOf(0))).at(-1)!.position;
    expect((await events.readStream(`bot-${botId}`)).filter((e) => e.type === 'OrderPlaced' || e.type === 'BotStarted')).toEqual([]);

    // A's call completes now, before B has recorded anything: whatever A records next is news to the decider
    gatedA.release();
    await new Promise((r) => setTimeout(r, 500));
    await a.idle();

    // then B's
    gatedB.release();
    const port = await paper.for({ userId, exchange: 'Binance', market: 'spot' });
    const mine = async () => (await port.openOrders('BTCUSDT')).filter((o) => isOwnClientOrderId(engineBotId(botId, 1), o.clientOrderId));
    await until('B placed the ladder and reported the start', async () => {
      const s = await events.readStream(`bot-${botId}`);
      return s.some((e) => e.type === 'BotStarted') && (await mine()).length === 3;
    }, 30_000);
    await moved;
    await new Promise((r) => setTimeout(r, 500));
    await a.idle();
    await b.idle();

    // nothing A appended after B's claim went through
    const aAfter = watchA.log.filter((x) => x.stream === `bot-${botId}` && x.outcome === 'ok' && x.position! > claimedAt);
    expect(aAfter).toEqual([]);
    const stream = await events.readStream(`bot-${botId}`);
    const started = stream.filter((e) => e.type === 'BotStarted');
    expect(started.map((e) => (e.data as { pid: number }).pid)).toEqual([1002]);
    // every placement recorded once, and no order twice on the venue
    const placed = stream.filter((e) => e.type === 'OrderPlaced').map((e) => (e.data as { clientOrderId: string }).clientOrderId);
    expect(new Set(placed).size).toBe(placed.length);
    const open = await mine();
    expect(open).toHaveLength(3);
    expect(new Set(open.map((o) => o.clientOrderId)).size).toBe(3);
    expect([...placed].sort()).toEqual(open.map((o) => o.clientOrderId).sort());
    const fenced = watchA.log.filter((x) => x.outcome === 'fenced');

    await closeAll(a, b, events, reads, venue, dir);
    return { fenced, aLog: watchA.log };
  }

  it('its lease lapses while the call is in flight: it stops, B takes over, no order twice, nothing appended by A after the hand-over', async () => {
    const { aLog } = await scenario(false);
    // A appended nothing to the bot's stream at all: its first append would have come after the call
    expect(aLog.filter((x) => x.outcome === 'ok' && x.stream.startsWith('bot-'))).toEqual([]);
  });

  it('it still believes it owns the bot (split brain): the event store refuses its appends by the epoch fence', async () => {
    const { fenced } = await scenario(true);
    expect(fenced.length).toBeGreaterThan(0);
    expect(fenced.every((x) => x.stream.startsWith('bot-'))).toBe(true);
  });
});
