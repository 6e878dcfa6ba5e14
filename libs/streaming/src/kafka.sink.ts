import { CompressionTypes, Kafka, KafkaJSNonRetriableError, KafkaJSProtocolError, Partitioners, Producer, RetryOptions } from 'kafkajs';
import type { EventSink } from './event-sink.port';
import { KafkaSettings, KafkaTimeouts, createKafka, ensureTopics } from './kafka.client';
import type { StreamMessage } from './stream-message';

/**
 * The broker's answers after which an idempotent producer cannot go on (kafkajs's vocabulary,
 * src/protocol/error.js; none is retriable): the broker lost or refused the producer's state
 * (UNKNOWN_PRODUCER_ID: its records expired or the log was wiped; OUT_OF_ORDER_SEQUENCE_NUMBER: the
 * sequence kafkajs holds no longer matches the broker's), or another producer took its epoch.
 * kafkajs never re-initialises the producer id itself (its eosManager calls InitProducerId only on
 * connect), so every retry on the same producer meets the same error: only a new producer recovers.
 */
export const FATAL_PRODUCER_ERRORS: readonly string[] = ['OUT_OF_ORDER_SEQUENCE_NUMBER', 'UNKNOWN_PRODUCER_ID', 'INVALID_PRODUCER_EPOCH', 'PRODUCER_FENCED'];

/** Whether `err` (or what it wraps: KafkaJSNonRetriableError, KafkaJSNumberOfRetriesExceeded) is a fatal producer error. */
export function isFatalProducerError(err: unknown): boolean {
  // the error itself, or the cause chain kafkajs's wrappers keep (KafkaJSNonRetriableError, KafkaJSNumberOfRetriesExceeded)
  let e = err as { name?: string; type?: unknown; cause?: unknown } | null | undefined;
  for (let depth = 0; e && typeof e === 'object' && depth < 5; depth++, e = e.cause as typeof e) {
    if ((e instanceof KafkaJSProtocolError || e.name === 'KafkaJSProtocolError') && FATAL_PRODUCER_ERRORS.includes(String(e.type))) return true;
    if (!(e instanceof KafkaJSNonRetriableError) && !(e instanceof KafkaJSProtocolError)) return false;
  }
  return false;
}

/** Whether `err` (or what it wraps) says the broker has no such topic or partition (UNKNOWN_TOPIC_OR_PARTITION). */
export function isMissingTopicError(err: unknown): boolean {
  let e = err as { type?: unknown; message?: unknown; cause?: unknown } | undefined;
  for (let depth = 0; e && typeof e === 'object' && depth < 6; depth++, e = e.cause as typeof e) {
    if (e.type === 'UNKNOWN_TOPIC_OR_PARTITION' || /does not host this topic-partition/i.test(String(e.message ?? ''))) return true;
  }
  return false;
}

/**
 * The producer's own retry of one publish, and the sink's client-wide retry (metadata, connections) under it:
 * short, so that each failed attempt reaches the forwarder as it happens (about 2 s while the broker refuses
 * connections), which counts it (gridrocket_forwarder_publish_failures_total) and tries the batch again with its
 * own back-off (200 ms doubling, at most 10 s), without limit. kafkajs nests the two retriers: with its client
 * default under the producer's 5 retries (issue 41), an outage's first failure surfaced after 24-33 s, or, with
 * a broker killed, not within 40 s (the client's 8 metadata retries alone wait up to 51 s before each of the
 * producer's). The idempotent producer needs at least one retry of its own (kafkajs refuses 0:
 * "Idempotent producer must allow retries to protect against transient errors").
 */
export const PUBLISH_RETRY: RetryOptions = { retries: 1, initialRetryTime: 300, maxRetryTime: 1_000 };
/**
 * The sink's client: the short client-wide retry, and requests that wait 10 s for an answer (kafkajs 30 s): a
 * broker that takes connections but does not answer (stopped, overloaded) fails an attempt at 10 s, so its first
 * failure is counted after about 20 s (two attempts), not 60 s; delivery is already reported stalled at 10 s
 * (the forwarder's stallAfterMs). A produce with acks=-1 answers in milliseconds on a healthy cluster.
 */
export const SINK_CLIENT: KafkaTimeouts = { retry: { retries: 2, initialRetryTime: 200, maxRetryTime: 1_000 }, requestTimeout: 10_000 };

export interface KafkaSinkOptions {
  /** The producer's retry of one publish (default PUBLISH_RETRY). */
  retry?: RetryOptions;
  /** Called when a fatal error made the sink drop its producer (the next publish makes a new one). */
  onProducerReset?(err: Error): void;
}

/**
 * The production event stream: Kafka through kafkajs. An idempotent producer
 * with one request in flight keeps each key's order across retries; a batch
 * resolves only once all in-sync replicas have it (acks = -1). The Java-compatible
 * murmur2 partitioner puts a stream's events on one partition, in order.
 *
 * Retries: a publish is retried by the producer a bounded number of times (PUBLISH_RETRY), then
 * fails (KafkaJSNumberOfRetriesExceeded) and the forwarder sends the whole batch again from its
 * checkpoint, later, on the same producer (its sequence numbers were rolled back, so the broker
 * de-duplicates what it already had). kafkajs warns that limiting an idempotent producer's retries
 * "may invalidate EoS guarantees": exactly-once within the producer is not what the stream promises
 * anyway (at-least-once, consumers de-duplicate by `event-id`); per-key order still holds because the
 * forwarder sends one batch at a time and resends from the checkpoint.
 *
 * A fatal producer error (isFatalProducerError) closes the producer; the next publish (the
 * forwarder's retry of the same batch) connects a new one, which gets a new producer id.
 */
export class KafkaSink implements EventSink {
  readonly kind = 'kafka';
  private readonly kafka: Kafka;
  private producer: Producer | null = null;
  private started = false;
  /** Producers dropped after a fatal error since start-up. */
  producerResets = 0;

  constructor(private readonly settings: KafkaSettings, kafka?: Kafka, private readonly options: KafkaSinkOptions = {}) {
    this.kafka = kafka ?? createKafka(settings, {}, SINK_CLIENT);
  }

  async start(topics: string[]): Promise<void> {
    this.topics = topics;
    await this.ensureTopics();
    this.started = true;
    await this.connectedProducer();
  }

  /** The topics the sink publishes to, and whether the broker had them at the last look. */
  private topics: string[] = [];
  private topicsThere = false;
  private topicsListener: ((created: string[]) => void) | null = null;

  watchTopics(listener: (created: string[]) => void): void {
    this.topicsListener = listener;
  }

  /** Creates the topics the cluster does not have (the documented partitions and replication) and says which. */
  private async ensureTopics(): Promise<void> {
    const created = await ensureTopics(this.kafka, this.topics, this.settings.partitions ?? 6, this.settings.replicationFactor ?? -1);
    this.topicsThere = true;
    if (created.length) this.topicsListener?.(created);
  }

  private async connectedProducer(): Promise<Producer> {
    if (this.producer) return this.producer;
    const producer = this.kafka.producer({
      idempotent: true,
      maxInFlightRequests: 1,
      allowAutoTopicCreation: false,
      createPartitioner: Partitioners.DefaultPartitioner,
      retry: this.options.retry ?? PUBLISH_RETRY,
    });
    try {
      await producer.connect(); // InitProducerId: a new producer id
    } catch (err) {
      await producer.disconnect().catch(() => undefined);
      throw err;
    }
    this.producer = producer;
    return producer;
  }

  async publish(messages: StreamMessage[]): Promise<void> {
    if (!this.started) throw new Error('The Kafka sink is not started');
    if (!messages.length) return;
    const byTopic = new Map<string, StreamMessage[]>();
    for (const m of messages) {
      const list = byTopic.get(m.topic) ?? [];
      list.push(m);
      byTopic.set(m.topic, list);
    }
    // a broker that came back empty, or a new cluster (issue 41: "This server does not host this
    // topic-partition" for ever): its topics are created again, with the documented partitions, first
    if (!this.topicsThere) await this.ensureTopics();
    const producer = await this.connectedProducer();
    try {
      await producer.sendBatch({
        acks: -1,
        compression: CompressionTypes.None,
        topicMessages: [...byTopic].map(([topic, list]) => ({
          topic,
          messages: list.map((m) => ({ key: m.key, value: m.value, headers: { ...m.headers } })),
        })),
      });
    } catch (err) {
      if (isMissingTopicError(err)) this.topicsThere = false;
      if (isFatalProducerError(err) && this.producer === producer) {
        // this producer cannot go on: drop it; the caller's retry connects a new one (new producer id)
        this.producer = null;
        this.producerResets++;
        await producer.disconnect().catch(() => undefined);
        this.options.onProducerReset?.(err as Error);
      }
      throw err;
    }
  }

  async close(): Promise<void> {
    this.started = false;
    const producer = this.producer;
    this.producer = null;
    await producer?.disconnect();
  }
}
