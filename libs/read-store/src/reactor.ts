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
}

export interface RunningReactor {
  stop(): Promise<void>;
  readonly position: bigint;
}

/**
 * A checkpointed catch-up subscription that reacts to events one at a time
 * (process managers: the runner, the forwarder). The checkpoint moves only
 * after `handle` has finished: at-least-once, so handlers are idempotent.
 */
export async function startReactor(options: ReactorOptions): Promise<RunningReactor> {
  const { events, reads, name } = options;
  let position = (await reads.getCheckpoint(name)) ?? (options.startAt === 'end' ? await events.headPosition() : 0n);
  const sub = events.subscribeToAll({ fromPosition: position, filter: options.filter });
  let stopping = false;
  const loop = (async () => {
    for await (const event of sub) {
      try {
        await options.handle(event);
      } catch (err) {
        if (stopping) return;
        options.onError?.(err as Error, event);
      }
      position = event.position;
      await reads.commit(`reactor_${name.replace(/[^a-z0-9_]/g, '_')}`, [], { name, position });
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
    },
  };
}
