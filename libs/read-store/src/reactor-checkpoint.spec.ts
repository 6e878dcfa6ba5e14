import { join } from 'node:path';

import { SqliteEventStore } from '@gridrocket/event-store';
import { until } from '@gridrocket/shared/testing/until';
import { startReactor } from './reactor';
import { SqliteReadStore } from './sqlite.read-store';
import { storesDir, testEvent } from './testing/reactor-spec';

const ev = testEvent;

/** Issue 16: a reactor whose events are rare (the credential shredder) must not rescan the log on every start. */
describe('reactor checkpoint past events its filter skips', () => {
  const dir = storesDir('gr-reactor-cp-');

  it('checkpoints at the head from its first batch although no event matched', async () => {
    const events = new SqliteEventStore(join(dir, 'e.sqlite'), 20, 'OFF');
    const reads = new SqliteReadStore(join(dir, 'r.sqlite'));
    for (let i = 0; i < 120; i++) await events.append(`bot-${i % 7}`, Array.from({ length: 1000 }, (_, j) => ev('Other', j)), 'any');
    const head = await events.headPosition();
    let handled = 0;
    const reactor = await startReactor({ name: 'rare', events, reads, filter: { streamPrefixes: ['cred-'], eventTypes: ['CredentialRemoved'] }, handle: async () => void handled++ });
    await until('checkpoint at the head', async () => (await reads.getCheckpoint('rare')) === head, 20_000);
    await reactor.stop();
    expect(handled).toBe(0);

    // later events that match are still handled, after the checkpoint
    await events.append('cred-1', [ev('CredentialRemoved', 1)], 'any');
    const again = await startReactor({ name: 'rare', events, reads, filter: { streamPrefixes: ['cred-'], eventTypes: ['CredentialRemoved'] }, handle: async () => void handled++ });
    await until('the new event handled', async () => handled === 1, 20_000);
    await again.stop();
    expect(await reads.getCheckpoint('rare')).toBe(await events.headPosition());
    await events.close();
    await reads.close();
  }, 60_000);

  it('lets timers run while it catches up on a long log (the event loop is never held for long)', async () => {
    const events = new SqliteEventStore(join(dir, 'e2.sqlite'), 20, 'OFF');
    const reads = new SqliteReadStore(join(dir, 'r2.sqlite'));
    for (let i = 0; i < 200; i++) await events.append(`bot-${i}`, Array.from({ length: 1000 }, (_, j) => ev('T', j)), 'no_stream');
    let handled = 0;
    let longest = 0;
    let last = performance.now();
    const tick = setInterval(() => {
      const now = performance.now();
      longest = Math.max(longest, now - last);
      last = now;
    }, 5);
    const reactor = await startReactor({ name: 'all', events, reads, handle: async () => void handled++ });
    await until('every event handled', async () => handled === 200_000, 60_000);
    clearInterval(tick);
    await reactor.stop();
    expect(longest).toBeLessThan(1000);
    await events.close();
    await reads.close();
  }, 90_000);
});

/**
 * Issue 29 (alerts: nothing lost across a crash): a reactor that starts at the end of the log on its first
 * start (the alert dispatcher) must keep that start, so that an event it was handling when its process
 * died is handled after the restart instead of being skipped by a second "start at the end".
 */
describe('reactor first started at the end, then killed while it handles its first event', () => {
  const dir = storesDir('gr-reactor-end-');

  it('handles that event after the restart', async () => {
    const events = new SqliteEventStore(join(dir, 'e.sqlite'), 20, 'OFF');
    const reads = new SqliteReadStore(join(dir, 'r.sqlite'));
    await events.append('bot-old', [ev('Alerting', 0)], 'any'); // before the reactor existed: never handled
    const filter = { streamPrefixes: ['bot-'], eventTypes: ['Alerting'] };
    let release!: (err: Error) => void;
    const hung = new Promise<void>((_, reject) => (release = reject));
    const seenByFirst: number[] = [];
    const first = await startReactor({ name: 'from-end', events, reads, filter, startAt: 'end', retryDelay: () => 10, handle: async (e) => {
      seenByFirst.push((e.data as { n: number }).n);
      await hung; // the process dies while this handler runs (a webhook waiting out its back-off)
    } });
    await events.append('bot-1', [ev('Alerting', 1)], 'any');
    await until('the first process is handling event 1', async () => seenByFirst.includes(1), 10_000);

    // The restarted process, on the same stores, while the dead one never got further.
    const handled: number[] = [];
    const second = await startReactor({ name: 'from-end', events, reads, filter, startAt: 'end', handle: async (e) => void handled.push((e.data as { n: number }).n) });
    try {
      await until('event 1 handled after the restart', async () => handled.includes(1), 5_000);
      expect(handled).toEqual([1]);
    } finally {
      await second.stop();
      release(new Error('killed'));
      await first.stop();
      await events.close();
      await reads.close();
    }
  }, 30_000);
});
