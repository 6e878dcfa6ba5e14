import { Partitioners } from 'kafkajs';
import type { Consumer, ConsumerConfig, Kafka, PartitionMetadata } from 'kafkajs';
import { BotOwnership, OwnershipListener, OwnershipState } from './ownership.port';
import { ensureTopics } from './kafka.client';
import { Lease } from './lease';

export const OWNERSHIP_TOPIC = 'gridrocket.bot-ownership';

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
   * The local lease (ms), renewed by every answered heartbeat and join: owns() is false once it has
   * lapsed. Default: half the session timeout, so it lapses before the coordinator moves the partitions.
   */
  leaseMs?: number;
  onError?(err: Error): void;
  /** Seams for unit tests. */
  createConsumer?(config: ConsumerConfig): Consumer;
  ensureTopic?(topic: string, partitions: number): Promise<void>;
  /** How many partitions the topic really has (default: the broker's metadata). */
  partitionCountOf?(topic: string): Promise<number>;
  now?(): number;
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
 *   meanwhile another member may have had the partitions. Hence a local lease (renewed by each
 *   answered HEARTBEAT and each GROUP_JOIN, shorter than the session timeout): owns() is false once
 *   it lapsed; and a GROUP_JOIN under a new member id, or after the lease lapsed, revokes everything
 *   before it assigns, so the runner resumes its bots from the log instead of carrying on.
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

  constructor(private readonly options: KafkaOwnershipOptions) {
    this.partitions = options.partitions ?? 24;
    this.topic = options.topic ?? OWNERSHIP_TOPIC;
    this.state = new OwnershipState(options.onError);
    const session = options.consumerConfig?.sessionTimeout ?? 10_000;
    this.lease = new Lease(options.leaseMs ?? Math.floor(session / 2), options.now);
  }

  get partitionCount(): number {
    return this.partitions;
  }

  partitionOf(botId: string): number {
    return kafkaPartitionOf(botId, this.partitions);
  }

  /** Owned partition AND a lease that has not lapsed since the coordinator last answered. */
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
    const heartbeatInterval = this.options.consumerConfig?.heartbeatInterval ?? 1_000;
    const config: ConsumerConfig = {
      groupId: this.options.groupId ?? 'gridrocket-runners',
      sessionTimeout: 10_000,
      heartbeatInterval,
      rebalanceTimeout: 20_000,
      // kafkajs heartbeats between fetches: a fetch that waits 5 s (the default) delays them
      maxWaitTimeInMs: heartbeatInterval,
      allowAutoTopicCreation: false,
      ...this.options.consumerConfig,
    };
    const consumer = this.options.createConsumer ? this.options.createConsumer(config) : this.options.kafka.consumer(config);
    this.consumer = consumer;
    const { GROUP_JOIN, REBALANCING, CRASH, STOP, HEARTBEAT } = consumer.events;
    this.removers.push(
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
        this.lease.renew();
        void this.state.moveTo(assignment[this.topic] ?? [], this.listener);
      }),
      consumer.on(HEARTBEAT, () => this.lease.renew()),
      consumer.on(CRASH, (event) => {
        // the member is out of the group until kafkajs restarts it: own nothing meanwhile
        void this.state.moveTo([], this.listener);
        this.options.onError?.(event.payload.error);
      }),
      consumer.on(STOP, () => {
        void this.state.moveTo([], this.listener);
      }),
    );
    await consumer.connect();
    await consumer.subscribe({ topics: [this.topic], fromBeginning: false });
    await consumer.run({ autoCommit: true, eachMessage: async () => undefined });
  }

  /** Waits until the queued callbacks have run (tests). */
  settled(): Promise<void> {
    return this.state.settled();
  }

  async stop(): Promise<void> {
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
