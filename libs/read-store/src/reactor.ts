import type { EventStore, RecordedEvent, SubscriptionFilter } from '@gridrocket/event-store';
import type { ReadStore } from './read-store.port';

export interface ReactorOptions {
  name: string;
  events: EventStore;
  reads: ReadStore;
  filter?: SubscriptionFilter;
  handle(event: RecordedEvent): Promise<void>;
  onError?(err: Error, event: RecordedEvent): void;
  /** Where to begin when there is no checkpoint yet. */
  startAt?: 'start' | 'end';
  /** How often the checkpoint is written at most (ms). */
  checkpointEveryMs?: number;
}

export interface RunningReactor {
  stop(): Promise<void>;
  /** Every event up to this position has been handled. */
  readonly position: bigint;
}

/**
 * A checkpointed catch-up subscription for process managers (the runner, the
 * forwarder). Events of one stream are handled one after another, in order;
 * different streams are handled concurrently. The checkpoint only moves past
 * an event once it and every event before it have been handled: delivery is
 * at-least-once, so handlers are idempotent.
 */
export async function startReactor(options: ReactorOptions): Promise<RunningReactor> {
  const { events, reads, name } = options;
  const collection = `reactor_${name.replace(/[^a-z0-9_]/g, '_')}`;
  let position = (await reads.getCheckpoint(name)) ?? (options.startAt === 'end' ? await events.headPosition() : 0n);
  let saved = position;
  const chains = new Map<string, Promise<void>>();
  const inOrder: { position: bigint; done: boolean }[] = [];
  // The store tells how far it has looked: events its filter skipped move the checkpoint too, from
  // the first batch on, so a reactor whose events are rare does not rescan the log on every start.
  const onProgress = (at: bigint) => {
    if (stopping) return;
    inOrder.push({ position: at, done: true });
    settle();
  };
  const sub = events.subscribeToAll({ fromPosition: position, filter: options.filter, onProgress });
  let stopping = false;
  let saveTimer: NodeJS.Timeout | null = null;

  const save = async () => {
    saveTimer = null;
    if (position === saved) return;
    const at = position;
    await reads.commit(collection, [], { name, position: at });
    saved = at;
  };
  const scheduleSave = () => {
    saveTimer ??= setTimeout(() => void save().catch(() => undefined), options.checkpointEveryMs ?? 50);
  };
  const settle = () => {
    while (inOrder.length && inOrder[0].done) position = inOrder.shift()!.position;
    scheduleSave();
  };

  const loop = (async () => {
    for await (const event of sub) {
      const entry = { position: event.position, done: false };
      inOrder.push(entry);
      const previous = chains.get(event.streamId) ?? Promise.resolve();
      const run = previous.then(async () => {
        try {
          if (!stopping) await options.handle(event);
        } catch (err) {
          if (!stopping) options.onError?.(err as Error, event);
        }
        entry.done = true;
        settle();
      });
      chains.set(event.streamId, run);
      void run.then(() => {
        if (chains.get(event.streamId) === run) chains.delete(event.streamId);
      });
    }
  })().catch((err) => {
    if (!stopping) console.error(`reactor ${name} stopped`, err);
  });

  return {
    get position() {
      return position;
    },
    async stop() {
      stopping = true;
      await sub.close();
      await loop;
      await Promise.all(chains.values());
      if (saveTimer) clearTimeout(saveTimer);
      await save();
    },
  };
}
