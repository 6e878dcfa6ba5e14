import { CompressionTypes, Kafka, Partitioners, Producer } from 'kafkajs';
import type { EventSink } from './event-sink.port';
import { KafkaSettings, createKafka, ensureTopics } from './kafka.client';
import type { StreamMessage } from './stream-message';

/**
 * The production event stream: Kafka through kafkajs. An idempotent producer
 * with one request in flight keeps each key's order across retries; a batch
 * resolves only once all in-sync replicas have it (acks = -1). The Java-compatible
 * murmur2 partitioner puts a stream's events on one partition, in order.
 *
 * Retries: the idempotent producer's guarantees hold only with unlimited retries (kafkajs warns
 * "Limiting retries for the idempotent producer may invalidate EoS guarantees" otherwise, and the
 * client-wide retry of createKafka is limited), so the producer gets its own, unlimited, retry.
 * A publish therefore waits for the broker rather than failing; the forwarder's stop() bounds the
 * wait and closing the producer ends it.
 */
export class KafkaSink implements EventSink {
  readonly kind = 'kafka';
  private readonly kafka: Kafka;
  private producer: Producer | null = null;

  constructor(private readonly settings: KafkaSettings, kafka?: Kafka) {
    this.kafka = kafka ?? createKafka(settings);
  }

  async start(topics: string[]): Promise<void> {
    await ensureTopics(this.kafka, topics, this.settings.partitions ?? 6, this.settings.replicationFactor ?? -1);
    this.producer = this.kafka.producer({
      idempotent: true,
      maxInFlightRequests: 1,
      allowAutoTopicCreation: false,
      createPartitioner: Partitioners.DefaultPartitioner,
      retry: { retries: Number.MAX_SAFE_INTEGER, initialRetryTime: 200, maxRetryTime: 30_000 },
    });
    await this.producer.connect();
  }

  async publish(messages: StreamMessage[]): Promise<void> {
    if (!this.producer) throw new Error('The Kafka sink is not started');
    if (!messages.length) return;
    const byTopic = new Map<string, StreamMessage[]>();
    for (const m of messages) {
      const list = byTopic.get(m.topic) ?? [];
      list.push(m);
      byTopic.set(m.topic, list);
    }
    await this.producer.sendBatch({
      acks: -1,
      compression: CompressionTypes.None,
      topicMessages: [...byTopic].map(([topic, list]) => ({
        topic,
        messages: list.map((m) => ({ key: m.key, value: m.value, headers: { ...m.headers } })),
      })),
    });
  }

  async close(): Promise<void> {
    await this.producer?.disconnect();
    this.producer = null;
  }
}
