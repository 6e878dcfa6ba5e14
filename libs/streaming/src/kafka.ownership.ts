import { Partitioners } from 'kafkajs';
import type { Consumer, ConsumerConfig, Kafka, PartitionMetadata } from 'kafkajs';
import { BotOwnership, OwnershipListener, OwnershipState } from './ownership.port';
import { ensureTopics } from './kafka.client';
import { performance } from 'node:perf_hooks';
import { Lease, type SentAt } from './lease';

export const OWNERSHIP_TOPIC = 'gridrocket.bot-ownership';
const SESSION_TIMEOUT = 10_000;
const REBALANCE_TIMEOUT = 20_000;
const HEARTBEAT_INTERVAL = 1_000;
/** After a crash kafkajs does not restart: a new consumer after 1 s, doubling to 30 s while joins fail. */
const REJOIN_BASE_MS = 1_000;
const REJOIN_MAX_MS = 30_000;

export interface KafkaOwnershipOptions {
  kafka: Kafka;
  /** Every runner of one deployment uses the same group. */
  groupId?: string;
  topic?: string;
  /** Partitions of the ownership topic = how many slices bots are cut into (the most runners that help). */
  partitions?: number;
  replicationFactor?: number;
  consumerConfig?: Partial<ConsumerConfig>;
  /**
   * The local lease (ms), counted from when the last confirmed Heartbeat or SyncGroup request was
   * SENT: owns() is false once it has lapsed. It must be shorter than the session timeout and the
   * rebalance timeout (either lets the coordinator move the partitions of a silent member) and longer
   * than the heartbeat interval. Default: half the shorter of the two timeouts.
   */
  leaseMs?: number;
  onError?(err: Error): void;
  /** Seams for unit tests. */
  createConsumer?(config: ConsumerConfig): Consumer;
  ensureTopic?(topic: string, partitions: number): Promise<void>;
  /** How many partitions the topic really has (default: the broker's metadata). */
  partitionCountOf?(topic: string): Promise<number>;
  /** The monotonic clock, ms (default performance.now). */
  now?(): number;
  /** The wall clock, ms (default Date.now): kafkajs stamps its requests with it. */
  wallNow?(): number;
}

/** The requests whose error-free answer confirms this member's session: what renews the lease. */
const CONFIRMING = new Set(['Heartbeat', 'SyncGroup']);
/**
 * How far the wall clock may fall back against the monotonic clock between two confirming requests
 * before a request's age (read on the wall clock) is not trusted. Both clocks are slewed alike by NTP;
 * only a step moves one against the other. What a smaller, undetected step can add to the lease is
 * this much, against a margin of half the session timeout.
 */
const CLOCK_STEP_TOLERANCE_MS = 100;

/** The part of kafkajs's consumer.network.request event that is read here (socketRequest.js). */
interface RequestPayload {
  apiName: string;
  /** Date.now() when kafkajs created the request, before it was written to the socket. */
  createdAt: number;
}

const defaultPartitioner = Partitioners.DefaultPartitioner();

/**
 * The bot's partition, as Kafka's own (Java-compatible murmur2) partitioner
 * would place a message keyed by the bot's stream id: `bot-<id>`.
 */
export function kafkaPartitionOf(botId: string, partitionCount: number): number {
  const partitionMetadata: PartitionMetadata[] = Array.from({ length: partitionCount }, (_, i) => ({
    partitionId: i,
    leader: 0,
    partitionErrorCode: 0,
    replicas: [0],
    isr: [0],
  }));
  return defaultPartitioner({ topic: OWNERSHIP_TOPIC, partitionMetadata, message: { key: `bot-${botId}`, value: null } });
}

/**
 * Ownership through a Kafka consumer group. Every runner joins the group on
 * the ownership topic (which carries no messages: it only holds partitions);
 * Kafka's group coordinator assigns each partition to exactly one live member,
 * and moves partitions when a runner joins, leaves or stops heart-beating.
 *
 * kafkajs uses the eager rebalance protocol: when a rebalance begins every
 * member gives up all of its partitions, rejoins, and receives its new set.
 * So on REBALANCING this adapter revokes everything at once (owns() turns
 * false synchronously, before the rejoin request is even sent), and on
 * GROUP_JOIN it assigns the new set. A partition is therefore never owned by
 * two live members of one generation.
 *
 * What the eager protocol does not cover (issue 12):
 * - kafkajs re-joins after an expired session (UNKNOWN_MEMBER_ID) WITHOUT emitting REBALANCING, so
 *   meanwhile another member may have had the partitions. Hence a local lease (lease.ts), shorter
 *   than the session timeout: owns() is false once it lapsed; and a GROUP_JOIN under a new member id,
 *   or after the lease lapsed, revokes everything before it assigns, so the runner resumes its bots
 *   from the log instead of carrying on.
 * - The lease runs from when the confirming request was SENT, on the monotonic clock, not from when
 *   its answer was handled: a heartbeat answered just before the event loop stopped (SIGSTOP, a long
 *   GC, a blocked loop) and read after it resumed would otherwise renew the lease from "now", although
 *   the coordinator may have expired the session and handed the partitions on meanwhile. kafkajs's
 *   HEARTBEAT and GROUP_JOIN events carry no send time; its consumer.network.request event does (it is
 *   emitted synchronously when the answer is read, just before the awaiting code resumes, so it comes
 *   right before the HEARTBEAT / GROUP_JOIN it confirms). Its `createdAt` is Date.now() taken before
 *   the request is written to the socket (`sentAt` is taken after the write: a pause between the two
 *   would be missed), so the send time on the monotonic clock is now − (Date.now() − createdAt). The
 *   Heartbeat's send renews on HEARTBEAT (emitted only for an answer without error), the SyncGroup's
 *   on GROUP_JOIN (the coordinator restarts the session when it gets the SyncGroup). A wall-clock step
 *   backwards between two such requests would make a request look younger than it is: that answer
 *   then renews nothing (the next heartbeat does).
 * - heartbeats only go out between fetches: the fetch wait is kept short (maxWaitTimeInMs ≤ the
 *   heartbeat interval) so that they go out every heartbeat interval.
 * - kafkajs does not wait for onRevoked before the group moves on: an exchange call in flight may
 *   overlap the new owner's resume. The epoch fence (fenced.ownership.ts) refuses the deposed
 *   runner's appends, and its next exchange call fails owns().
 * - the partition count is read from the topic's metadata (an existing topic keeps its own count).
 */
export class KafkaOwnership implements BotOwnership {
  readonly kind = 'kafka';
  private partitions: number;
  readonly topic: string;
  private readonly state: OwnershipState;
  private consumer: Consumer | null = null;
  private listener: OwnershipListener | null = null;
  private readonly removers: (() => void)[] = [];
  private lease: Lease;
  private memberId: string | null = null;
  private readonly now: () => number;
  private readonly wallNow: () => number;
  /** The send time of the latest Heartbeat / SyncGroup whose answer was read, until its event uses it. */
  private readonly sent = new Map<string, SentAt | null>();
  /** Wall − monotonic at the latest Heartbeat / SyncGroup answer (or at start): a step detector. */
  private readonly clockOffset = new Map<string, number>();
  private startOffset = 0;

  constructor(private readonly options: KafkaOwnershipOptions) {
    this.partitions = options.partitions ?? 24;
    this.topic = options.topic ?? OWNERSHIP_TOPIC;
    this.state = new OwnershipState(options.onError);
    // the coordinator moves a silent member's partitions when its session expires, or when a rebalance
    // it does not rejoin times out: the lease must lapse well before either (a RangeError otherwise)
    const session = options.consumerConfig?.sessionTimeout ?? SESSION_TIMEOUT;
    const rebalance = options.consumerConfig?.rebalanceTimeout ?? REBALANCE_TIMEOUT;
    const heartbeat = options.consumerConfig?.heartbeatInterval ?? HEARTBEAT_INTERVAL;
    const bound = Math.min(session, rebalance);
    const leaseMs = options.leaseMs ?? Math.floor(bound / 2);
    if (!(leaseMs < bound) || !(leaseMs > heartbeat)) {
      throw new RangeError(`leaseMs ${leaseMs} must be shorter than the session and rebalance timeouts (${bound}) and longer than the heartbeat interval (${heartbeat})`);
    }
    this.now = options.now ?? (() => performance.now());
    this.wallNow = options.wallNow ?? Date.now;
    this.lease = new Lease(leaseMs, this.now, this.wallNow);
  }

  get partitionCount(): number {
    return this.partitions;
  }

  partitionOf(botId: string): number {
    return kafkaPartitionOf(botId, this.partitions);
  }

  /** Owned partition AND a lease that has not lapsed since the last confirmed request was sent. */
  owns(botId: string): boolean {
    return this.lease.valid && this.state.has(this.partitionOf(botId));
  }

  /** Ms left on the local lease (health). */
  get leaseLeft(): number {
    return this.lease.left;
  }

  owned(): number[] {
    return this.state.owned();
  }

  async start(listener: OwnershipListener): Promise<void> {
    if (this.consumer) throw new Error('Ownership already started');
    this.listener = listener;
    if (this.options.ensureTopic) await this.options.ensureTopic(this.topic, this.partitions);
    else await ensureTopics(this.options.kafka, [this.topic], this.partitions, this.options.replicationFactor ?? -1);
    // An existing topic keeps the partition count it was created with: bots are spread over that one.
    const real = await (this.options.partitionCountOf ?? ((t) => topicPartitionCount(this.options.kafka, t)))(this.topic);
    if (real > 0 && real !== this.partitions) {
      this.options.onError?.(new Error(`The ownership topic ${this.topic} has ${real} partitions, not ${this.partitions}: using ${real}`));
      this.partitions = real;
    }
    await this.join();
  }

  /** The consumer that takes part in the group (a new one after a crash kafkajs does not restart). */
  private async join(): Promise<void> {
    const heartbeatInterval = this.options.consumerConfig?.heartbeatInterval ?? HEARTBEAT_INTERVAL;
    const config: ConsumerConfig = {
      groupId: this.options.groupId ?? 'gridrocket-runners',
      sessionTimeout: SESSION_TIMEOUT,
      heartbeatInterval,
      rebalanceTimeout: REBALANCE_TIMEOUT,
      // kafkajs heartbeats between fetches: a fetch that waits 5 s (the default) delays them
      maxWaitTimeInMs: heartbeatInterval,
      allowAutoTopicCreation: false,
      ...this.options.consumerConfig,
    };
    const consumer = this.options.createConsumer ? this.options.createConsumer(config) : this.options.kafka.consumer(config);
    this.consumer = consumer;
    const { GROUP_JOIN, REBALANCING, CRASH, STOP, HEARTBEAT, REQUEST } = consumer.events;
    this.startOffset = this.wallNow() - this.now();
    this.removers.push(
      consumer.on(REQUEST, (event) => this.answered(event.payload)),
      consumer.on(REBALANCING, () => {
        void this.state.moveTo([], this.listener);
      }),
      consumer.on(GROUP_JOIN, (event) => {
        const assignment = (event.payload.memberAssignment ?? {}) as Record<string, number[]>;
        const memberId = (event.payload as { memberId?: string }).memberId ?? null;
        // A join under a new member id (the session expired: kafkajs re-joins without REBALANCING),
        // or after the lease lapsed: someone else may have run these partitions meanwhile. Let
        // everything go first, so that what is assigned again is resumed from the log.
        const rejoined = (this.memberId !== null && memberId !== this.memberId) || (!this.lease.valid && this.state.owned().length > 0);
        this.memberId = memberId;
        if (rejoined) void this.state.moveTo([], this.listener);
        this.confirmed('SyncGroup');
        void this.state.moveTo(assignment[this.topic] ?? [], this.listener);
      }),
      consumer.on(HEARTBEAT, () => this.confirmed('Heartbeat')),
      consumer.on(CRASH, (event) => {
        // the member is out of the group until kafkajs restarts it: own nothing meanwhile
        void this.state.moveTo([], this.listener);
        this.options.onError?.(event.payload.error);
        // kafkajs restarts a crashed consumer only after a retriable error (consumer/index.js: `restart`
        // in the CRASH payload); after another (e.g. KafkaJSNonRetriableError "Failed to find group
        // coordinator" while a broker restarts) the consumer is dead: join again with a new one.
        if ((event.payload as { restart?: boolean }).restart === false) this.scheduleRejoin(consumer);
      }),
      consumer.on(STOP, () => {
        void this.state.moveTo([], this.listener);
      }),
    );
    await consumer.connect();
    await consumer.subscribe({ topics: [this.topic], fromBeginning: false });
    await consumer.run({ autoCommit: true, eachMessage: async () => undefined });
  }

  private rejoinTimer: NodeJS.Timeout | null = null;
  private rejoins = 0;

  /** A new consumer for the dead one, after a back-off (1 s doubling to 30 s while joins keep failing). */
  private scheduleRejoin(dead: Consumer): void {
    if (this.rejoinTimer || this.consumer !== dead || !this.listener) return;
    const delay = Math.min(REJOIN_MAX_MS, REJOIN_BASE_MS * 2 ** Math.min(this.rejoins, 10));
    this.rejoins++;
    this.rejoinTimer = setTimeout(() => {
      this.rejoinTimer = null;
      if (this.consumer !== dead || !this.listener) return; // stopped meanwhile
      void (async () => {
        for (const remove of this.removers.splice(0)) remove();
        this.consumer = null;
        await dead.disconnect().catch(() => undefined);
        if (!this.listener) return;
        try {
          await this.join();
          this.rejoins = 0;
        } catch (err) {
          this.options.onError?.(err as Error);
          const failed = this.consumer;
          if (failed) {
            this.consumer = failed;
            this.scheduleRejoin(failed);
          }
        }
      })();
    }, delay);
    this.rejoinTimer.unref?.();
  }

  /**
   * An answer to one of our requests was read (kafkajs emits this before the code awaiting it resumes):
   * for a Heartbeat or SyncGroup, keep when it was sent, for the HEARTBEAT / GROUP_JOIN that follows
   * if the answer carried no error.
   */
  private answered(request: RequestPayload): void {
    if (!CONFIRMING.has(request.apiName)) return;
    const now = this.now();
    const wall = this.wallNow();
    const offset = wall - now;
    const before = this.clockOffset.get(request.apiName) ?? this.startOffset;
    this.clockOffset.set(request.apiName, offset);
    if (offset < before - CLOCK_STEP_TOLERANCE_MS) {
      // the wall clock went back since the previous such request (which came before this one was
      // created): this request's age is unknown, its answer renews nothing
      this.sent.set(request.apiName, null);
      return;
    }
    const age = Math.max(0, wall - request.createdAt);
    this.sent.set(request.apiName, { mono: now - age, wall: request.createdAt });
  }

  /** The coordinator confirmed the request of this api: the lease runs from when that was sent. */
  private confirmed(apiName: string): void {
    const sent = this.sent.get(apiName);
    this.sent.set(apiName, null);
    if (sent) this.lease.renewFrom(sent);
  }

  /** Waits until the queued callbacks have run (tests). */
  settled(): Promise<void> {
    return this.state.settled();
  }

  async stop(): Promise<void> {
    if (this.rejoinTimer) clearTimeout(this.rejoinTimer);
    this.rejoinTimer = null;
    this.lease.revoke();
    await this.state.moveTo([], this.listener);
    for (const remove of this.removers.splice(0)) remove();
    await this.consumer?.disconnect();
    this.consumer = null;
    this.listener = null;
  }
}


/** The partition count of an existing topic, from the broker's metadata (0 when unknown). */
async function topicPartitionCount(kafka: Kafka, topic: string): Promise<number> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    const { topics } = await admin.fetchTopicMetadata({ topics: [topic] });
    return topics.find((t) => t.name === topic)?.partitions.length ?? 0;
  } finally {
    await admin.disconnect();
  }
}
