import { useId } from 'react';
import { riskPreview, type GridConfig } from '@gridrocket/trading/grid';
import { marginTiers } from '@gridrocket/exchanges/venues';
import { parseCreateBot } from '@gridrocket/bots/domain/bot.rules';
import type { Exchange } from '../api/types';
import { Field, SelectField, NUMERIC_INPUT, fieldBinder } from '../components/Field';
import { compact, usdt } from './format';

/**
 * The "Advanced" section of the create/edit form (issue 14, docs/risk.md): optional settings beyond
 * the spec, with short helps and a live preview computed by the server's own pure functions
 * (`riskPreview` of @gridrocket/trading/grid, the venues' maintenance margin tiers). All empty = the
 * spec's bot. The form owns the values; this component renders them and says what they do.
 */

export interface AdvancedValues {
  spacing: '' | 'absolute' | 'percent';
  sizeScale: string;
  stopLossPercent: string;
  stopLossPrice: string;
  trailingDeviation: string;
  reanchor: '' | 'fixed' | 'follow';
  reanchorLimit: string;
  /** Issue 32 (grid/trail-down.ts): trail the long grid down, never below this price. */
  trailDownLimit: string;
}

export const EMPTY_ADVANCED: AdvancedValues = { spacing: '', sizeScale: '', stopLossPercent: '', stopLossPrice: '', trailingDeviation: '', reanchor: '', reanchorLimit: '', trailDownLimit: '' };

/** The bot's advanced settings as the API shows them (lowercase view fields). */
export interface AdvancedView {
  spacing?: 'absolute' | 'percent';
  sizescale?: number;
  stoplosspercent?: number;
  stoplossprice?: number;
  trailingdeviation?: number;
  reanchor?: 'fixed' | 'follow';
  reanchorlimit?: number;
  traildownlimit?: number;
}

const text = (n: number | undefined) => (n === undefined || n === null ? '' : String(n));

export function advancedFromBot(bot?: AdvancedView): AdvancedValues {
  if (!bot) return EMPTY_ADVANCED;
  return {
    spacing: bot.spacing ?? '',
    sizeScale: text(bot.sizescale),
    stopLossPercent: text(bot.stoplosspercent),
    stopLossPrice: text(bot.stoplossprice),
    trailingDeviation: text(bot.trailingdeviation),
    reanchor: bot.reanchor ?? '',
    reanchorLimit: text(bot.reanchorlimit),
    trailDownLimit: text(bot.traildownlimit),
  };
}

/**
 * The request fields: what is set; on an edit also '' for a setting the bot had and the user cleared
 * ('' turns it off). A spec bot's request is the spec's.
 */
export function advancedBody(v: AdvancedValues, before: AdvancedValues = EMPTY_ADVANCED): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  for (const [k, raw] of Object.entries(v) as [keyof AdvancedValues, string][]) {
    const value = raw.trim();
    if (value === '') {
      if (before[k] !== '') out[k] = '';
      continue;
    }
    out[k] = k === 'spacing' || k === 'reanchor' ? value : Number(value);
  }
  return out;
}

/** The settings as the engine takes them (undefined = off). */
export function advancedConfig(v: AdvancedValues): Partial<GridConfig> {
  const n = (s: string) => (s.trim() === '' ? undefined : Number(s));
  const out: Partial<GridConfig> = {};
  if (v.spacing) out.spacing = v.spacing;
  if (n(v.sizeScale) !== undefined) out.sizeScale = n(v.sizeScale);
  if (n(v.stopLossPercent) !== undefined) out.stopLossPercent = n(v.stopLossPercent);
  if (n(v.stopLossPrice) !== undefined) out.stopLossPrice = n(v.stopLossPrice);
  if (n(v.trailingDeviation) !== undefined) out.trailingDeviation = n(v.trailingDeviation);
  if (v.reanchor) out.reanchor = v.reanchor;
  if (n(v.reanchorLimit) !== undefined) out.reanchorLimit = n(v.reanchorLimit);
  if (n(v.trailDownLimit) !== undefined) out.trailDownLimit = n(v.trailDownLimit);
  return out;
}

const ADVANCED_KEYS = Object.keys(EMPTY_ADVANCED) as (keyof AdvancedValues)[];

/** The labels of the fields below, for the server's messages, which start with the field's API name. */
const ADVANCED_LABELS: Record<keyof AdvancedValues | 'interval', string> = {
  spacing: 'Spacing',
  sizeScale: 'Size scale',
  stopLossPercent: 'Stop-loss',
  stopLossPrice: 'Stop-loss price',
  trailingDeviation: 'Trailing take-profit',
  reanchor: 'Re-anchor',
  reanchorLimit: '“Follow up to”',
  trailDownLimit: '“Trail down to”',
  interval: 'Price interval',
};

/**
 * A server message in the form's words (issue 29, finding 9: "sizeScale must be …" reached the user):
 * the API name it starts with becomes the field's label.
 */
export function inFormWords(message: string): string {
  const m = /^([A-Za-z]+)\b/.exec(message);
  const label = m ? ADVANCED_LABELS[m[1] as keyof typeof ADVANCED_LABELS] : undefined;
  return label ? label + message.slice(m![1].length) : message;
}

/**
 * Field messages of the advanced settings: the server's own parse (bot.rules.ts) run on the form's
 * values, its messages for these fields kept (the cross-field ones once the grid's fields are valid).
 */
export function advancedErrors(v: AdvancedValues, base: Record<string, string>, botType: 'Spot' | 'Futures' = 'Spot'): Partial<Record<keyof AdvancedValues, string>> {
  const input: Record<string, unknown> = { botType };
  for (const [k, x] of Object.entries(base)) if (x !== '') input[k] = x;
  Object.assign(input, advancedBody(v));
  try {
    parseCreateBot(input);
    return {};
  } catch (err) {
    const list = (err as { errors?: { field: string; message: string }[] }).errors;
    if (!Array.isArray(list)) throw err;
    const out: Partial<Record<keyof AdvancedValues, string>> = {};
    for (const e of list) {
      const key = (e.field === 'interval' && /percent spacing/.test(e.message) ? 'spacing' : e.field) as keyof AdvancedValues;
      if (ADVANCED_KEYS.includes(key) && !out[key]) out[key] = inFormWords(e.message);
    }
    return out;
  }
}

interface Props {
  values: AdvancedValues;
  onChange: (v: AdvancedValues) => void;
  errors: Partial<Record<keyof AdvancedValues, string>>;
  /** The form's main fields (text as typed), for the preview. */
  grid: { botType: 'Spot' | 'Futures'; exchange: Exchange | ''; symbol: string; numOfOrders: string; orderSize: string; interval: string; entryPrice: string; takeProfit: string; leverage?: number; direction?: 'long' | 'short' };
  /** Open when the bot already has advanced settings. */
  defaultOpen?: boolean;
}

export function AdvancedSettings({ values, onChange, errors, grid, defaultOpen }: Props) {
  const idp = useId();
  const set = (k: keyof AdvancedValues, v: string) => onChange({ ...values, [k]: v });
  const bind = fieldBinder<keyof AdvancedValues>(values, set, (k) => errors[k]);
  const percent = values.spacing === 'percent';
  return (
    <details className="advanced" open={defaultOpen} data-testid="advanced">
      <summary>Advanced</summary>
      <p className="muted advanced__intro">Optional, beyond the classic grid. Leave empty for the standard bot.</p>
      <div className="bot-form__grid">
        <SelectField
          id={`${idp}-spacing`}
          label="Spacing"
          {...bind('spacing')}
          placeholder="Absolute (USDT)"
          options={[
            { value: 'absolute', label: 'Absolute (USDT)' },
            { value: 'percent', label: 'Percent (geometric)' },
          ]}
        />
        <Field id={`${idp}-scale`} label="Size scale" {...bind('sizeScale')} {...NUMERIC_INPUT} maxLength={5} hint="Each order × this (1 = equal sizes)" />
        <Field id={`${idp}-slp`} label="Stop-loss" {...bind('stopLossPercent')} {...NUMERIC_INPUT} maxLength={6} unit="%" hint="Sell everything at market this % below the average entry" />
        <Field id={`${idp}-slprice`} label="Stop-loss price" {...bind('stopLossPrice')} {...NUMERIC_INPUT} maxLength={12} hint="…or at this price (when no % is set)" />
        <Field id={`${idp}-trail`} label="Trailing take-profit" {...bind('trailingDeviation')} {...NUMERIC_INPUT} maxLength={6} unit="%" hint="Follow the price above the take-profit; sell when it falls back this %" />
        <SelectField
          id={`${idp}-reanchor`}
          label="Grid"
          {...bind('reanchor')}
          placeholder="Fixed"
          options={[
            { value: 'fixed', label: 'Fixed' },
            { value: 'follow', label: 'Follows the price' },
          ]}
        />
        {values.reanchor === 'follow' ? (
          <Field id={`${idp}-limit`} label="Follow up to" {...bind('reanchorLimit')} {...NUMERIC_INPUT} maxLength={12} hint="Never re-anchor above this price (optional)" />
        ) : null}
        {grid.direction !== 'short' ? (
          <Field id={`${idp}-trail-down`} label="Trail down to" {...bind('trailDownLimit')} {...NUMERIC_INPUT} maxLength={12} hint="When every order has filled and the price falls on, move the grid down, never below this price; the position is kept (optional)" />
        ) : null}
      </div>
      {percent ? <p className="muted">With percent spacing the price interval is a percentage: each order that % below the previous one.</p> : null}
      <AdvancedPreview values={values} grid={grid} />
    </details>
  );
}

/** The live preview: every rung's price and size, the cost, the stop level, trailing, liquidation. */
export function AdvancedPreview({ values, grid }: Pick<Props, 'values' | 'grid'>) {
  const n = Math.floor(Number(grid.numOfOrders));
  const config: GridConfig = {
    botType: grid.botType,
    numOfOrders: n,
    orderSize: Number(grid.orderSize),
    interval: Number(grid.interval),
    entryPrice: Number(grid.entryPrice),
    takeProfit: Number(grid.takeProfit),
    leverage: grid.botType === 'Futures' ? grid.leverage ?? 1 : 1,
    ...advancedConfig(values),
    ...(grid.botType === 'Futures' && grid.direction === 'short' ? { direction: 'short' as const } : {}), // issue 32: the mirrored preview
  };
  const ready = [config.orderSize, config.interval, config.entryPrice, config.takeProfit].every((x) => Number.isFinite(x) && x > 0) && n >= 1 && n <= 99;
  if (!ready) return <p className="muted" data-testid="advanced-preview">The preview appears once the grid's fields are filled in.</p>;
  const tiers = grid.botType === 'Futures' && grid.exchange && grid.symbol ? marginTiers(grid.exchange, grid.symbol).tiers : undefined;
  const p = riskPreview(config, undefined, tiers);
  return (
    <div className="advanced__preview" data-testid="advanced-preview" aria-live="polite">
      <table className="advanced__rungs">
        <caption>Orders</caption>
        <thead>
          <tr>
            <th>#</th>
            <th>Price</th>
            <th>Size</th>
          </tr>
        </thead>
        <tbody>
          {p.ladder.map((l) => (
            <tr key={l.index}>
              <td>{l.index + 1}</td>
              <td>{compact(l.price)}</td>
              <td>{compact(l.amount)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <ul className="advanced__facts">
        <li>
          Cost <strong data-testid="advanced-cost">{usdt(p.cost)} USDT</strong>, average entry when all fill {compact(p.fullAverage)}
        </li>
        {p.stopLoss !== null ? (
          <li>
            Stop-loss at <strong data-testid="advanced-stop">{compact(p.stopLoss)}</strong> (for the full ladder; it follows the average entry)
          </li>
        ) : null}
        {p.trailing ? (
          <li>
            Trailing from <strong>{compact(p.trailing.activation)}</strong>, sells {p.trailing.deviation} % below the peak
          </li>
        ) : null}
        {values.reanchor === 'follow' ? <li>Re-anchors at the market when flat and the price rose more than one interval{values.reanchorLimit ? `, up to ${values.reanchorLimit}` : ''}</li> : null}
        {values.trailDownLimit.trim() ? <li>Trails down when every order has filled and the price is more than one interval below the lowest, never below {values.trailDownLimit.trim()}; what it holds is kept, each move adds one ladder's cost</li> : null}
        {p.liquidation !== null ? (
          <li>
            Liquidation of the full ladder at {config.leverage}×:{' '}
            <strong data-testid="advanced-liquidation">{p.liquidation > 0 ? compact(p.liquidation) : 'none (its margin covers a fall to 0)'}</strong> (isolated margin)
          </li>
        ) : null}
      </ul>
      {p.liquidationRefusal ? (
        <p className="field__error" role="alert" data-testid="advanced-refusal">
          {p.liquidationRefusal}
        </p>
      ) : null}
    </div>
  );
}
