// Over 400 lines: the lease protocol's cases (share, hand-over, lapse, pause, takeover, clean stop, outage for all) on one shared store and clock.
/**
 * Leases in the event store (issue 41), driven round by round on one in-memory SQLite store shared by
 * several runners, with the test's own clocks (manual mode: no timers). What is checked is what trading
 * relies on: a partition is never acted for by two runners at once (owns() of both, at any moment), a
 * runner that cannot renew stops within its lease, nobody takes its partitions before its lease has surely
 * lapsed, a paused runner's old epoch is refused by the store, and a clean stop hands over at once.
 */
import { randomUUID } from 'node:crypto';
import * as Kurrent from '@kurrent/kurrentdb-client';
import { FencedError, KurrentDbEventStore, SqliteEventStore, type AppendOptions, type EventStore, type ExpectedRevision, type NewEvent } from '@gridrocket/event-store';
import { FakeKurrentDbClient } from '@gridrocket/event-store/testing/fake-kurrentdb.client';
import { LeaseOwnership } from './lease.ownership';
import { ownershipStreams, PARTITION_RELEASED, RUNNER_HEARTBEAT } from './lease-streams';
import { assignPartitions } from './lease-assignment';
import { botPartitionOf } from './partitions';
import type { OwnershipListener, RevokeReason } from './ownership.port';

const P = 8;
const LEASE = 6_000;
const RENEW = 2_000;
const TAKEOVER = 2 * LEASE + RENEW;

/** One bot id per partition. */
const BOTS: string[] = new Array(P).fill('');
while (BOTS.some((b) => !b)) {
  const id = randomUUID();
  const p = botPartitionOf(id, P);
  if (!BOTS[p]) BOTS[p] = id;
}

interface Clock {
  t: number;
}

/** A runner's view of the store: can be cut off (every call fails) or slowed (appends answered later). */
function reach(store: EventStore) {
  const ctl = { down: false, hold: null as Promise<void> | null };
  const gate = async () => {
    if (ctl.down) throw new Error('connect ECONNREFUSED (the event store is unreachable)');
    if (ctl.hold) await ctl.hold;
  };
  const events: EventStore = new Proxy(store, {
    get(target, prop) {
      if (prop === 'append')
        return async (s: string, e: NewEvent[], x: ExpectedRevision, o?: AppendOptions) => {
          await gate();
          return target.append(s, e, x, o);
        };
      if (prop === 'readStream')
        return async (...args: Parameters<EventStore['readStream']>) => {
          if (ctl.down) throw new Error('connect ECONNREFUSED (the event store is unreachable)');
          return target.readStream(...args);
        };
      const v = (target as any)[prop];
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });
  return { events, ctl };
}

class Runner {
  readonly calls: string[] = [];
  readonly assigned = new Set<number>();
  readonly o: LeaseOwnership;
  readonly ctl: { down: boolean; hold: Promise<void> | null };
  constructor(
    readonly name: string,
    store: EventStore,
    clock: Clock,
    extra: { partitions?: number } = {},
  ) {
    const r = reach(store);
    this.ctl = r.ctl;
    this.o = new LeaseOwnership({
      events: r.events,
      scope: 'test',
      owner: name,
      partitions: extra.partitions ?? P,
      leaseMs: LEASE,
      renewMs: RENEW,
      now: () => clock.t,
      wallNow: () => 1_700_000_000_000 + clock.t,
      manual: true,
    });
  }
  readonly listener: OwnershipListener = {
    onAssigned: (ps) => {
      for (const p of ps) this.assigned.add(p);
      this.calls.push(`assigned ${ps.join(',')}`);
    },
    onRevoked: (ps, reason?: RevokeReason) => {
      for (const p of ps) this.assigned.delete(p);
      this.calls.push(`revoked ${ps.join(',')} ${reason}`);
    },
  };
  start() {
    return this.o.start(this.listener);
  }
  async round() {
    await this.o.round();
    await this.o.released();
    await this.o.settled();
  }
  acting(): number[] {
    return BOTS.map((id, p) => (this.o.owns(id) ? p : -1)).filter((p) => p >= 0);
  }
}

describe('bot ownership by leases in the event store (issue 41)', () => {
  let store: SqliteEventStore;
  let clock: Clock;
  beforeEach(() => {
    store = new SqliteEventStore(':memory:');
    clock = { t: 0 };
  });
  afterEach(() => store.close());

  /** No partition acted for by two runners at this moment. */
  const oneWriter = (runners: Runner[]) => {
    const seen = new Map<number, string>();
    for (const r of runners) {
      for (const p of r.acting()) {
        expect(`${p}: ${seen.get(p) ?? ''}${seen.has(p) ? ` and ${r.name}` : ''}`).toBe(`${p}: `);
        seen.set(p, r.name);
      }
    }
    return seen;
  };
  /** Rounds of every runner in `active`, `renewMs` apart, checking oneWriter at each step. */
  const rounds = async (n: number, active: Runner[], all: Runner[] = active) => {
    for (let i = 0; i < n; i++) {
      clock.t += RENEW;
      for (const r of active) {
        await r.round();
        oneWriter(all);
      }
    }
  };
  /** Runners a and b started, after three rounds (the partitions shared between them). */
  const twoRunnersSettled = async () => {
    const a = new Runner('a', store, clock);
    const b = new Runner('b', store, clock);
    await a.start();
    await b.start();
    await rounds(3, [a, b]);
    return [a, b] as const;
  };
  const heads = async () =>
    Promise.all(Array.from({ length: P }, async (_, p) => (await store.readStream(ownershipStreams('test').partition(p), { direction: 'backwards', maxCount: 1 }))[0]));

  it('a lone runner claims every partition; its epoch is its claim\'s revision and fences its appends', async () => {
    const a = new Runner('a', store, clock);
    await a.start();
    await a.o.settled();
    expect(a.o.owned()).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(a.calls).toEqual(['assigned 0,1,2,3,4,5,6,7']);
    for (const [p, head] of (await heads()).entries()) {
      expect(head.type).toBe('PartitionClaimed');
      expect(head.data).toMatchObject({ partition: p, owner: 'a', instance: a.o.instance });
      expect(a.o.fenceFor(BOTS[p])).toEqual({ streamId: `ownership-test-p${p}`, revision: head.revision });
    }
    const members = await store.readStream(ownershipStreams('test').members);
    expect(members.map((e) => e.type)).toEqual([RUNNER_HEARTBEAT]);
    expect((await store.readStream(ownershipStreams('test').settings))[0].data).toEqual({ scope: 'test', partitions: P });
  });

  it('a second runner gets half: the first lets each partition\'s bots go before it releases it, so no partition is ever acted for by both', async () => {
    const a = new Runner('a', store, clock);
    const b = new Runner('b', store, clock);
    await a.start();
    await b.start();
    oneWriter([a, b]);
    await rounds(3, [a, b]);
    const expected = assignPartitions(P, [
      { instance: a.o.instance, name: 'a' },
      { instance: b.o.instance, name: 'b' },
    ]);
    expect(a.o.owned()).toEqual([...expected].filter(([, i]) => i === a.o.instance).map(([p]) => p));
    expect(b.o.owned()).toEqual([...expected].filter(([, i]) => i === b.o.instance).map(([p]) => p));
    expect(a.o.owned()).toHaveLength(4);
    expect(a.calls.filter((c) => c.startsWith('revoked')).every((c) => c.endsWith('handover'))).toBe(true);
    // on each handed-over partition: the release after a's claim, then b's claim on top of it
    for (const p of b.o.owned()) {
      const claims = await store.readStream(ownershipStreams('test').partition(p));
      expect(claims.map((e) => `${e.type} ${(e.data as any).owner}`)).toEqual(['PartitionClaimed a', `${PARTITION_RELEASED} a`, 'PartitionClaimed b']);
    }
    // the balance holds: more rounds move nothing
    const before = JSON.stringify([a.o.owned(), b.o.owned()]);
    await rounds(5, [a, b]);
    expect(JSON.stringify([a.o.owned(), b.o.owned()])).toBe(before);
  });

  it('a runner cut off from the store stops acting within its lease and lets its bots go as paused; the other takes over only after twice the lease', async () => {
    const [a, b] = await twoRunnersSettled();
    const aHad = a.o.owned();
    const lastRenewal = clock.t - (a.o.status().lease!.ageMs ?? 0);
    a.ctl.down = true;
    let aStopped: number | null = null;
    let bTook: number | null = null;
    for (let i = 0; i < 80 && bTook === null; i++) {
      clock.t += 500;
      if (i % 4 === 0) {
        await a.round().catch(() => undefined);
        await b.round();
      }
      if (aStopped === null && a.acting().length === 0) aStopped = clock.t;
      if (bTook === null && aHad.some((p) => b.o.owned().includes(p))) bTook = clock.t;
      oneWriter([a, b]);
    }
    expect(aStopped).not.toBeNull();
    expect(aStopped! - lastRenewal).toBeLessThanOrEqual(LEASE);
    expect(bTook).not.toBeNull();
    expect(bTook! - lastRenewal).toBeGreaterThanOrEqual(2 * LEASE);
    expect(a.o.status()).toMatchObject({ trading: false, owned: [], lapsed: aHad });
    expect(a.o.status().lastError).toMatch(/renewing the lease: connect ECONNREFUSED/);
    await a.round().catch(() => undefined); // the lapse timer's job in manual mode
    expect(a.calls.at(-1)).toBe(`revoked ${aHad.join(',')} lapsed`);
    await rounds(2, [b], [a, b]);
    expect(b.o.owned()).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(a.o.status().lapsed).toEqual(aHad); // a cannot read the store: it still counts them paused
  });

  it('a paused runner (SIGSTOP) acts for nothing when it resumes, its old epoch is refused by the store, and it claims only what is handed to it', async () => {
    const [a, b] = await twoRunnersSettled();
    const p = a.o.owned()[0];
    const oldFence = a.o.fenceFor(BOTS[p])!;
    // a is stopped: no round, no timer; time runs on for the others
    await rounds(Math.ceil(TAKEOVER / RENEW) + 2, [b], [a, b]);
    expect(b.o.owned()).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    // resumed: before anything else runs, a acts for nothing (its lease ran out while it was stopped)
    expect(a.acting()).toEqual([]);
    expect(a.o.fenceFor(BOTS[p])).toBeNull();
    // an append that was on its way under the old epoch is refused
    const late: NewEvent = { id: randomUUID(), type: 'OrderPlaced', data: {}, metadata: { userId: 'runner', correlationId: 'c', causationId: null, occurredAt: new Date().toISOString(), schemaVersion: 1 } };
    await expect(store.append(`bot-${BOTS[p]}`, [late], 'any', { fence: oldFence })).rejects.toThrow(FencedError);
    // its next rounds: a fresh lease, b hands it its share back, one writer throughout
    await rounds(4, [a, b]);
    expect(a.o.owned()).toHaveLength(4);
    expect(a.calls.filter((c) => c.endsWith('lapsed'))).toHaveLength(1); // let go, as paused, on resuming
  });

  it('a renewal answered after the lease would have run out renews nothing: the lease runs from when it was sent', async () => {
    const a = new Runner('a', store, clock);
    await a.start();
    let answer!: () => void;
    a.ctl.hold = new Promise<void>((r) => (answer = r));
    clock.t += RENEW;
    const round = a.o.round(); // the heartbeat is sent now and waits for its answer
    clock.t += LEASE; // the answer is read a lease later (a slow store, a paused process)
    answer();
    a.ctl.hold = null;
    await round;
    await a.o.settled();
    expect(a.acting()).toEqual([]);
    expect(a.calls.at(-1)).toBe('revoked 0,1,2,3,4,5,6,7 lapsed');
    // the next renewal, sent and answered in time, starts a new lease: its partitions claimed again, new epochs
    clock.t += RENEW;
    await a.round();
    expect(a.o.owned()).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(a.o.fenceFor(BOTS[0])!.revision).toBe(1n);
  });

  it('a clean stop lets the bots go, releases every partition and says it left: the other takes them at its next round', async () => {
    const [a, b] = await twoRunnersSettled();
    await a.o.stop();
    expect(a.calls.at(-1)).toMatch(/ stopped$/);
    clock.t += RENEW;
    await b.round();
    expect(b.o.owned()).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  });

  it('the event store away for everyone: every runner stops, then each claims its own partitions again, nothing moves', async () => {
    const [a, b] = await twoRunnersSettled();
    const before = [a.o.owned(), b.o.owned()];
    a.ctl.down = b.ctl.down = true;
    for (let i = 0; i < 20; i++) {
      clock.t += RENEW;
      await a.round().catch(() => undefined);
      await b.round().catch(() => undefined);
      oneWriter([a, b]);
    }
    expect([a.acting(), b.acting()]).toEqual([[], []]);
    a.ctl.down = b.ctl.down = false;
    await rounds(3, [a, b]);
    expect([a.o.owned(), b.o.owned()]).toEqual(before);
    // each partition: the claim before, and one claim again by the same runner (no takeover in between)
    for (let p = 0; p < P; p++) {
      const owners = (await store.readStream(ownershipStreams('test').partition(p))).filter((e) => e.type === 'PartitionClaimed').map((e) => (e.data as any).owner);
      expect(owners.slice(-2)).toEqual([owners.at(-1), owners.at(-1)]);
    }
  });

  it('a runner restarted after a crash (a new instance of the same name) takes the dead one\'s partitions only after it has watched it silent for the takeover time', async () => {
    const dead = new Runner('a', store, clock);
    await dead.start(); // then killed: never another round
    const startedAt = (clock.t += RENEW);
    const again = new Runner('a', store, clock);
    await again.start();
    let took: number | null = null;
    for (let i = 0; i < 20 && took === null; i++) {
      clock.t += RENEW;
      await again.round();
      if (again.o.owned().length) took = clock.t;
    }
    expect(took! - startedAt).toBeGreaterThanOrEqual(TAKEOVER);
    expect(again.o.owned()).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  });

  it('a runner configured with another partition count uses the group\'s', async () => {
    const a = new Runner('a', store, clock);
    await a.start();
    const c = new Runner('c', store, clock, { partitions: 12 });
    await c.start();
    expect(c.o.partitionCount).toBe(P);
  });

  it('on KurrentDB (the adapter over the client\'s stand-in): the same protocol, every read of it from the leader', async () => {
    const fake = new FakeKurrentDbClient();
    const reads: unknown[] = [];
    const readStream = fake.readStream.bind(fake);
    jest.spyOn(fake, 'readStream').mockImplementation((id: string, options: any = {}) => {
      if (id.startsWith('ownership-')) reads.push(options.requiresLeader);
      return readStream(id, options);
    });
    jest.spyOn(Kurrent.KurrentDBClient, 'connectionString').mockReturnValue(fake as never);
    const kurrent = new KurrentDbEventStore('kurrentdb://stand-in:2113?tls=false');
    const a = new Runner('a', kurrent, clock);
    const b = new Runner('b', kurrent, clock);
    await a.start();
    await b.start();
    await rounds(3, [a, b]);
    expect([a.o.owned().length, b.o.owned().length]).toEqual([4, 4]);
    const p = b.o.owned()[0];
    const late: NewEvent = { id: randomUUID(), type: 'OrderPlaced', data: {}, metadata: { userId: 'runner', correlationId: 'c', causationId: null, occurredAt: new Date().toISOString(), schemaVersion: 1 } };
    // a's epoch on a partition it handed to b is refused there
    const claims = await kurrent.readStream(ownershipStreams('test').partition(p));
    const aEpoch = claims.find((e) => (e.data as any).owner === 'a')!.revision;
    await expect(kurrent.append(`bot-${BOTS[p]}`, [late], 'any', { fence: { streamId: ownershipStreams('test').partition(p), revision: aEpoch } })).rejects.toThrow(FencedError);
    await expect(kurrent.append(`bot-${BOTS[p]}`, [{ ...late, id: randomUUID() }], 'any', { fence: b.o.fenceFor(BOTS[p])! })).resolves.toBeTruthy();
    expect(reads.length).toBeGreaterThan(20);
    expect(reads.filter((r) => r !== true)).toEqual([]);
    jest.restoreAllMocks();
  });

  it('the balance gives every member ⌊n/m⌋ or ⌈n/m⌉ partitions and moves little when one joins', () => {
    const m = (names: string[]) => names.map((n) => ({ instance: `${n}.1`, name: n }));
    const two = assignPartitions(24, m(['r1', 'r2']));
    const three = assignPartitions(24, m(['r1', 'r2', 'r3']));
    const count = (a: Map<number, string>, i: string) => [...a.values()].filter((x) => x === i).length;
    expect(['r1.1', 'r2.1'].map((i) => count(two, i))).toEqual([12, 12]);
    expect(['r1.1', 'r2.1', 'r3.1'].map((i) => count(three, i))).toEqual([8, 8, 8]);
    const moved = [...three].filter(([p, i]) => i !== 'r3.1' && two.get(p) !== i).length;
    expect(moved).toBeLessThanOrEqual(6);
    expect([...assignPartitions(5, m(['x', 'y', 'z'])).values()].sort()).toEqual(['x.1', 'x.1', 'y.1', 'y.1', 'z.1']);
  });
});
