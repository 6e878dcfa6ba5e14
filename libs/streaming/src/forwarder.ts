import { EventEmitter } from 'node:events';
import type { EventStore, RecordedEvent, Subscription } from '@gridrocket/event-store';
import { resubscribing } from '@gridrocket/event-store';
import type { ConsumerStatus, ReadStore, ReportsStatus } from '@gridrocket/read-store';
import { ConsumerHealth } from '@gridrocket/read-store';
import type { EventSink } from './event-sink.port';
import { StreamMessage, TopicMap, allTopics, defaultTopicMap, toStreamMessage } from './stream-message';

export interface ForwarderOptions {
  events: EventStore;
  reads: ReadStore;
  sink: EventSink;
  /** Checkpoint name; one per destination, so a new destination starts from the beginning. */
  name?: string;
  topics?: { routes: TopicMap; fallback: string };
  /** Where to begin when there is no checkpoint yet (default: the first event). */
  startAt?: 'start' | 'end';
  batchSize?: number;
  /** How long stop() waits for the batch in hand to be published (ms, default 10 s); after that it is resent on the next start. */
  drainTimeoutMs?: number;
  /** Back-off between attempts to publish a batch (ms), by attempt number. */
  retryDelay?: (attempt: number) => number;
  onError?(err: Error, attempt: number): void;
  /** After a batch is published and checkpointed (metrics). */
  onPublished?(messages: StreamMessage[], events: RecordedEvent[]): void;
}

export interface ForwarderLag {
  /** Position of the last event published and checkpointed. */
  position: bigint;
  /** Position of the newest event in the store. */
  head: bigint;
  /** head − position (events on the embedded store; log positions on KurrentDB). */
  behind: bigint;
  /** Time from the store's write to Kafka's ack, for the last batch. */
  lastLatencyMs: number | null;
}

/** Thrown inside the retry loop when the forwarder is stopping. */
class Stopping extends Error {}

/**
 * Publishes every event of the store to the sink, in position order, from its
 * own checkpoint. A batch is checkpointed only after the sink acknowledged it,
 * and a batch the sink refuses is retried (with back-off) until it goes
 * through: after a crash the forwarder resends from the checkpoint, so every
 * event is published at least once and none is skipped. Consumers
 * de-duplicate by the `event-id` header.
 *
 * (Not `startReactor`: it handles one event per round trip and moves its
 * checkpoint past a handler's failure, which for a forwarder would skip events.
 * The checkpoint lives where `startReactor` keeps its own, in the read store.)
 */
export class Forwarder implements ReportsStatus {
  readonly name: string;
  private readonly map: { routes: TopicMap; fallback: string };
  private readonly batchSize: number;
  private readonly emitter = new EventEmitter();
  private subscription: Subscription | null = null;
  private loop: Promise<void> | null = null;
  private buffer: RecordedEvent[] = [];
  private flushing: Promise<void> = Promise.resolve();
  private flushScheduled = false;
  private draining = false;
  private stopped = true;
  readonly consumer: ConsumerHealth;
  private checkpoint = 0n;
  private lastLatencyMs: number | null = null;
  private wakeRetry: (() => void) | null = null;

  constructor(private readonly options: ForwarderOptions) {
    this.name = options.name ?? `forwarder-${options.sink.kind}`;
    this.map = options.topics ?? defaultTopicMap();
    this.batchSize = options.batchSize ?? 500;
    this.emitter.setMaxListeners(0);
    this.consumer = new ConsumerHealth(this.name, 'forwarder');
  }

  get topics(): string[] {
    return allTopics(this.map);
  }

  get position(): bigint {
    return this.checkpoint;
  }

  private get checkpointCollection(): string {
    return `reactor_${this.name.replace(/[^a-z0-9_]/g, '_')}`;
  }

  /** Connects the sink, creates its topics, and forwards from the checkpoint, then live. */
  async start(): Promise<void> {
    if (!this.stopped) throw new Error('The forwarder is already running');
    const { events, reads, sink } = this.options;
    await sink.start(this.topics);
    const saved = await reads.getCheckpoint(this.name);
    this.checkpoint = saved ?? (this.options.startAt === 'end' ? await events.headPosition() : 0n);
    this.stopped = false;
    this.draining = false;
    this.consumer.running = true;
    // resumed after a drop from the last event received, with back-off
    const sub = resubscribing(events, {
      fromPosition: this.checkpoint,
      onDrop: (err, attempt) => {
        this.consumer.failed(err);
        this.options.onError?.(new Error(`subscription dropped, resubscribing: ${err.message}`), attempt);
      },
      onResume: () => this.consumer.recovered(),
    });
    this.subscription = sub;
    this.loop = (async () => {
      try {
        for await (const event of sub) {
          this.buffer.push(event);
          if (this.buffer.length >= this.batchSize) await this.flush();
          else this.scheduleFlush();
        }
      } catch (err) {
        if (!this.draining) {
          this.consumer.failed(err as Error);
          this.options.onError?.(err as Error, 0);
        }
      }
    })();
  }

  private scheduleFlush() {
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    setImmediate(() => {
      this.flushScheduled = false;
      this.flush().catch(() => undefined);
    });
  }

  private flush(): Promise<void> {
    this.flushing = this.flushing
      .catch(() => undefined)
      .then(async () => {
        if (this.buffer.length === 0) return;
        const batch = this.buffer;
        this.buffer = [];
        try {
          await this.publishWithRetry(batch);
        } catch (err) {
          // Stopping: the batch is not checkpointed, so it is sent again after the restart.
          this.buffer = batch.concat(this.buffer);
          throw err;
        }
      });
    return this.flushing;
  }

  private async publishWithRetry(batch: RecordedEvent[]): Promise<void> {
    const messages = batch.map((e) => toStreamMessage(e, this.map));
    const last = batch[batch.length - 1].position;
    // Two steps, each retried on its own: a checkpoint write that fails does not send the batch again.
    let published = false;
    for (let attempt = 1; ; attempt++) {
      try {
        if (!published) {
          await this.options.sink.publish(messages);
          published = true;
        }
        await this.options.reads.commit(this.checkpointCollection, [], { name: this.name, position: last });
        break;
      } catch (err) {
        this.consumer.failed(err as Error);
        this.options.onError?.(err as Error, attempt);
        if (this.draining && attempt >= 3) throw new Stopping('stopping');
        const delay = this.options.retryDelay?.(attempt) ?? Math.min(30_000, 100 * 2 ** Math.min(attempt, 9));
        await new Promise<void>((resolve) => {
          const timer = setTimeout(done, delay);
          const self = this;
          function done() {
            clearTimeout(timer);
            if (self.wakeRetry === done) self.wakeRetry = null;
            resolve();
          }
          this.wakeRetry = done;
        });
      }
    }
    this.checkpoint = last;
    this.consumer.recovered();
    const now = Date.now();
    const created = Date.parse(batch[batch.length - 1].created);
    this.lastLatencyMs = Number.isFinite(created) ? Math.max(0, now - created) : null;
    this.options.onPublished?.(messages, batch);
    this.emitter.emit('progress', last);
  }

  /** Resolves once everything up to `position` is published (false after `timeoutMs`). */
  waitFor(position: bigint, timeoutMs = 5000): Promise<boolean> {
    if (this.checkpoint >= position) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.emitter.off('progress', check);
        resolve(false);
      }, timeoutMs);
      const check = () => {
        if (this.checkpoint < position) return;
        clearTimeout(timer);
        this.emitter.off('progress', check);
        resolve(true);
      };
      this.emitter.on('progress', check);
    });
  }

  /** Called after every checkpointed batch. */
  onProgress(listener: (position: bigint) => void): () => void {
    this.emitter.on('progress', listener);
    return () => this.emitter.off('progress', listener);
  }

  async lag(): Promise<ForwarderLag> {
    const head = await this.options.events.headPosition();
    return { position: this.checkpoint, head, behind: head > this.checkpoint ? head - this.checkpoint : 0n, lastLatencyMs: this.lastLatencyMs };
  }

  health(): { running: boolean; position: bigint; failed: string | null } {
    return { running: !this.stopped, position: this.checkpoint, failed: this.consumer.retries > 0 ? this.consumer.lastError : null };
  }

  async status(): Promise<ConsumerStatus> {
    return this.consumer.snapshot(this.checkpoint, await this.options.events.headPosition());
  }

  /** Stops taking events, publishes what it holds (a few attempts), then closes the sink. */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.draining = true;
    this.wakeRetry?.();
    await this.subscription?.close();
    await this.loop;
    const drained = this.flush().catch(() => undefined); // not checkpointed: resent after the restart
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<void>((r) => (timer = setTimeout(r, this.options.drainTimeoutMs ?? 10_000)));
    await Promise.race([drained, timedOut]);
    clearTimeout(timer);
    this.subscription = null;
    this.loop = null;
    this.buffer = [];
    this.stopped = true;
    this.consumer.running = false;
    await this.options.sink.close();
  }
}
