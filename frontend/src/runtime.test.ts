import { runLength, runtimeFigure } from './bots/format';

const T = Date.parse('2026-01-10T12:00:00Z');
const base = { running: false, runtimeSeconds: 0 };

describe('the Runtime figure of a bot page (issue 29: a stopped bot read "0s")', () => {
  it('a run shorter than a second says so; longer runs in words', () => {
    expect(runLength(0)).toBe('under 1s');
    expect(runLength(999)).toBe('under 1s');
    expect(runLength(7_400)).toBe('7s');
    expect(runLength(3_725_000)).toBe('1h 2m');
  });

  it('a stopped bot: the length of its last run, marked as the last; the total over several runs in the hint', () => {
    const one = runtimeFigure({ ...base, runtimeSeconds: 7, runs: 1, lastRun: { startedAt: T, endedAt: T + 7_400, ms: 7_400 } }, 60_000);
    expect(one.value).toBe('7s (last run)'); // no counting on once stopped, however long ago it was read
    expect(one.hint).toMatch(/^Ran /);
    expect(one.hint).not.toMatch(/runs/);
    const two = runtimeFigure({ ...base, runtimeSeconds: 3_607, runs: 2, lastRun: { startedAt: T, endedAt: T + 7_400, ms: 7_400 } }, 0);
    expect(two.value).toBe('7s (last run)');
    expect(two.hint).toMatch(/; 1h 0m over 2 runs$/);
  });

  it('a running bot: the run going on, counted on since the summary was read', () => {
    const f = runtimeFigure({ running: true, runtimeSeconds: 125, runs: 1, lastRun: { startedAt: T, endedAt: null, ms: 125_000 } }, 5_000);
    expect(f).toEqual({ value: '2m 10s', hint: 'Since the bot started' });
    const again = runtimeFigure({ running: true, runtimeSeconds: 3_725, runs: 3, lastRun: { startedAt: T, endedAt: null, ms: 20_000 } }, 1_000);
    expect(again).toEqual({ value: '21s', hint: 'This run; 1h 2m over 3 runs' });
  });

  it('never started: a dash, not "0s"; no summary yet: a dash; a server without lastRun: the total as before', () => {
    expect(runtimeFigure({ ...base, runs: 0, lastRun: null }, 0)).toEqual({ value: '—', hint: 'Not started yet' });
    expect(runtimeFigure(undefined, 0)).toEqual({ value: '—' });
    expect(runtimeFigure({ running: true, runtimeSeconds: 60 }, 2_000).value).toBe('1m 2s');
  });
});
