import { Field, NUMERIC_INPUT } from '../../components/Field';
import type { StopsForm, StopsSectionProps, StyleValues } from '../form';

/** A neutral grid's two stops as the form holds them (typed text; '' = none). */
export type NeutralStopValues = { below: string; above: string };

/** The neutral grid's stop-loss fields (its only advanced settings): below its lowest buy, above its highest sell. */
function NeutralStops({ idp, values: stops, onField, errors }: StopsSectionProps) {
  return (
    <fieldset className="bot-form__stops" aria-label="Stop-loss of a neutral grid" data-testid="neutral-stops">
      <legend>Stop-loss (optional)</legend>
      <Field id={`${idp}-sl-below`} label="Stop-loss below" name="stopLossPrice" {...NUMERIC_INPUT} maxLength={12} unit="USDT" value={stops.below} onValue={(v) => onField('below', v)} error={errors.below ?? null} hint="With a long position, the price at or below this closes it at market and stops the bot" />
      <Field id={`${idp}-sl-above`} label="Stop-loss above" name="stopLossPriceAbove" {...NUMERIC_INPUT} maxLength={12} unit="USDT" value={stops.above} onValue={(v) => onField('above', v)} error={errors.above ?? null} hint="With a short position, the price at or above this closes it at market and stops the bot" />
    </fieldset>
  );
}

/**
 * A neutral grid's stops (issue 32; the server's rule, bot.rules.ts): below the lowest buy
 * (entry − grid size × interval) and above the highest sell (entry + grid size × interval).
 */
export function neutralStopErrors(stops: { below: string; above: string }, v: { entryPrice: string; numOfOrders: string; interval: string }): { below?: string; above?: string } {
  const out: { below?: string; above?: string } = {};
  const entry = Number(v.entryPrice);
  const n = Number(v.numOfOrders);
  const step = Number(v.interval);
  const known = [entry, n, step].every((x) => Number.isFinite(x) && x > 0);
  const lowest = Number((entry - n * step).toPrecision(12));
  const highest = Number((entry + n * step).toPrecision(12));
  if (stops.below.trim() !== '') {
    const x = Number(stops.below);
    if (!(Number.isFinite(x) && x > 0)) out.below = 'Stop-loss below must be a price greater than 0';
    else if (known && x >= lowest) out.below = `Stop-loss below must be below the lowest buy (${lowest})`;
  }
  if (stops.above.trim() !== '') {
    const x = Number(stops.above);
    if (!(Number.isFinite(x) && x > 0)) out.above = 'Stop-loss above must be a price greater than 0';
    else if (known && x <= highest) out.above = `Stop-loss above must be above the highest sell (${highest})`;
  }
  return out;
}

/** The stops as the body sends them: set ones as numbers; one cleared in an edit as '' (turns it off). */
export function neutralStopsBody(stops: { below: string; above: string }, before: { below: string; above: string }): Record<string, number | string> {
  const out: Record<string, number | string> = {};
  if (stops.below.trim() !== '') out.stopLossPrice = Number(stops.below);
  else if (before.below !== '') out.stopLossPrice = '';
  if (stops.above.trim() !== '') out.stopLossPriceAbove = Number(stops.above);
  else if (before.above !== '') out.stopLossPriceAbove = '';
  return out;
}

const asStops = (v: StyleValues) => v as NeutralStopValues;

/** The bot form's stops of a neutral grid, in place of the advanced settings (styles/form.ts StopsForm). */
export const NEUTRAL_STOPS: StopsForm = {
  Section: NeutralStops,
  errors: (v, ladder, liq) => ({ ...neutralStopErrors(asStops(v), ladder), ...(liq.stopLossPrice ? { below: liq.stopLossPrice } : {}), ...(liq.stopLossPriceAbove ? { above: liq.stopLossPriceAbove } : {}) }),
  grid: (v) => ({ stopLossPrice: v.below, stopLossPriceAbove: v.above }),
  body: (v, before) => neutralStopsBody(asStops(v), asStops(before)),
};
