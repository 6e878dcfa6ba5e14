import type { StreamMessage } from './stream-message';

/**
 * Where the forwarder sends events: Kafka in production, an in-process stream
 * (with a live tail for operators) in embedded mode. One contract suite
 * (event-sink.contract.ts) runs against every adapter.
 *
 * - `start(topics)` connects and creates the topics that do not exist yet.
 * - `publish(messages)` resolves only once every message is durably accepted
 *   (Kafka: acks from all in-sync replicas); it keeps the order of messages
 *   with the same key. On rejection the caller retries the whole batch
 *   (at-least-once: consumers de-duplicate by the `event-id` header).
 */
export interface EventSink {
  readonly kind: string;
  start(topics: string[]): Promise<void>;
  publish(messages: StreamMessage[]): Promise<void>;
  close(): Promise<void>;
  /**
   * Where the destination can lose its topics (a Kafka cluster that came back empty or was replaced): called
   * with the topics the sink had to create, at start or before a publish, so that the forwarder can say which
   * of the events it sent before are no longer there (`npm run republish`).
   */
  watchTopics?(listener: (created: string[]) => void): void;
}

export const EVENT_SINK = Symbol('EVENT_SINK');
