/**
 * The ticks of a chart's axes (issue 29, finding 9: the equity curve had no axes, and a time axis must not
 * repeat a label). Pure: the numbers and labels only; EquityCurve draws them. Times are unix ms, laid out
 * in the viewer's time zone (the trades list shows local times too).
 */

export interface Tick {
  value: number;
  label: string;
}

/** Width in px of one character of the 11 px axis labels (tabular digits), generous so labels never touch. */
export const CHAR_PX = 6.6;
/** Room between two time labels, px. */
const GAP_PX = 14;

/** The widest a label of these ticks draws, px. */
export const labelWidth = (labels: string[]) => Math.max(0, ...labels.map((l) => l.length)) * CHAR_PX;

function decimalsOf(step: number): number {
  // the decimals a step needs: 0.25 → 2, 0.5 → 1, 20 → 0
  for (let d = 0; d <= 10; d++) if (Math.abs(Math.round(step * 10 ** d) - step * 10 ** d) < 1e-9 * 10 ** d) return d;
  return 10;
}

/**
 * "Nice" value ticks (1, 2, 2.5, 5 × 10^k apart) over [lo, hi], at most `maxCount` of them, and the domain
 * they span (a whole number of steps, so the top and bottom lines are labelled). A flat range is widened
 * so a constant curve still gets a scale.
 */
export function valueTicks(lo: number, hi: number, maxCount: number): { ticks: Tick[]; lo: number; hi: number } {
  if (!Number.isFinite(lo) || !Number.isFinite(hi)) return { ticks: [], lo: 0, hi: 1 };
  if (hi < lo) [lo, hi] = [hi, lo];
  if (hi - lo < 1e-9) {
    const pad = Math.max(1, Math.abs(lo) * 0.001);
    lo -= pad;
    hi += pad;
  }
  const count = Math.max(2, Math.floor(maxCount));
  const raw = (hi - lo) / (count - 1);
  const mag = 10 ** Math.floor(Math.log10(raw));
  let step = 100 * mag;
  search: for (const k of [1, 10]) {
    for (const m of [1, 2, 2.5, 5]) {
      const s = m * k * mag;
      if (Math.ceil(hi / s - 1e-9) - Math.floor(lo / s + 1e-9) + 1 <= count) {
        step = s;
        break search;
      }
    }
  }
  const first = Math.floor(lo / step + 1e-9);
  const last = Math.ceil(hi / step - 1e-9);
  const decimals = decimalsOf(step);
  const ticks: Tick[] = [];
  for (let i = first; i <= last; i++) {
    const value = Number((i * step).toFixed(decimals));
    ticks.push({ value, label: value.toLocaleString('en-US', { minimumFractionDigits: decimals, maximumFractionDigits: decimals }) });
  }
  return { ticks, lo: first * step, hi: last * step };
}

const SEC = 1000;
const MIN = 60 * SEC;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const MONTH = 30 * DAY; // a unit for choosing the step only: month ticks fall on the 1st
type Step = { ms: number; unit: 'ms' | 'hour' | 'day' | 'month'; n: number };
const STEPS: Step[] = [
  ...[1, 2, 5, 10, 15, 30].map((n) => ({ ms: n * SEC, unit: 'ms' as const, n })),
  ...[1, 2, 5, 10, 15, 30].map((n) => ({ ms: n * MIN, unit: 'ms' as const, n })),
  ...[1, 2, 3, 6, 12].map((n) => ({ ms: n * HOUR, unit: 'hour' as const, n })),
  ...[1, 2, 7, 14].map((n) => ({ ms: n * DAY, unit: 'day' as const, n })),
  ...[1, 2, 3, 6, 12, 24, 60, 120].map((n) => ({ ms: n * MONTH, unit: 'month' as const, n })),
];

/** The tick times of one step over [t0, t1], on round local times (whole minutes, hours, midnights, 1sts). */
function ticksOf(step: Step, t0: number, t1: number, limit: number): number[] {
  const out: number[] = [];
  const d = new Date(t0);
  if (step.unit === 'ms') {
    // steps up to 30 min divide an hour: count from the local hour's start
    const intoHour = d.getMinutes() * MIN + d.getSeconds() * SEC + d.getMilliseconds();
    for (let t = t0 - intoHour + Math.ceil(intoHour / step.ms) * step.ms; t <= t1 && out.length <= limit; t += step.ms) out.push(t);
    return out;
  }
  if (step.unit === 'hour') d.setMinutes(0, 0, 0);
  else d.setHours(0, 0, 0, 0);
  if (step.unit === 'month') d.setDate(1);
  const next = () => {
    if (step.unit === 'hour') d.setHours(d.getHours() + 1);
    else if (step.unit === 'day') d.setDate(d.getDate() + 1);
    else d.setMonth(d.getMonth() + 1);
  };
  const aligned = () =>
    step.unit === 'hour' ? d.getHours() % step.n === 0 : step.unit === 'month' ? (d.getFullYear() * 12 + d.getMonth()) % step.n === 0 : true;
  let guard = 0;
  while ((d.getTime() < t0 || !aligned()) && guard++ < 400) next();
  while (d.getTime() <= t1 && out.length <= limit) {
    out.push(d.getTime());
    for (let i = 0; i < step.n; i++) next();
  }
  return out;
}

const two = (n: number) => String(n).padStart(2, '0');
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/**
 * The labels of tick times: as precise as the step (seconds only below a minute), with the day when the
 * ticks are not all on one day and the year when not all in one year, so no two ticks read the same.
 */
export function timeLabels(times: number[], stepMs: number): string[] {
  const ds = times.map((t) => new Date(t));
  const oneDay = ds.every((d) => d.toDateString() === ds[0].toDateString());
  const oneYear = ds.every((d) => d.getFullYear() === ds[0].getFullYear());
  const day = (d: Date) => `${d.getDate()} ${MONTHS[d.getMonth()]}${oneYear ? '' : ` ${d.getFullYear()}`}`;
  const clock = (d: Date, seconds: boolean) => `${two(d.getHours())}:${two(d.getMinutes())}${seconds ? `:${two(d.getSeconds())}` : ''}`;
  return ds.map((d) => {
    if (stepMs >= MONTH) return `${MONTHS[d.getMonth()]} ${d.getFullYear()}`;
    if (stepMs >= DAY) return day(d);
    const c = clock(d, stepMs < MIN);
    return oneDay ? c : `${day(d)} ${c}`;
  });
}

/**
 * Time ticks over [t0, t1] for an axis `width` px wide: the densest round step whose labels fit side by
 * side without touching. Every label is distinct. A span too short for any round tick gets its two ends.
 */
export function timeTicks(t0: number, t1: number, width: number): Tick[] {
  if (!Number.isFinite(t0) || !Number.isFinite(t1)) return [];
  if (t1 < t0) [t0, t1] = [t1, t0];
  const fits = (labels: string[]) => labels.length * (labelWidth(labels) + GAP_PX) <= width;
  for (const step of STEPS) {
    if ((t1 - t0) / step.ms > 60) continue; // far too dense to fit
    const times = ticksOf(step, t0, t1, 60);
    if (times.length < 2) break; // coarser steps have fewer still: the ends say more
    const labels = timeLabels(times, step.ms);
    if (fits(labels) && new Set(labels).size === labels.length) return times.map((t, i) => ({ value: t, label: labels[i] }));
  }
  // too short a span for two round ticks: its ends, with seconds when they share a minute label
  const ends = t1 > t0 ? [t0, t1] : [t0];
  const labels = timeLabels(ends, t1 - t0 >= MIN ? MIN : SEC);
  const out = ends.map((t, i) => ({ value: t, label: labels[i] }));
  return out.filter((tk, i) => out.findIndex((o) => o.label === tk.label) === i);
}

/**
 * Where each time label goes on an axis from `left` to `right` px: centred on its tick, moved inside at
 * either end, and left out where it would touch a neighbour (a label moved inside is the one left out, as
 * it no longer sits on its tick). `x` is the label's centre.
 */
export function placeTimeLabels(ticks: Array<Tick & { at: number }>, left: number, right: number): Array<Tick & { x: number }> {
  const placed = ticks.map((t) => {
    const half = (t.label.length * CHAR_PX) / 2;
    const x = Math.min(right - half, Math.max(left + half, t.at));
    return { value: t.value, label: t.label, x, half, moved: Math.abs(x - t.at) > 0.5 };
  });
  const kept: typeof placed = [];
  for (const p of placed) {
    const prev = kept[kept.length - 1];
    if (prev && p.x - p.half < prev.x + prev.half + GAP_PX / 2) {
      if (prev.moved && !p.moved) kept[kept.length - 1] = p;
      continue;
    }
    kept.push(p);
  }
  return kept.map(({ value, label, x }) => ({ value, label, x }));
}
