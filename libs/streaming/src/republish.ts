import type { EventStore, RecordedEvent } from '@gridrocket/event-store';
import type { EventSink } from './event-sink.port';
import { StreamMessage, TopicMap, allTopics, defaultTopicMap, toStreamMessage } from './stream-message';

/** The header a republished message carries beside the forwarder's own (event-id, event-type, correlation-id). */
export const REPUBLISHED_HEADER = 'republished';

export interface RepublishOptions {
  events: EventStore;
  /** Where to: a KafkaSink on the cluster to fill (started and closed by republish). */
  sink: EventSink;
  topics?: { routes: TopicMap; fallback: string };
  /** First position to send (inclusive; default the first event). */
  from?: bigint;
  /** Last position to send (inclusive; default the head when republish starts: what comes after is the forwarder's). */
  to?: bigint;
  batchSize?: number;
  /** Attempts at one batch before republish gives up (default 10; the batches before it stay sent). */
  maxAttempts?: number;
  retryDelay?(attempt: number): number;
  /** After each batch the sink acknowledged: events sent so far, and the position reached. */
  onProgress?(progress: RepublishProgress): void;
  onRetry?(err: Error, attempt: number): void;
}

export interface RepublishProgress {
  sent: number;
  position: bigint;
  from: bigint;
  to: bigint;
}

export interface RepublishResult {
  /** Events sent (each once, unless a batch had to be sent again after a failure). */
  sent: number;
  from: bigint;
  to: bigint;
  topics: string[];
}

/**
 * Sends the event log (or a range of its positions) to the sink again, in position order, as the forwarder
 * would have: the same topics, keys, values and headers (`event-id` above all), plus `republished: true`.
 * For a cluster that came back empty or was replaced (the forwarder goes on from its checkpoint and never
 * sends what it had sent before), and for a new consumer that needs history the topics' retention dropped.
 *
 * Idempotent for consumers that de-duplicate by `event-id` (the stream's promise is at-least-once): running it
 * twice, or over a range the topics still hold, doubles messages, never events. It reads the log a batch at a
 * time (memory stays one batch) and needs nothing of the running server: it can run beside it. Messages of one
 * stream keep their order within a run; against the forwarder's live messages sent meanwhile, a consumer that
 * needs a stream's order reads `revision` in the value (docs/streaming.md).
 */
export async function republish(options: RepublishOptions): Promise<RepublishResult> {
  const map = options.topics ?? defaultTopicMap();
  const batchSize = options.batchSize ?? 500;
  const maxAttempts = options.maxAttempts ?? 10;
  const from = options.from ?? 1n;
  const to = options.to ?? (await options.events.headPosition());
  const topics = allTopics(map);
  const result: RepublishResult = { sent: 0, from, to, topics };
  if (from < 1n || to < from) throw new RangeError(`Nothing to republish between positions ${from} and ${to}`);
  await options.sink.start(topics);
  try {
    let after = from - 1n; // readAll's fromPosition is exclusive
    while (after < to) {
      const page: RecordedEvent[] = (await options.events.readAll({ fromPosition: after, maxCount: batchSize })).filter((e) => e.position <= to);
      if (page.length === 0) break;
      const messages: StreamMessage[] = page.map((e) => {
        const m = toStreamMessage(e, map);
        return { ...m, headers: { ...m.headers, [REPUBLISHED_HEADER]: 'true' } };
      });
      for (let attempt = 1; ; attempt++) {
        try {
          await options.sink.publish(messages);
          break;
        } catch (err) {
          if (attempt >= maxAttempts) throw err;
          options.onRetry?.(err as Error, attempt);
          await new Promise((r) => setTimeout(r, options.retryDelay?.(attempt) ?? Math.min(10_000, 200 * 2 ** attempt)));
        }
      }
      after = page[page.length - 1].position;
      result.sent += page.length;
      options.onProgress?.({ sent: result.sent, position: after, from, to });
      if (page.length < batchSize) break;
    }
    return result;
  } finally {
    await options.sink.close();
  }
}
