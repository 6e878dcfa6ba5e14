/**
 * The one helper for projection specifications (test-only): given events appended to a real
 * (temporary) event store, the real Projector builds the read model in a real SQLite read store, and
 * the spec reads the documents back. It also replays everything over the documents already there
 * (a checkpoint lost or rewound) and can deliver every event twice (an at-least-once subscription),
 * so a spec can show that neither changes anything.
 *
 *   const spec = projectionSpec(botListProjection);
 *   expect(await spec.given(created, edited)).toEqual([doc]);
 *   expect(await spec.replayed()).toEqual([doc]);
 *   expect(spec.announced).toEqual([]);
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { EventStore, RecordedEvent, SqliteEventStore, Subscription } from '@gridrocket/event-store';
import { Projector, type Projection } from '../projector';
import type { Doc } from '../read-store.port';
import { SqliteReadStore } from '../sqlite.read-store';

export interface GivenEvent {
  streamId: string;
  type: string;
  data: unknown;
  /** occurred-at of the event's metadata (default: a fixed clock that advances a second per event). */
  at?: string;
}

/** An event store whose subscriptions hand out every event twice in a row. */
function deliveringTwice(store: EventStore): EventStore {
  const twice = Object.create(store) as EventStore;
  twice.subscribeToAll = (options) => {
    const inner = store.subscribeToAll(options);
    const sub: Subscription = {
      close: () => inner.close(),
      async *[Symbol.asyncIterator]() {
        for await (const e of inner as AsyncIterable<RecordedEvent>) {
          yield e;
          yield { ...e };
        }
      },
    };
    return sub;
  };
  return twice;
}

export function projectionSpec<D extends Doc>(projection: Projection<D>, options: { deliverTwice?: boolean } = {}) {
  const dir = mkdtempSync(join(tmpdir(), `gr-projection-${projection.name}-`));
  const events = new SqliteEventStore(join(dir, 'events.sqlite'), 5);
  const reads = new SqliteReadStore(join(dir, 'reads.sqlite'));
  const source = options.deliverTwice ? deliveringTwice(events) : events;
  let clock = Date.parse('2025-01-01T00:00:00.000Z');
  /** The changes the last projection run announced (what the dashboard would be pushed), as `<id> <event type>`. */
  let announced: string[] = [];

  async function project(): Promise<void> {
    const failures: Error[] = [];
    const projector = new Projector(source, reads, [projection], (err) => failures.push(err));
    announced = [];
    projector.onChange((c) => announced.push(`${c.id} ${c.event.type}`));
    await projector.start();
    const head = await events.headPosition();
    const caughtUp = await projector.waitFor(head, 10_000);
    await projector.stop();
    if (failures.length) throw failures[0];
    if (!caughtUp) throw new Error(`projection ${projection.name} did not reach position ${head}`);
  }

  /** Every document of the collection (tombstones left out), in the order they were first written. */
  const documents = () => reads.find<D>(projection.collection, {});

  return {
    /** Appends the events in order, projects them and returns the collection's documents. */
    async given(...given: GivenEvent[]): Promise<D[]> {
      for (const e of given) {
        clock += 1000;
        const occurredAt = e.at ?? new Date(clock).toISOString();
        await events.append(
          e.streamId,
          [{ id: randomUUID(), type: e.type, data: e.data, metadata: { userId: 'spec', correlationId: 'spec', causationId: null, occurredAt, schemaVersion: 1 } }],
          'any',
        );
      }
      await project();
      return documents();
    },
    /** Forgets the checkpoint (documents kept), projects every event again and returns the documents. */
    async replayed(): Promise<D[]> {
      await reads.reset([], [projection.name]);
      await project();
      return documents();
    },
    /** The changes announced by the last `given` or `replayed` (an event already reflected announces none). */
    get announced(): string[] {
      return announced;
    },
    /** A document with the stream revision it reflects (null doc: deleted). */
    stored: async (id: string) => (await reads.getMany<D>(projection.collection, [id])).get(id) ?? null,
    async close(): Promise<void> {
      await events.close();
      await reads.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
