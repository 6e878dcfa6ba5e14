import { useEffect, useMemo, useState } from 'react';
import { ladderToRange, rangeToLadder, rungPrice, type RangeField, type RangeKind, type RangeLadder } from '@gridrocket/trading/grid';
import { Field, SelectField, NUMERIC_INPUT } from '../components/Field';
import { plain, usdt } from './format';

/**
 * Range setup of the bot form (issue 32, docs/range-and-templates.md): the grid given as a lower and an
 * upper price and a number of levels, arithmetic or geometric. It is the same bot as one given by its
 * entry price, grid size and interval: the range is converted by the grid engine's own function
 * (libs/trading/src/grid/range.ts, the server's too) at the market's price step, into the form's ladder
 * fields, which then show it read-only and carry every check the form makes (steps, minimums, the entry
 * above the market, the cost).
 */

export type SetupMode = 'ladder' | 'range';

export const RANGE_LABELS: Record<RangeField, string> = { lower: 'Lower price', upper: 'Upper price', levels: 'Levels', kind: 'Steps' };
export const SETUP_MODE_LABELS: Record<SetupMode, string> = { ladder: 'Entry and interval', range: 'Price range' };

/** A range message in the form's words: "Upper price must be above the lower price". */
export function rangeMessage(field: RangeField, message: string): string {
  const worded = message.startsWith(field) ? RANGE_LABELS[field] + message.slice(field.length) : message;
  return worded.replace(/ above lower$/, ' above the lower price');
}

interface RangeText {
  lower: string;
  upper: string;
  levels: string;
  kind: RangeKind;
}

interface Options {
  idp: string;
  /** The market's price step (undefined until the market's rules are known: then cents, as the preview). */
  priceStep: number | undefined;
  /** The form's ladder fields as typed, and its spacing: where the range starts from when switched on. */
  ladder: { entryPrice: string; numOfOrders: string; interval: string; spacing: '' | 'absolute' | 'percent' };
  /** Writes the ladder the range makes into the form. */
  onLadder: (ladder: RangeLadder) => void;
  /** Opens in range mode (a bot saved from a range, or the user's last choice). */
  initialMode?: SetupMode;
  /** A short futures grid sells from the range's bottom up (range.ts). */
  direction?: 'long' | 'short';
}

const num = (s: string) => (s.trim() === '' ? NaN : Number(s));

/** The range's state, its fields and whether it blocks Save. */
export function useRangeSetup({ idp, priceStep, ladder, onLadder, initialMode = 'ladder', direction = 'long' }: Options) {
  const [mode, setModeState] = useState<SetupMode>(initialMode);
  const [range, setRange] = useState<RangeText>({ lower: '', upper: '', levels: '', kind: 'arithmetic' });
  const [touched, setTouched] = useState<Partial<Record<RangeField, boolean>>>({});
  const step = priceStep && priceStep > 0 ? priceStep : 0.01;

  /** Switching to a range starts from the ladder the form holds (its range), or from its entry price alone. */
  const setMode = (next: SetupMode) => {
    if (next === 'range' && mode !== 'range') {
      const n = num(ladder.numOfOrders);
      const entry = num(ladder.entryPrice);
      const interval = num(ladder.interval);
      if (Number.isInteger(n) && n >= 2 && entry > 0 && interval > 0) {
        const r = ladderToRange({ entryPrice: entry, interval, numOfOrders: n, spacing: ladder.spacing || undefined, direction }, step);
        setRange({ lower: r.lower > 0 ? plain(r.lower) : '', upper: plain(r.upper), levels: String(r.levels), kind: r.kind });
      } else {
        setRange((v) => ({ ...v, upper: entry > 0 ? ladder.entryPrice : v.upper }));
      }
    }
    setModeState(next);
  };

  const setup = { lower: num(range.lower), upper: num(range.upper), levels: num(range.levels), kind: range.kind };
  const result = useMemo(() => (mode === 'range' ? rangeToLadder(setup, step, direction) : null), [mode, setup.lower, setup.upper, setup.levels, setup.kind, step, direction]); // eslint-disable-line react-hooks/exhaustive-deps
  const problems = useMemo(() => {
    if (!result || result.ok) return {} as Partial<Record<RangeField, string>>;
    const out: Partial<Record<RangeField, string>> = {};
    for (const p of result.problems) out[p.field] ??= rangeMessage(p.field, p.message);
    return out;
  }, [result]); // eslint-disable-line react-hooks/exhaustive-deps

  // the range writes its ladder into the form whenever it makes one
  const made = result && result.ok ? result.ladder : null;
  // (and again when something else wrote the ladder fields, e.g. the current price pre-filling the entry)
  const follows = made !== null && num(ladder.entryPrice) === made.entryPrice && num(ladder.numOfOrders) === made.numOfOrders && num(ladder.interval) === made.interval && (ladder.spacing || 'absolute') === made.spacing;
  useEffect(() => {
    if (made && !follows) onLadder(made);
  }, [made?.entryPrice, made?.interval, made?.numOfOrders, made?.spacing, follows]); // eslint-disable-line react-hooks/exhaustive-deps

  const shown = (f: RangeField, submitted: boolean) => (submitted || touched[f] ? (problems[f] ?? null) : null);
  const blur = (f: RangeField) => () => setTouched((t) => ({ ...t, [f]: true }));

  const short = direction === 'short';
  const last = made ? Math.max(0, rungPrice({ ...made, direction }, made.numOfOrders - 1)) : 0;
  const summary = made
    ? `${made.numOfOrders} ${short ? 'sell' : 'buy'} orders from ${usdt(made.entryPrice)} USDT ${short ? 'up' : 'down'} to ${usdt(last)} USDT, ` +
      (made.spacing === 'percent' ? `each ${plain(made.interval)} % ${short ? 'above' : 'below'} the previous` : `${plain(made.interval)} USDT apart`)
    : null;

  const switcher = (
    <fieldset className="setup-mode" data-testid="setup-mode">
      <legend>Set the grid by</legend>
      {(Object.keys(SETUP_MODE_LABELS) as SetupMode[]).map((m) => (
        <label key={m} className="setup-mode__option">
          <input type="radio" name={`${idp}-setup-mode`} value={m} checked={mode === m} onChange={() => setMode(m)} /> {SETUP_MODE_LABELS[m]}
        </label>
      ))}
    </fieldset>
  );

  const fields = (submitted: boolean) =>
    mode === 'range' ? (
      <div className="range-setup" data-testid="range-setup">
        <Field id={`${idp}-upper`} label={RANGE_LABELS.upper} name="upper" {...NUMERIC_INPUT} maxLength={10} value={range.upper} onValue={(v) => setRange((r) => ({ ...r, upper: v }))} onBlur={blur('upper')} error={shown('upper', submitted)} hint={short ? 'The last (highest) sell order' : 'The first (highest) buy order'} />
        <Field id={`${idp}-lower`} label={RANGE_LABELS.lower} name="lower" {...NUMERIC_INPUT} maxLength={10} value={range.lower} onValue={(v) => setRange((r) => ({ ...r, lower: v }))} onBlur={blur('lower')} error={shown('lower', submitted)} hint={short ? 'The first (lowest) sell order' : 'The last (lowest) buy order'} />
        <Field id={`${idp}-levels`} label={RANGE_LABELS.levels} name="levels" inputMode="numeric" autoComplete="off" maxLength={2} value={range.levels} onValue={(v) => setRange((r) => ({ ...r, levels: v }))} onBlur={blur('levels')} error={shown('levels', submitted)} hint={`Number of ${short ? 'sell' : 'buy'} orders, 2 to 99`} />
        <SelectField
          id={`${idp}-kind`}
          label={RANGE_LABELS.kind}
          name="kind"
          value={range.kind}
          onValue={(v) => setRange((r) => ({ ...r, kind: v as RangeKind }))}
          options={[
            { value: 'arithmetic', label: 'Arithmetic (equal steps)' },
            { value: 'geometric', label: 'Geometric (equal %)' },
          ]}
        />
        {summary ? (
          <p className="range-setup__summary" data-testid="range-summary">
            {summary}
          </p>
        ) : null}
      </div>
    ) : null;

  // (issue 40: `problems`, for the reasons a disabled Save gives)
  return { mode, setMode, switcher, fields, invalid: mode === 'range' && !made, problems: mode === 'range' ? problems : {} };
}
