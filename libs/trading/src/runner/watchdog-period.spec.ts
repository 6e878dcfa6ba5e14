import { watchdogPeriod } from './grid-runner.service';

describe('WATCHDOG_PERIOD_MS', () => {
  it('unset is the default, 0 is off, whole milliseconds from 1 s; anything else stops the start with a clear message', () => {
    expect(watchdogPeriod(undefined)).toBeUndefined();
    expect(watchdogPeriod('')).toBeUndefined();
    expect(watchdogPeriod('0')).toBe(0);
    expect(watchdogPeriod('30000')).toBe(30_000);
    for (const bad of ['500', '1.5e3x', 'soon', '-1', '2500.5']) expect(() => watchdogPeriod(bad)).toThrow('WATCHDOG_PERIOD_MS must be 0 (off) or a whole number of milliseconds of at least 1000');
  });
});
