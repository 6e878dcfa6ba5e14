import type { EventStore, RecordedEvent, SubscriptionFilter } from '@gridrocket/event-store';
import { resubscribing } from '@gridrocket/event-store';
import { ConsumerHealth, ConsumerStatus, ReportsStatus, Sleeper, batchBackoff } from './consumer-health';
import type { ReadStore } from './read-store.port';

export interface ReactorOptions {
  name: string;
  events: EventStore;
  reads: ReadStore;
  filter?: SubscriptionFilter;
  handle(event: RecordedEvent): Promise<void>;
  /** Told of every failed attempt; the event is handled again after a back-off, never skipped. */
  onError?(err: Error, event: RecordedEvent): void;
  /** Where to begin when there is no checkpoint yet. */
  startAt?: 'start' | 'end';
  /** How often the checkpoint is written at most (ms). */
  checkpointEveryMs?: number;
  /** Back-off before the n-th attempt of a failed event (ms). */
  retryDelay?(attempt: number): number;
  /**
   * Events of one key are handled one after another, in order; different keys concurrently. Default: the
   * stream. The mail outbox keys by event: one mail waiting for the server does not hold up the next.
   */
  orderKey?(event: RecordedEvent): string;
}

export interface RunningReactor extends ReportsStatus {
  stop(): Promise<void>;
  /** Every event up to this position has been handled. */
  readonly position: bigint;
  readonly name: string;
}

/** The reactors running on a read store (health reads them; a WeakMap so that nothing is kept alive). */
const running = new WeakMap<ReadStore, Set<RunningReactor>>();

/** The reactors running now whose checkpoints live in `reads` (for /api/health and /metrics). */
export function runningReactors(reads: ReadStore): RunningReactor[] {
  return [...(running.get(reads) ?? [])];
}

/**
 * A checkpointed catch-up subscription for process managers (the runner, the
 * forwarder). Events of one stream are handled one after another, in order;
 * different streams are handled concurrently. The checkpoint only moves past
 * an event once it and every event before it have been handled: delivery is
 * at-least-once, so handlers are idempotent.
 *
 * Faults: a dropped subscription is resumed from the last event received, with
 * back-off; an event whose handler fails is handled again, with back-off, until
 * it goes through (its stream waits, the other streams carry on; the checkpoint
 * stays before it); a checkpoint write that fails is written again.
 */
/**
 * A reactor that sends something out for each event (mails, alerts): on its first start it begins at the
 * end of the log (nothing goes out for what happened before it existed), and it handles each event on its
 * own (one the far end keeps failing does not hold up the next of the same stream).
 */
export function startOutboxReactor(
  stores: { events: EventStore; reads: ReadStore },
  name: string,
  options: Pick<ReactorOptions, 'filter' | 'handle' | 'retryDelay' | 'onError'>,
): Promise<RunningReactor> {
  return startReactor({ name, events: stores.events, reads: stores.reads, startAt: 'end', orderKey: (event) => event.id, ...options });
}

export async function startReactor(options: ReactorOptions): Promise<RunningReactor> {
  const { events, reads, name } = options;
  const collection = `reactor_${name.replace(/[^a-z0-9_]/g, '_')}`;
  const stored = await reads.getCheckpoint(name);
  let position = stored ?? (options.startAt === 'end' ? await events.headPosition() : 0n);
  // A first start at the end writes that end as the checkpoint before handling anything: otherwise a
  // process killed while it handles its first events would start again at the new end after the
  // restart, and those events would never be handled (the alert dispatcher would lose its alerts).
  if (stored === null && options.startAt === 'end') await reads.commit(collection, [], { name, position });
  let saved = position;
  const health = new ConsumerHealth(name, 'reactor');
  health.running = true;
  const failing = new Set<RecordedEvent>();
  // A reactor is retrying while its subscription is down, an event fails or its checkpoint is not
  // written; it is through again only when none of the three holds.
  let dropped = false;
  let checkpointFailing = false;
  const sub = resubscribing(events, {
    fromPosition: position,
    filter: options.filter,
    // The store tells how far it has looked: events its filter skipped move the checkpoint too, from
    // the first batch on, so a reactor whose events are rare does not rescan the log on every start.
    onProgress: (at) => {
      if (stopping) return;
      inOrder.push({ position: at, done: true });
      settle();
    },
    onDrop: (err) => {
      dropped = true;
      health.failed(err);
    },
    onResume: () => {
      dropped = false;
      if (failing.size === 0 && !checkpointFailing) health.recovered();
    },
  });
  const chains = new Map<string, Promise<void>>();
  const inOrder: { position: bigint; done: boolean }[] = [];
  const sleepers = new Set<Sleeper>();
  let stopping = false;
  let saveTimer: NodeJS.Timeout | null = null;

  const save = async () => {
    saveTimer = null;
    if (position === saved) return;
    const at = position;
    try {
      await reads.commit(collection, [], { name, position: at });
      saved = at;
      if (checkpointFailing) {
        checkpointFailing = false;
        if (failing.size === 0 && !dropped) health.recovered();
      }
    } catch (err) {
      checkpointFailing = true;
      health.failed(err as Error);
      if (!stopping) scheduleSave(); // written again with the next tick
      else throw err;
    }
  };
  const scheduleSave = () => {
    saveTimer ??= setTimeout(() => void save().catch(() => undefined), options.checkpointEveryMs ?? 50);
  };
  const settle = () => {
    while (inOrder.length && inOrder[0].done) position = inOrder.shift()!.position;
    scheduleSave();
  };

  const handleUntilDone = async (event: RecordedEvent) => {
    for (let attempt = 1; !stopping; attempt++) {
      try {
        await options.handle(event);
        if (failing.delete(event) && failing.size === 0 && !dropped && !checkpointFailing) health.recovered();
        return true;
      } catch (err) {
        if (stopping) break;
        failing.add(event);
        health.failed(err as Error);
        options.onError?.(err as Error, event);
        const sleeper = new Sleeper();
        sleepers.add(sleeper);
        await sleeper.sleep((options.retryDelay ?? batchBackoff)(attempt));
        sleepers.delete(sleeper);
      }
    }
    return false; // stopping: not handled, so not checkpointed (handled again after the restart)
  };

  const loop = (async () => {
    for await (const event of sub) {
      const entry = { position: event.position, done: false };
      inOrder.push(entry);
      const key = options.orderKey?.(event) ?? event.streamId;
      const previous = chains.get(key) ?? Promise.resolve();
      const run = previous.then(async () => {
        if (stopping) return;
        if (await handleUntilDone(event)) {
          entry.done = true;
          settle();
        }
      });
      chains.set(key, run);
      void run.then(() => {
        if (chains.get(key) === run) chains.delete(key);
      });
    }
  })().catch((err) => {
    if (!stopping) {
      health.failed(err as Error);
      console.error(`reactor ${name} stopped`, err);
    }
  });

  const reactor: RunningReactor = {
    name,
    get position() {
      return position;
    },
    async status(): Promise<ConsumerStatus> {
      const head = await events.headPosition();
      // The reactor sees only the events of its filter: when nothing is waiting it is live, whatever the head.
      const idle = inOrder.length === 0 && failing.size === 0;
      return health.snapshot(position, idle ? position : head);
    },
    async stop() {
      stopping = true;
      for (const s of sleepers) s.wake();
      await sub.close();
      await loop;
      await Promise.all(chains.values());
      if (saveTimer) clearTimeout(saveTimer);
      await save().catch(() => undefined); // not saved: the events are handled again after the restart
      health.running = false;
      running.get(reads)?.delete(reactor);
    },
  };
  if (!running.has(reads)) running.set(reads, new Set());
  running.get(reads)!.add(reactor);
  return reactor;
}
