import { crosshairTime, levelLines, TICK, tickLabel } from './bots/chartLabels';

// a local time, so the expectations hold in any time zone the tests run in
const at = (h: number, m: number, s: number) => new Date(2026, 10, 26, h, m, s).getTime() / 1000;

describe('the price chart time axis (issue 29: "16:06 16:06 16:06")', () => {
  it('ticks inside one minute keep their seconds, so a few minutes of prices never repeat a label', () => {
    // the marks the library makes over 16:06:10 … 16:07:40, one every 30 s, with the kind it gives each
    const marks: Array<[number, number]> = [
      [at(16, 6, 10), TICK.TimeWithSeconds],
      [at(16, 6, 40), TICK.TimeWithSeconds],
      [at(16, 7, 0), TICK.Time],
      [at(16, 7, 10), TICK.TimeWithSeconds],
      [at(16, 7, 40), TICK.TimeWithSeconds],
    ];
    const labels = marks.map(([t, k]) => tickLabel(t, k));
    expect(labels).toEqual(['16:06:10', '16:06:40', '16:07', '16:07:10', '16:07:40']);
    expect(new Set(labels).size).toBe(labels.length);
  });

  it('days, months and years read as such', () => {
    expect(tickLabel(at(0, 0, 0), TICK.DayOfMonth)).toBe('26 Nov');
    expect(tickLabel(new Date(2026, 10, 1).getTime() / 1000, TICK.Month)).toBe('Nov 2026');
    expect(tickLabel(new Date(2027, 0, 1).getTime() / 1000, TICK.Year)).toBe('2027');
    expect(crosshairTime(at(9, 5, 3))).toBe('26 Nov 09:05:03');
  });
});

describe('the price chart ladder lines carry their price', () => {
  const ladder = (n: number) => [
    ...Array.from({ length: n }, (_, i) => ({ price: 100 - i, kind: 'buy' as const, status: i === 0 ? 'filled' : 'open' })),
    { price: 101, kind: 'take-profit' as const, status: 'open' },
  ];

  it('a small ladder: every rung and the take-profit (titled TP) are labelled', () => {
    const lines = levelLines(ladder(5), 280);
    expect(lines.filter((l) => l.axisLabel)).toHaveLength(6);
    expect(lines.find((l) => l.kind === 'take-profit')).toEqual({ price: 101, kind: 'take-profit', filled: false, axisLabel: true, title: 'TP' });
    expect(lines[0]).toMatchObject({ price: 100, filled: true, axisLabel: true });
  });

  it('a long ladder on a short chart: labels thinned so they do not pile up, the highest, lowest and the take-profit kept', () => {
    for (const [n, height] of [[40, 220], [99, 280], [12, 220], [25, 380]] as const) {
      const lines = levelLines(ladder(n), height);
      const buys = lines.filter((l) => l.kind === 'buy' && l.axisLabel).map((l) => l.price);
      expect(buys.length).toBeGreaterThanOrEqual(2);
      // no more labels than fit: about one per 22 px of the 3/4 of the height the levels use
      expect(buys.length + 1).toBeLessThanOrEqual(Math.floor((height * 0.76) / 22) + 1);
      expect(buys).toContain(100);
      expect(buys).toContain(100 - (n - 1));
      expect(lines.find((l) => l.kind === 'take-profit')!.axisLabel).toBe(true);
      // every line is still drawn
      expect(lines).toHaveLength(n + 1);
    }
  });
});
