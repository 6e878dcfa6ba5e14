import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteEventStore } from '@gridrocket/event-store';
import { QuotaExceededError, allotmentStream, systemContext } from '@gridrocket/shared';
import { AllotmentLedger } from '@gridrocket/shared/runtime';

describe('allotment ledger: the limit holds across processes', () => {
  let dir: string;
  let stores: SqliteEventStore[];
  const ctx = systemContext('u1');
  const noSeed = { seed: async () => [] };

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'gr-quota-'));
    // two stores on one file: two processes, each with its own folded states and its own queues
    stores = [new SqliteEventStore(join(dir, 'events.sqlite')), new SqliteEventStore(join(dir, 'events.sqlite'))];
  });
  afterEach(async () => {
    for (const s of stores) await s.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('50 takes at once from two ledgers on one store leave exactly 5 slots taken', async () => {
    const ledgers = stores.map((s) => new AllotmentLedger(s));
    const outcomes = await Promise.allSettled(Array.from({ length: 50 }, (_, i) => ledgers[i % 2].take('bots', ctx, `bot-${i}`, 5, noSeed)));
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(5);
    for (const o of outcomes) if (o.status === 'rejected') expect(o.reason).toBeInstanceOf(QuotaExceededError);
    const events = await stores[0].readStream(allotmentStream('u1', 'bots'));
    expect(events.map((e) => e.type)).toEqual(Array(5).fill('QuotaSlotTaken'));
  });

  it('a slot whose thing is gone is reclaimed once the limit is reached; a young one is not', async () => {
    const ledger = new AllotmentLedger(stores[0]);
    const old = { ...ctx, now: new Date('2026-01-01T00:00:00Z') };
    await ledger.take('keys', old, 'k1', 2, noSeed);
    await ledger.take('keys', old, 'k2', 2, noSeed);
    const later = { ...ctx, now: new Date('2026-01-01T00:05:00Z') };
    const gone = new Set(['k1']);
    await expect(ledger.take('keys', later, 'k3', 2, { ...noSeed, isGone: async (id) => gone.has(id) })).resolves.toEqual({ taken: true });
    // k3 is young: even if it looks gone (its create under way), it is not reclaimed
    gone.add('k3');
    await expect(ledger.take('keys', later, 'k4', 2, { ...noSeed, isGone: async (id) => gone.has(id) })).rejects.toBeInstanceOf(QuotaExceededError);
  });

  it('the first use seeds the ids held before allotments existed', async () => {
    const ledger = new AllotmentLedger(stores[0]);
    await expect(ledger.take('bots', ctx, 'new', 2, { seed: async () => ['a', 'b'] })).rejects.toBeInstanceOf(QuotaExceededError);
    await ledger.take('bots', ctx, 'new', 3, { seed: async () => ['a', 'b'] });
    await ledger.free('bots', ctx, ['a'], 'deleted');
    await ledger.take('bots', ctx, 'newer', 3, { seed: async () => ['ignored'] });
    await expect(ledger.take('bots', ctx, 'newest', 3, noSeed)).rejects.toBeInstanceOf(QuotaExceededError);
  });
});
