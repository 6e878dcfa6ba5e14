/**
 * The fleet as the API sees it (issue 41): the runners' heartbeats and the heads of the ownership streams,
 * and the bots that should trade and have no live runner counted as paused for `ownership`.
 */
import { randomUUID } from 'node:crypto';
import { SqliteEventStore } from '@gridrocket/event-store';
import { LeaseOwnership } from './lease.ownership';
import { readRunnerFleet, summariseFleet } from './lease-fleet';
import { botPartitionOf } from './partitions';

describe('the runners\' fleet from the event store', () => {
  let store: SqliteEventStore;
  const clock = { t: 0 };
  const wall = () => 1_700_000_000_000 + clock.t;
  beforeEach(() => {
    store = new SqliteEventStore(':memory:');
    clock.t = 0;
  });
  afterEach(() => store.close());

  const runner = (name: string, report: Record<string, unknown>) => {
    const o = new LeaseOwnership({ events: store, scope: 'f', owner: name, partitions: 4, leaseMs: 3000, renewMs: 1000, now: () => clock.t, wallNow: wall, manual: true });
    o.reportWith(() => report);
    return o;
  };
  const noop = { onAssigned: () => undefined, onRevoked: () => undefined };

  it('is null where no leased runner ever ran', async () => {
    expect(await readRunnerFleet(store, 'f', wall)).toBeNull();
  });

  it('lists the live runners with their partitions and reports; a silent one\'s partitions are unowned and their active bots paused', async () => {
    const a = runner('a', { running: 3, paused: { 'venue-errors': 1 }, starting: 0 });
    const b = runner('b', { running: 2, paused: {}, starting: 0 });
    await a.start(noop);
    await b.start(noop);
    for (let i = 0; i < 3; i++) {
      clock.t += 1000;
      await a.round();
      await a.released();
      await b.round();
      await b.released();
    }
    const fleet = (await readRunnerFleet(store, 'f', wall))!;
    expect(fleet.unowned).toEqual([]);
    expect(fleet.members.map((m) => [m.name, m.alive, m.partitions.length, m.running])).toEqual([
      ['a', true, 2, 3],
      ['b', true, 2, 2],
    ]);
    const bots = Array.from({ length: 40 }, () => randomUUID());
    expect(summariseFleet(fleet, bots)).toMatchObject({ trading: true, runningBots: 5, pausedBots: { ownership: 0, 'venue-errors': 1, 'venue-rate-limit': 0 } });

    // b falls silent (killed) while a renews: once b's heartbeat is older than its takeover time (7 s) the API
    // counts its partitions unowned, until a has watched it silent as long and takes them
    const bLast = clock.t;
    while (clock.t < bLast + 7000) {
      clock.t += 500;
      await a.round();
    }
    clock.t += 200;
    const later = (await readRunnerFleet(store, 'f', wall))!;
    const bParts = later.members.find((m) => m.name === 'b')!.partitions;
    expect(later.members.find((m) => m.name === 'b')).toMatchObject({ alive: false, running: 0 });
    expect(later.unowned).toEqual(bParts);
    const summary = summariseFleet(later, bots);
    expect(summary.pausedBots.ownership).toBe(bots.filter((id) => bParts.includes(botPartitionOf(id, 4))).length);
    expect(summary.trading).toBe(false);
  });
});
