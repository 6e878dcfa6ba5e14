import { EventEmitter } from 'node:events';
import type { EventStore, RecordedEvent, Subscription } from '@gridrocket/event-store';
import { resubscribing } from '@gridrocket/event-store';
import type { ConsumerStatus, ReadStore, ReportsStatus } from '@gridrocket/read-store';
import { ConsumerHealth, Sleeper } from '@gridrocket/read-store';
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
  /** Back-off between attempts to publish a batch (ms), by attempt number (default 200 ms doubling, at most 2 s). */
  retryDelay?: (attempt: number) => number;
  onError?(err: Error, attempt: number): void;
  /** A publish or checkpoint write of a batch failed (it is retried): metrics. */
  onPublishFailed?(err: Error, attempt: number): void;
  /** A publish in flight longer than this (ms, default 10 s) counts as not delivering (health, metrics). */
  stallAfterMs?: number;
  /** After a batch is published and checkpointed (metrics). */
  onPublished?(messages: StreamMessage[], events: RecordedEvent[]): void;
  /**
   * The sink had to create topics that should have been there (a Kafka cluster that came back empty or was
   * replaced): the events up to `gap.upTo`, sent before, are not on them (logs, metrics; `npm run republish`).
   */
  onHistoryMissing?(gap: MissingHistory): void;
}

/** Topics the sink created again while the forwarder had already sent events to them. */
export interface MissingHistory {
  /** When the sink found them missing (ISO). */
  at: string;
  topics: string[];
  /** The forwarder's checkpoint then: the events up to it were sent before and are not on the new topics. */
  upTo: string;
  /** The operator's command that sends them again. */
  republish: string;
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

/**
 * Whether the forwarder gets events out (GET /api/health's `forwarder`, the gridrocket_forwarder_* gauges).
 * - `live`: nothing failing; `catching-up`: publishing, behind the head;
 * - `retrying`: the batch in hand was refused (it is retried with back-off) or its publish has hung
 *   longer than `stallAfterMs`: events are not getting out;
 * - `stopped`.
 */
export type DeliveryState = 'live' | 'catching-up' | 'retrying' | 'stopped';

export interface ForwarderDelivery {
  state: DeliveryState;
  /** False while publishes fail or hang (state `retrying`) and when stopped. */
  delivering: boolean;
  /** When the sink last acknowledged a batch (ISO), null before the first. */
  lastDeliveryAt: string | null;
  /** Seconds since then (since start-up before the first). */
  secondsSinceLastDelivery: number | null;
  /** How long the batch in hand has been waiting for the sink (seconds; 0 when there is none). */
  undeliveredSeconds: number;
  /** Attempts at the batch in hand that failed in a row. */
  failedAttempts: number;
  lastError: string | null;
  lastErrorAt: string | null;
  /** Events held in memory (the batch in hand and those read after it): at most the batch size. */
  buffered: number;
  /** The most ever held since start-up. */
  bufferedMax: number;
  batchSize: number;
  /** The last time the sink created its topics again after events had been sent to them (null: never, since start-up). */
  missingHistory: MissingHistory | null;
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
  /** The wait between publish attempts; stop() ends it at once. */
  private readonly retryWait = new Sleeper();
  /** The batch being published (with `buffer`, what the forwarder holds). */
  private inHand: RecordedEvent[] | null = null;
  private bufferedMax = 0;
  private readonly stallAfterMs: number;
  private startedAt = 0;
  private lastDeliveryAt: number | null = null;
  /** When the batch in hand was taken (null when none). */
  private pendingSince: number | null = null;
  private missingHistory: MissingHistory | null = null;

  constructor(private readonly options: ForwarderOptions) {
    this.name = options.name ?? `forwarder-${options.sink.kind}`;
    this.map = options.topics ?? defaultTopicMap();
    this.batchSize = options.batchSize ?? 500;
    this.emitter.setMaxListeners(0);
    this.consumer = new ConsumerHealth(this.name, 'forwarder');
    this.stallAfterMs = options.stallAfterMs ?? 10_000;
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
    const saved = await reads.getCheckpoint(this.name);
    this.checkpoint = saved ?? (this.options.startAt === 'end' ? await events.headPosition() : 0n);
    // the checkpoint first: topics the sink has to create at start, with events sent before, are a lost history too
    sink.watchTopics?.((created) => this.topicsCreated(created));
    await sink.start(this.topics);
    this.stopped = false;
    this.draining = false;
    this.consumer.running = true;
    this.startedAt = Date.now();
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
          const held = this.buffered;
          if (held > this.bufferedMax) this.bufferedMax = held;
          // at most one batch in memory: while the sink is slow or away, stop reading the log
          if (held >= this.batchSize) await this.flush();
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

  /** The sink created topics: when the forwarder had sent events before, those are not on them any more. */
  private topicsCreated(created: string[]): void {
    if (this.checkpoint === 0n) return; // nothing was sent before: a first start
    const gap: MissingHistory = {
      at: new Date().toISOString(),
      topics: created,
      upTo: String(this.checkpoint),
      republish: `npm run republish -- --to ${this.checkpoint}`,
    };
    this.missingHistory = gap;
    this.options.onHistoryMissing?.(gap);
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
        this.inHand = batch;
        this.pendingSince = Date.now();
        try {
          await this.publishWithRetry(batch);
        } catch (err) {
          // Stopping: the batch is not checkpointed, so it is sent again after the restart.
          this.buffer = batch.concat(this.buffer);
          throw err;
        } finally {
          this.inHand = null;
          this.pendingSince = null;
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
        this.options.onPublishFailed?.(err as Error, attempt);
        if (this.draining && attempt >= 3) throw new Stopping('stopping');
        // at most 2 s between attempts (10 s before): after an outage the broker is found again within about one
        // attempt and this wait (issue 41: the outage's events within 10 s of its return); each attempt against a
        // broker that refuses connections costs ~1.6 s of kafkajs's own retries (kafka.sink.ts SINK_CLIENT)
        const delay = this.options.retryDelay?.(attempt) ?? Math.min(2_000, 100 * 2 ** Math.min(attempt, 7));
        await this.retryWait.sleep(delay);
      }
    }
    this.checkpoint = last;
    this.consumer.recovered();
    const now = Date.now();
    this.lastDeliveryAt = now;
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

  /** Events held in memory: the batch in hand and what was read after it. */
  get buffered(): number {
    return this.buffer.length + (this.inHand?.length ?? 0);
  }

  /** Whether the batch in hand has been refused, or has hung longer than `stallAfterMs`. */
  private get failing(): boolean {
    if (this.consumer.retries > 0) return true;
    return this.pendingSince !== null && Date.now() - this.pendingSince > this.stallAfterMs;
  }

  health(): { running: boolean; position: bigint; failed: string | null; delivering: boolean } {
    const running = !this.stopped;
    const failing = running && this.failing;
    const failed = this.consumer.retries > 0 ? this.consumer.lastError : failing ? `publish pending for ${Math.round((Date.now() - this.pendingSince!) / 1000)} s` : null;
    return { running, position: this.checkpoint, failed, delivering: running && !failing };
  }

  /** What the forwarder reports about getting events out (see DeliveryState). */
  async delivery(): Promise<ForwarderDelivery> {
    const head = await this.options.events.headPosition().catch(() => this.checkpoint);
    const now = Date.now();
    const running = !this.stopped;
    const failing = running && this.failing;
    const state: DeliveryState = !running ? 'stopped' : failing ? 'retrying' : head > this.checkpoint ? 'catching-up' : 'live';
    const since = this.lastDeliveryAt ?? (this.startedAt || null);
    return {
      state,
      delivering: running && !failing,
      lastDeliveryAt: this.lastDeliveryAt === null ? null : new Date(this.lastDeliveryAt).toISOString(),
      secondsSinceLastDelivery: since === null ? null : (now - since) / 1000,
      undeliveredSeconds: this.pendingSince === null ? 0 : (now - this.pendingSince) / 1000,
      failedAttempts: this.consumer.retries,
      lastError: this.consumer.lastError,
      lastErrorAt: this.consumer.lastErrorAt,
      buffered: this.buffered,
      bufferedMax: this.bufferedMax,
      batchSize: this.batchSize,
      missingHistory: this.missingHistory,
    };
  }

  async status(): Promise<ConsumerStatus> {
    const status = this.consumer.snapshot(this.checkpoint, await this.options.events.headPosition());
    // a publish that hangs (the broker away, requests timing out) is not delivering either
    if (status.state !== 'stopped' && status.state !== 'retrying' && this.failing) return { ...status, state: 'retrying' };
    return status;
  }

  /** Stops taking events, publishes what it holds (a few attempts), then closes the sink. */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.draining = true;
    this.retryWait.wake();
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
