import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { eventStoreContract } from './event-store.contract';
import { NewEvent, RecordedEvent } from './event-store.port';
import { FencedError } from './fence';
import { ResilientEventStore } from './resilient.event-store';
import { resubscribing } from './resubscribe';
import { SqliteEventStore } from './sqlite.event-store';
import { FaultSchedule } from './testing/fault-schedule';
import { FaultyEventStore } from './testing/faulty.event-store';

const ev = (n: number): NewEvent => ({
  id: randomUUID(),
  type: 'T',
  data: { n },
  metadata: { userId: 'u', correlationId: 'c', causationId: null, occurredAt: new Date().toISOString(), schemaVersion: 1 },
});

const dir = mkdtempSync(join(tmpdir(), 'gr-faulty-es-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// The whole contract through the fault-injecting wrapper: subscriptions dropped every ~60 ms, a fifth of
// the appends refused, a fifth timing out after they were written, a tenth of the reads failing. With
// the resilient layer on top (resubscribe, retry what is transient), every clause of the contract holds.
describe('event store contract under injected faults (SQLite + faults + resilience)', () => {
  const schedule = new FaultSchedule(7);
  eventStoreContract(
    async () =>
      new ResilientEventStore(
        new FaultyEventStore(new SqliteEventStore(join(dir, 'contract.sqlite'), 20), schedule, {
          dropSubscriptionsEveryMs: 60,
          failAppendRate: 0.2,
          appendTimeoutRate: 0.2,
          appendTimeoutMs: 5,
          failReadRate: 0.1,
        }),
        { retryDelay: () => 5, attempts: 20 },
      ),
  );
  afterAll(() => {
    const hit = schedule.summary();
    console.log(`event store contract under faults: injected ${JSON.stringify(hit)}`);
    expect(hit['append.fail']).toBeGreaterThan(0);
    expect(hit['append.timeout']).toBeGreaterThan(0);
  });
});

describe('resubscribing subscription', () => {
  it('a raw subscription of the faulty store fails; resubscribing delivers every event once, in order', async () => {
    const schedule = new FaultSchedule(3);
    const store = new SqliteEventStore(join(dir, 'resub.sqlite'), 10);
    const faulty = new FaultyEventStore(store, schedule, { dropSubscriptionsEveryMs: 20 });
    const raw = faulty.subscribeToAll({ fromPosition: 'start' });
    const writing = (async () => {
      for (let i = 0; i < 300; i++) {
        await store.append(`s-${i % 7}`, [ev(i)], 'any');
        if (i % 10 === 0) await new Promise((r) => setTimeout(r, 5)); // ~150 ms of live appends
      }
    })();
    await expect(
      (async () => {
        for await (const _ of raw) {
          // the injected drop ends it with an error
        }
      })(),
    ).rejects.toThrow(/subscription dropped/);

    const drops: number[] = [];
    const sub = resubscribing(faulty, { fromPosition: 'start', retryDelay: () => 2, onDrop: (_e, n) => drops.push(n) });
    const seen: RecordedEvent[] = [];
    for await (const e of sub) {
      seen.push(e);
      if (seen.length === 300) break;
    }
    await sub.close();
    await writing;
    expect(drops.length).toBeGreaterThan(0);
    expect(seen.map((e) => (e.data as { n: number }).n)).toEqual(Array.from({ length: 300 }, (_, i) => i));
    await store.close();
  });
});

describe('append fence (ownership epoch)', () => {
  it('an append fenced by an epoch is refused once the fence stream has moved, atomically with the append', async () => {
    const store = new SqliteEventStore(join(dir, 'fence.sqlite'), 10);
    const claim = await store.append('ownership-p0', [ev(1)], 'no_stream'); // runner A's epoch: revision 0
    const fenceA = { streamId: 'ownership-p0', revision: claim.nextExpectedRevision };
    await store.append('bot-1', [ev(1)], 'any', { fence: fenceA });
    await store.append('ownership-p0', [ev(2)], 0n); // runner B claims: epoch 1
    await expect(store.append('bot-1', [ev(2)], 'any', { fence: fenceA })).rejects.toBeInstanceOf(FencedError);
    // in the same group commit as B's claim: still refused
    const racing = store.append('bot-1', [ev(3)], 'any', { fence: fenceA });
    const bClaims = store.append('ownership-p0', [ev(3)], 1n);
    await bClaims;
    await expect(racing).rejects.toBeInstanceOf(FencedError);
    expect((await store.readStream('bot-1')).map((e) => (e.data as { n: number }).n)).toEqual([1]);
    await store.append('bot-1', [ev(4)], 'any', { fence: { streamId: 'ownership-p0', revision: 2n } });
    expect((await store.readStream('bot-1')).map((e) => (e.data as { n: number }).n)).toEqual([1, 4]);
    await store.close();
  });
});
