import type { BotOwnership } from '@gridrocket/streaming';
import { botsReport, type ReportedTask } from './runner-report';

/** An ownership double: owns the bots listed, says which partitions lapsed; one partition per bot id's first letter. */
function ownership(owned: string[], lapsed: number[] = []): BotOwnership {
  return {
    kind: 'test',
    partitionCount: 26,
    partitionOf: (id) => id.charCodeAt(0) - 97,
    owns: (id) => owned.includes(id),
    owned: () => [],
    status: () => ({ kind: 'test', trading: true, partitions: 26, owned: [], epochs: {}, lapsed, lease: null, lastError: null }),
    start: async () => undefined,
    stop: async () => undefined,
  };
}
const task = (botId: string, t: Partial<ReportedTask> = {}): ReportedTask => ({ botId, started: true, ready: true, released: false, rateLimitedUntil: 0, retryTimer: null, ...t });

describe('what a runner says of its bots (issue 41: gridrocket_running_bots counts no paused bot)', () => {
  it('given bots in every state, then only those it may act for and that are not waiting are running, the rest paused by reason', () => {
    const tasks = [
      task('a1'),
      task('b1'), // its partition no longer owned: paused for ownership, not running
      task('c1', { rateLimitedUntil: 2_000 }), // the venue's 429/418 pause
      task('d1', { retryTimer: {} }), // backing off after venue errors
      task('e1'),
      task('f1', { ready: false }), // resuming
      task('g1', { released: true }), // let go: not this runner's
    ];
    const r = botsReport({ tasks, ownership: ownership(['a1', 'c1', 'd1', 'e1', 'f1']), failures: new Map([['e1', 2]]), lapsed: new Set(), now: 1_000 });
    expect(r).toEqual({ running: 1, starting: 1, paused: { ownership: 1, 'venue-rate-limit': 1, 'venue-errors': 2 } });
  });

  it('given bots let go when the lease lapsed, then they count as paused until their partition is claimed again here or elsewhere', () => {
    const lapsed = new Set(['h1', 'i1']);
    expect(botsReport({ tasks: [], ownership: ownership([], [7, 8]), failures: new Map(), lapsed, now: 0 }).paused.ownership).toBe(2);
    // i's partition taken by another runner: no longer paused here, and forgotten
    expect(botsReport({ tasks: [], ownership: ownership([], [7]), failures: new Map(), lapsed, now: 0 }).paused.ownership).toBe(1);
    expect([...lapsed]).toEqual(['h1']);
    // h resumed here
    expect(botsReport({ tasks: [task('h1')], ownership: ownership(['h1'], [7]), failures: new Map(), lapsed, now: 0 })).toMatchObject({ running: 1, paused: { ownership: 0 } });
  });
});
