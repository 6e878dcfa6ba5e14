import { EventEmitter } from 'node:events';
import type { Consumer, ConsumerConfig, Kafka } from 'kafkajs';
import { KafkaJSNonRetriableError } from 'kafkajs';
import { randomUUID } from 'node:crypto';
import { EmbeddedOwnership } from './embedded.ownership';
import { KafkaOwnership, kafkaPartitionOf, OWNERSHIP_TOPIC } from './kafka.ownership';
import type { OwnershipListener } from './ownership.port';

function recorder() {
  const calls: string[] = [];
  const listener: OwnershipListener = {
    async onAssigned(p) {
      calls.push(`assigned ${p.join(',')}`);
    },
    async onRevoked(p) {
      calls.push(`revoked ${p.join(',')}`);
    },
  };
  return { calls, listener };
}

/**
 * A stand-in for a kafkajs consumer: the test plays the group coordinator. As kafkajs does, every
 * answer read emits consumer.network.request (apiName, createdAt = the wall clock when the request
 * was made, before it was written) before the HEARTBEAT / GROUP_JOIN it confirms.
 */
function fakeConsumer(wall: () => number = Date.now) {
  const emitter = new EventEmitter();
  const events = {
    GROUP_JOIN: 'consumer.group_join',
    REBALANCING: 'consumer.rebalancing',
    CRASH: 'consumer.crash',
    STOP: 'consumer.stop',
    HEARTBEAT: 'consumer.heartbeat',
    REQUEST: 'consumer.network.request',
  };
  const answered = (apiName: string, createdAt: number) => {
    const now = wall();
    emitter.emit(events.REQUEST, { type: events.REQUEST, payload: { apiName, createdAt, sentAt: createdAt, duration: now - createdAt } });
  };
  const log: string[] = [];
  let config: ConsumerConfig | null = null;
  let created = 0;
  const consumer = {
    events,
    on(name: string, fn: (e: unknown) => void) {
      emitter.on(name, fn);
      return () => emitter.off(name, fn);
    },
    connect: async () => void log.push('connect'),
    subscribe: async (s: { topics: string[] }) => void log.push(`subscribe ${s.topics.join(',')}`),
    run: async () => void log.push('run'),
    disconnect: async () => void log.push('disconnect'),
  };
  return {
    log,
    get config() {
      return config;
    },
    create(c: ConsumerConfig) {
      config = c;
      created++;
      return consumer as unknown as Consumer;
    },
    /** A SyncGroup sent at `sentAt` (default: now) is answered with this assignment. */
    join(partitions: number[], topic = OWNERSHIP_TOPIC, memberId?: string, sentAt = wall()) {
      answered('SyncGroup', sentAt);
      emitter.emit(events.GROUP_JOIN, { type: events.GROUP_JOIN, payload: { memberId, memberAssignment: { [topic]: partitions } } });
    },
    /** A heartbeat sent at `sentAt` (default: now) is answered without error. */
    heartbeat(sentAt = wall()) {
      answered('Heartbeat', sentAt);
      emitter.emit(events.HEARTBEAT, { type: events.HEARTBEAT, payload: {} });
    },
    /** A heartbeat sent at `sentAt` is answered with an error (REBALANCE_IN_PROGRESS, …): no HEARTBEAT event. */
    heartbeatRefused(sentAt = wall()) {
      answered('Heartbeat', sentAt);
    },
    /** A HEARTBEAT event with no answer read before it (kafkajs never does this). */
    heartbeatEventOnly() {
      emitter.emit(events.HEARTBEAT, { type: events.HEARTBEAT, payload: {} });
    },
    rebalance() {
      emitter.emit(events.REBALANCING, { type: events.REBALANCING, payload: {} });
    },
    crash() {
      emitter.emit(events.CRASH, { type: events.CRASH, payload: { error: new Error('coordinator gone') } });
    },
    /** kafkajs's CRASH after an error it does not restart on (consumer/index.js: restart false): the consumer is dead. */
    crashForGood(error: Error) {
      emitter.emit(events.CRASH, { type: events.CRASH, payload: { error, groupId: 'runners-test', restart: false } });
    },
    /** How many consumers were made. */
    get created() {
      return created;
    },
  };
}

describe('embedded ownership', () => {
  it('owns every bot on its one runner while started', async () => {
    const o = new EmbeddedOwnership();
    const { calls, listener } = recorder();
    expect(o.owns(randomUUID())).toBe(false);
    await o.start(listener);
    expect(o.partitionCount).toBe(1);
    expect(o.owned()).toEqual([0]);
    for (let i = 0; i < 20; i++) expect(o.owns(randomUUID())).toBe(true);
    await o.stop();
    expect(o.owns(randomUUID())).toBe(false);
    expect(calls).toEqual(['assigned 0', 'revoked 0']);
  });
});

describe('Kafka consumer-group ownership (unit, with a stand-in consumer)', () => {
  const make = (extra: Partial<ConstructorParameters<typeof KafkaOwnership>[0]> = {}) => {
    const fake = fakeConsumer(extra.wallNow ?? Date.now);
    const ensured: [string, number][] = [];
    const errors: Error[] = [];
    const ownership = new KafkaOwnership({
      kafka: {} as Kafka,
      partitions: 8,
      groupId: 'runners-test',
      createConsumer: (c) => fake.create(c),
      ensureTopic: async (t, n) => void ensured.push([t, n]),
      partitionCountOf: async () => 8,
      onError: (e) => errors.push(e),
      ...extra,
    });
    return { fake, ensured, errors, ownership };
  };

  it('partitions bots by id exactly as Kafka\'s murmur2 partitioner places the key bot-<id>', () => {
    // reference values of Kafka's Java client: Utils.toPositive(Utils.murmur2(key)) % n
    expect(kafkaPartitionOf('a', 1_000_000)).toBe(Number((BigInt(murmur2Reference('bot-a')) & 0x7fffffffn) % 1_000_000n));
    const counts = new Array(8).fill(0);
    for (let i = 0; i < 4000; i++) counts[kafkaPartitionOf(randomUUID(), 8)]++;
    for (const c of counts) expect(c).toBeGreaterThan(350); // spread evenly (500 each on average)
    const id = randomUUID();
    expect(kafkaPartitionOf(id, 8)).toBe(kafkaPartitionOf(id, 8));
  });

  it('creates its topic, joins the group, and assigns what the coordinator gives it', async () => {
    const { fake, ensured, ownership } = make();
    const { calls, listener } = recorder();
    await ownership.start(listener);
    expect(ensured).toEqual([[OWNERSHIP_TOPIC, 8]]);
    expect(fake.config).toMatchObject({ groupId: 'runners-test' });
    expect(fake.log).toEqual(['connect', `subscribe ${OWNERSHIP_TOPIC}`, 'run']);
    expect(ownership.owned()).toEqual([]);
    fake.join([1, 3, 5]);
    expect(ownership.owned()).toEqual([1, 3, 5]); // at once
    await ownership.settled();
    expect(calls).toEqual(['assigned 1,3,5']);
    const bots = Array.from({ length: 200 }, () => randomUUID());
    for (const b of bots) expect(ownership.owns(b)).toBe([1, 3, 5].includes(ownership.partitionOf(b)));
    // other topics in the assignment are not ours
    fake.join([1, 3, 5, 7], 'some.other.topic');
    await ownership.settled();
    expect(calls).toEqual(['assigned 1,3,5', 'revoked 1,3,5']);
  });

  it('revokes everything the moment a rebalance begins (eager protocol), then assigns the new set', async () => {
    const { fake, ownership } = make();
    const { calls, listener } = recorder();
    await ownership.start(listener);
    fake.join([0, 1, 2, 3]);
    const bot = Array.from({ length: 100 }, () => randomUUID()).find((b) => ownership.partitionOf(b) === 2)!;
    expect(ownership.owns(bot)).toBe(true);
    fake.rebalance();
    expect(ownership.owns(bot)).toBe(false); // synchronously: no exchange call after this point
    fake.join([2, 3]);
    await ownership.settled();
    expect(calls).toEqual(['assigned 0,1,2,3', 'revoked 0,1,2,3', 'assigned 2,3']);
    expect(ownership.owns(bot)).toBe(true);
  });

  it('moves only the difference when it rejoins without a rebalance event', async () => {
    const { fake, ownership } = make();
    const { calls, listener } = recorder();
    await ownership.start(listener);
    fake.join([0, 1]);
    fake.join([1, 2]);
    await ownership.settled();
    expect(calls).toEqual(['assigned 0,1', 'revoked 0', 'assigned 2']);
  });

  it('serialises the callbacks: a revocation waits for the assignment in progress', async () => {
    const { fake, ownership } = make();
    const order: string[] = [];
    let release!: () => void;
    const slow = new Promise<void>((r) => (release = r));
    await ownership.start({
      async onAssigned(p) {
        order.push(`assign start ${p}`);
        await slow;
        order.push(`assign end ${p}`);
      },
      async onRevoked(p) {
        order.push(`revoke ${p}`);
      },
    });
    fake.join([4]);
    fake.rebalance();
    await new Promise((r) => setTimeout(r, 10));
    expect(order).toEqual(['assign start 4']);
    release();
    await ownership.settled();
    expect(order).toEqual(['assign start 4', 'assign end 4', 'revoke 4']);
  });

  it('owns nothing after a crash, and reports it', async () => {
    const { fake, ownership, errors } = make();
    const { calls, listener } = recorder();
    await ownership.start(listener);
    fake.join([6]);
    fake.crash();
    await ownership.settled();
    expect(ownership.owned()).toEqual([]);
    expect(calls).toEqual(['assigned 6', 'revoked 6']);
    expect(errors.map((e) => e.message)).toEqual(['coordinator gone']);
  });

  it('after a crash kafkajs does not restart (a broker restart: "Failed to find group coordinator"), joins again with a new consumer', async () => {
    const { fake, ownership, errors } = make();
    const { calls, listener } = recorder();
    await ownership.start(listener);
    fake.join([6], OWNERSHIP_TOPIC, 'm1');
    fake.crashForGood(new KafkaJSNonRetriableError('Failed to find group coordinator'));
    await ownership.settled();
    expect(ownership.owned()).toEqual([]);
    expect(errors.map((e) => e.name)).toEqual(['KafkaJSNonRetriableError']);
    expect(fake.created).toBe(1);
    // after the back-off (1 s): the dead consumer is let go and a new one joins the group
    const until = Date.now() + 5000;
    while (fake.created < 2 && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    expect(fake.created).toBe(2);
    expect(fake.log).toEqual(['connect', 'subscribe gridrocket.bot-ownership', 'run', 'disconnect', 'connect', 'subscribe gridrocket.bot-ownership', 'run']);
    fake.join([3], OWNERSHIP_TOPIC, 'm2');
    await ownership.settled();
    expect(ownership.owned()).toEqual([3]);
    expect(calls).toEqual(['assigned 6', 'revoked 6', 'assigned 3']);
    await ownership.stop();
  });

  it('after a crash kafkajs restarts itself, makes no second consumer', async () => {
    const { fake, ownership } = make();
    await ownership.start(recorder().listener);
    fake.crash(); // no `restart: false`: kafkajs restarts the same consumer
    await new Promise((r) => setTimeout(r, 1300));
    expect(fake.created).toBe(1);
    await ownership.stop();
  });

  it('revokes before it leaves the group on stop, so the next owner never overlaps', async () => {
    const { fake, ownership } = make();
    const { calls, listener } = recorder();
    await ownership.start(listener);
    fake.join([0, 7]);
    await ownership.stop();
    expect(calls).toEqual(['assigned 0,7', 'revoked 0,7']);
    expect(fake.log[fake.log.length - 1]).toBe('disconnect');
    // events after stop do nothing
    fake.join([1]);
    await ownership.settled();
    expect(calls).toHaveLength(2);
  });

  /** A monotonic and a wall clock that the test moves (a pause moves both; a step only the wall). */
  const clocks = () => {
    const c = { mono: 5_000, wall: 1_700_000_000_000 };
    return {
      c,
      pass(ms: number) {
        c.mono += ms;
        c.wall += ms;
      },
      options: { now: () => c.mono, wallNow: () => c.wall },
    };
  };

  it('owns nothing once its lease lapses without an answered heartbeat; a heartbeat renews it', async () => {
    const clock = clocks();
    const { fake, ownership } = make({ leaseMs: 5_000, ...clock.options });
    await ownership.start(recorder().listener);
    fake.join([0, 1, 2, 3, 4, 5, 6, 7]);
    const bot = randomUUID();
    expect(ownership.owns(bot)).toBe(true);
    clock.pass(4_000);
    fake.heartbeat();
    clock.pass(4_000);
    expect(ownership.owns(bot)).toBe(true); // 4 s after the heartbeat
    clock.pass(1_001);
    expect(ownership.owns(bot)).toBe(false); // heartbeats stopped: lapsed before the 10 s session timeout
    fake.heartbeat();
    expect(ownership.owns(bot)).toBe(true);
  });

  it('a heartbeat answered after a pause longer than the session renews nothing: the lease runs from when it was sent', async () => {
    const clock = clocks();
    const { fake, ownership } = make({ leaseMs: 5_000, ...clock.options });
    await ownership.start(recorder().listener);
    fake.join([0, 1, 2, 3, 4, 5, 6, 7]);
    const bot = randomUUID();
    expect(ownership.owns(bot)).toBe(true);
    clock.pass(1_000);
    const sent = clock.c.wall; // a heartbeat goes out; the coordinator answers it at once…
    clock.pass(12_000); // …but the event loop stands still (SIGSTOP, GC) past the 10 s session timeout
    expect(ownership.owns(bot)).toBe(false);
    fake.heartbeat(sent); // the answer, buffered by the OS, is read on resume
    // the coordinator's session ran from (after) `sent`: it has expired, the partitions may be another's
    expect(ownership.owns(bot)).toBe(false);
    expect(ownership.leaseLeft).toBe(0);
    // a heartbeat sent now and answered renews it
    fake.heartbeat();
    expect(ownership.owns(bot)).toBe(true);
    expect(ownership.leaseLeft).toBe(5_000);
  });

  it('a heartbeat answered late renews only what is left from its send; a slow SyncGroup likewise', async () => {
    const clock = clocks();
    const { fake, ownership } = make({ leaseMs: 5_000, ...clock.options });
    await ownership.start(recorder().listener);
    const syncSent = clock.c.wall;
    clock.pass(3_000); // the SyncGroup's answer took 3 s
    fake.join([0, 1, 2, 3, 4, 5, 6, 7], OWNERSHIP_TOPIC, 'm-1', syncSent);
    expect(ownership.leaseLeft).toBe(2_000);
    const sent = clock.c.wall;
    clock.pass(1_500);
    fake.heartbeat(sent);
    expect(ownership.leaseLeft).toBe(3_500);
  });

  it('renews only on a heartbeat answered without error, and only from an answer read', async () => {
    const clock = clocks();
    const { fake, ownership } = make({ leaseMs: 5_000, ...clock.options });
    await ownership.start(recorder().listener);
    fake.join([0, 1, 2, 3, 4, 5, 6, 7]);
    const bot = randomUUID();
    clock.pass(4_000);
    fake.heartbeatEventOnly(); // a HEARTBEAT with no Heartbeat answer read before it: no send time, no renewal
    fake.heartbeatRefused(); // REBALANCE_IN_PROGRESS, UNKNOWN_MEMBER_ID…: kafkajs emits no HEARTBEAT
    clock.pass(1_000);
    expect(ownership.owns(bot)).toBe(false);
    fake.heartbeat();
    expect(ownership.owns(bot)).toBe(true);
  });

  it('a wall clock set back while a heartbeat is out renews nothing (its age is unknown); the next one does', async () => {
    const clock = clocks();
    const { fake, ownership } = make({ leaseMs: 5_000, ...clock.options });
    await ownership.start(recorder().listener);
    fake.join([0, 1, 2, 3, 4, 5, 6, 7]);
    const bot = randomUUID();
    const sent = clock.c.wall;
    clock.pass(12_000); // paused past the session…
    clock.c.wall -= 60_000; // …and the wall clock was stepped back a minute meanwhile
    fake.heartbeat(sent); // (sent − now) on the wall clock would say "sent in the future"
    expect(ownership.owns(bot)).toBe(false);
    clock.pass(1_000);
    fake.heartbeat();
    expect(ownership.owns(bot)).toBe(true);
  });

  it('a suspended machine (the monotonic clock stood still, the wall clock did not) lapses the lease', async () => {
    const clock = clocks();
    const { fake, ownership } = make({ leaseMs: 5_000, ...clock.options });
    await ownership.start(recorder().listener);
    fake.join([0, 1, 2, 3, 4, 5, 6, 7]);
    const bot = randomUUID();
    clock.c.wall += 30_000; // CLOCK_MONOTONIC does not count a suspend on Linux
    expect(ownership.owns(bot)).toBe(false);
  });

  it('refuses a lease that would not lapse before the coordinator can move the partitions', () => {
    expect(() => make({ leaseMs: 10_000 })).toThrow(RangeError); // = the 10 s session timeout
    expect(() => make({ leaseMs: 4_000, consumerConfig: { groupId: 'g', sessionTimeout: 10_000, rebalanceTimeout: 3_000 } })).toThrow(RangeError);
    expect(() => make({ leaseMs: 1_000 })).toThrow(RangeError); // not longer than the 1 s heartbeat interval
    expect(() => make({ consumerConfig: { groupId: 'g', sessionTimeout: 6_000, rebalanceTimeout: 6_000, heartbeatInterval: 500 } })).not.toThrow(); // 3 s
  });

  it('a re-join under a new member id (session expired, no REBALANCING from kafkajs) revokes everything before it assigns', async () => {
    const { fake, ownership } = make();
    const { calls, listener } = recorder();
    await ownership.start(listener);
    fake.join([1, 2], OWNERSHIP_TOPIC, 'member-1');
    fake.join([1, 2], OWNERSHIP_TOPIC, 'member-2');
    await ownership.settled();
    // the old code moved only the difference (nothing): the runner carried on with bots another member had run
    expect(calls).toEqual(['assigned 1,2', 'revoked 1,2', 'assigned 1,2']);
  });

  it('uses the partition count of the existing topic, from its metadata', async () => {
    const { ownership, errors } = make({ partitionCountOf: async () => 12 });
    await ownership.start(recorder().listener);
    expect(ownership.partitionCount).toBe(12);
    const id = randomUUID();
    expect(ownership.partitionOf(id)).toBe(kafkaPartitionOf(id, 12));
    expect(errors.map((e) => e.message)).toEqual([expect.stringMatching(/has 12 partitions, not 8/)]);
  });

  it('heartbeats between short fetches: the fetch wait is no longer than the heartbeat interval', async () => {
    const { fake, ownership } = make();
    await ownership.start(recorder().listener);
    expect(fake.config).toMatchObject({ heartbeatInterval: 1_000, maxWaitTimeInMs: 1_000, sessionTimeout: 10_000 });
  });

  it('a listener that throws does not stop the next callbacks', async () => {
    const { fake, ownership, errors } = make();
    const seen: string[] = [];
    await ownership.start({
      onAssigned: async (p) => {
        seen.push(`a${p}`);
        throw new Error('resume failed');
      },
      onRevoked: async (p) => void seen.push(`r${p}`),
    });
    fake.join([1]);
    fake.rebalance();
    await ownership.settled();
    expect(seen).toEqual(['a1', 'r1']);
    expect(errors.map((e) => e.message)).toEqual(['resume failed']);
  });
});

/** Kafka's murmur2 (clients/.../Utils.java), written out independently of kafkajs. */
function murmur2Reference(key: string): number {
  const data = Buffer.from(key);
  const m = 0x5bd1e995;
  let h = (0x9747b28c ^ data.length) | 0;
  const len4 = data.length >> 2;
  for (let i = 0; i < len4; i++) {
    let k = data.readInt32LE(i * 4);
    k = Math.imul(k, m);
    k ^= k >>> 24;
    k = Math.imul(k, m);
    h = Math.imul(h, m);
    h ^= k;
  }
  const rest = data.length & 3;
  const base = data.length & ~3;
  if (rest === 3) h ^= data[base + 2] << 16;
  if (rest >= 2) h ^= data[base + 1] << 8;
  if (rest >= 1) {
    h ^= data[base];
    h = Math.imul(h, m);
  }
  h ^= h >>> 13;
  h = Math.imul(h, m);
  h ^= h >>> 15;
  return h | 0;
}

// Against a real Kafka when KAFKA_BROKERS is set: two members of one group
// split the partitions without overlap, and the survivor takes all on a stop.
const brokers = (process.env.KAFKA_BROKERS ?? '').split(',').filter(Boolean);
(brokers.length ? describe : describe.skip)(`Kafka ownership on a broker (${brokers.length ? brokers.join(',') : `skipped: ${process.env.KAFKA_SKIP_REASON ?? 'KAFKA_BROKERS not set'}`})`, () => {
  jest.setTimeout(90_000);
  it('splits partitions between two runners, then hands all to the one left', async () => {
    const { createKafka } = await import('./kafka.client');
    const kafka = createKafka({ brokers });
    const topic = `test-${randomUUID().slice(0, 8)}.bot-ownership`;
    const groupId = `${topic}.group`;
    const a = new KafkaOwnership({ kafka, topic, groupId, partitions: 6 });
    const b = new KafkaOwnership({ kafka, topic, groupId, partitions: 6 });
    const wait = async (ok: () => boolean) => {
      for (let i = 0; i < 600 && !ok(); i++) await new Promise((r) => setTimeout(r, 100));
    };
    try {
      await a.start(recorder().listener);
      await wait(() => a.owned().length === 6);
      await b.start(recorder().listener);
      await wait(() => a.owned().length + b.owned().length === 6 && a.owned().length > 0 && b.owned().length > 0);
      expect([...a.owned(), ...b.owned()].sort()).toEqual([0, 1, 2, 3, 4, 5]);
      await b.stop();
      await wait(() => a.owned().length === 6);
      expect(a.owned()).toEqual([0, 1, 2, 3, 4, 5]);
    } finally {
      await a.stop();
      await b.stop();
      const admin = kafka.admin();
      await admin.connect();
      await admin.deleteTopics({ topics: [topic] }).catch(() => undefined);
      await admin.disconnect();
    }
  });
});
