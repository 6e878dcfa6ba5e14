import { Partitioners } from 'kafkajs';
import type { Consumer, ConsumerConfig, Kafka, PartitionMetadata } from 'kafkajs';
import { BotOwnership, OwnershipListener, OwnershipState } from './ownership.port';
import { ensureTopics } from './kafka.client';

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
  onError?(err: Error): void;
  /** Seams for unit tests. */
  createConsumer?(config: ConsumerConfig): Consumer;
  ensureTopic?(topic: string, partitions: number): Promise<void>;
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
 */
export class KafkaOwnership implements BotOwnership {
  readonly kind = 'kafka';
  readonly partitionCount: number;
  readonly topic: string;
  private readonly state: OwnershipState;
  private consumer: Consumer | null = null;
  private listener: OwnershipListener | null = null;
  private readonly removers: (() => void)[] = [];

  constructor(private readonly options: KafkaOwnershipOptions) {
    this.partitionCount = options.partitions ?? 24;
    this.topic = options.topic ?? OWNERSHIP_TOPIC;
    this.state = new OwnershipState(options.onError);
  }

  partitionOf(botId: string): number {
    return kafkaPartitionOf(botId, this.partitionCount);
  }

  owns(botId: string): boolean {
    return this.state.has(this.partitionOf(botId));
  }

  owned(): number[] {
    return this.state.owned();
  }

  async start(listener: OwnershipListener): Promise<void> {
    if (this.consumer) throw new Error('Ownership already started');
    this.listener = listener;
    if (this.options.ensureTopic) await this.options.ensureTopic(this.topic, this.partitionCount);
    else await ensureTopics(this.options.kafka, [this.topic], this.partitionCount, this.options.replicationFactor ?? -1);
    const config: ConsumerConfig = {
      groupId: this.options.groupId ?? 'gridrocket-runners',
      sessionTimeout: 10_000,
      heartbeatInterval: 1_000,
      rebalanceTimeout: 20_000,
      allowAutoTopicCreation: false,
      ...this.options.consumerConfig,
    };
    const consumer = this.options.createConsumer ? this.options.createConsumer(config) : this.options.kafka.consumer(config);
    this.consumer = consumer;
    const { GROUP_JOIN, REBALANCING, CRASH, STOP } = consumer.events;
    this.removers.push(
      consumer.on(REBALANCING, () => {
        void this.state.moveTo([], this.listener);
      }),
      consumer.on(GROUP_JOIN, (event) => {
        const assignment = (event.payload.memberAssignment ?? {}) as Record<string, number[]>;
        void this.state.moveTo(assignment[this.topic] ?? [], this.listener);
      }),
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
    await this.state.moveTo([], this.listener);
    for (const remove of this.removers.splice(0)) remove();
    await this.consumer?.disconnect();
    this.consumer = null;
    this.listener = null;
  }
}

