/**
 * The investment-based form (issue 40, as on the hosted grids): the trader sets the bot by its total
 * investment in USDT and the grid sizes its orders, with the server's own sizing
 * (libs/bots/src/domain/bot-investment.rules.ts, shared): a ladder's order size (long, short, neutral) or
 * an infinity grid's value per step (libs/bots/src/styles/infinity/infinity.sizing.ts), shown with the market's minimums and the smallest investment the
 * grid takes; one too small is refused with the numbers before the save. The bot stores the investment
 * (an edit opens on it); the body sends it in place of the order size, and the server sizes again.
 */
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { investmentField } from '@gridrocket/bots/domain/bot.rules';
import { sizeLadder, type LadderToSize, type SizingMarket } from '@gridrocket/bots/domain/bot-investment.rules';
import type { MarketRulesData } from '../api/types';
import { Field } from '../components/Field';
import { usdt } from './format';

export type SizeBy = 'size' | 'investment';
export const INVESTMENT_LABEL = 'Investment (USDT)';

interface Options {
  idp: string;
  /** The stored investment of the bot being edited (the form opens on it). */
  stored?: number;
  /** The ladder's fields that place its orders, once each is valid; null until then. */
  ladder: LadderToSize | null;
  /** A style that sizes a field of its own in place of the ladder's order size (the infinity grid's value per step). */
  own?: OwnSizing | null;
  rules: MarketRulesData | null | undefined;
  /** The coin (BTC), named with amounts. */
  base: string;
  futures: boolean;
  /** The size the form holds now (the order size, or an infinity grid's value per step), as typed. */
  current: string;
  /** Writes the sized order size (or value per step) into the form; '' while the investment sizes none. */
  onSized: (size: string) => void;
}

/** What an investment sizes: the sized field's value, said in a line, the grid's smallest investment, or why not. */
export interface Sized {
  size: number;
  summary: string;
  minimum: number;
  problem: string | null;
}

/** A style's own sizing by investment (styles/<style>/): its words, and its sizer once its fields are valid (else null). */
export interface OwnSizing {
  /** The switch's choice of sizing by the field itself ("Each step’s value"). */
  sizeLabel: string;
  /** The investment field's hint (spot). */
  hint: string;
  size: ((investment: number, market: SizingMarket | undefined) => Sized) | null;
}

const fmt = (x: number) => String(Number(x.toPrecision(12)));

/** The investment's message in the form's words ("Investment (USDT) must be …"). */
function inFormWords(message: string): string {
  return message.startsWith('investment') ? INVESTMENT_LABEL + message.slice('investment'.length) : message;
}

export function useInvestment(o: Options) {
  const [sizeBy, setSizeBy] = useState<SizeBy>(o.stored !== undefined ? 'investment' : 'size');
  const [text, setText] = useState(o.stored !== undefined ? String(o.stored) : '');
  const [touched, setTouched] = useState(false);
  const active = sizeBy === 'investment';

  const parsed = useMemo(() => {
    if (text.trim() === '') return { value: null, problem: `${INVESTMENT_LABEL} is required` };
    const r = investmentField.safeParse(text.trim());
    if (!r.success) return { value: null, problem: inFormWords(r.error.issues[0].message) };
    return { value: r.data ?? null, problem: null };
  }, [text]);

  const market = o.rules ? { priceStep: o.rules.priceStep, amountStep: o.rules.amountStep, minNotional: o.rules.minNotional, minAmount: o.rules.minAmount } : undefined;
  const sizing: Sized | null = useMemo(() => {
    if (!active || parsed.value === null) return null;
    if (o.own) return o.own.size ? o.own.size(parsed.value, market) : null;
    if (!o.ladder) return null;
    const l = sizeLadder(o.ladder, parsed.value, market, o.base);
    const summary = `${fmt(l.orderSize)} ${o.base} per order × ${l.orders} orders: ${usdt(l.cost)} USDT ${o.futures ? 'of margin' : 'locked by the orders'}`;
    return { size: l.orderSize, summary, minimum: l.minimum, problem: l.problem };
  }, [active, parsed.value, o.own, o.ladder, market?.priceStep, market?.amountStep, market?.minNotional, market?.minAmount, o.base, o.futures]); // eslint-disable-line react-hooks/exhaustive-deps

  const size = sizing && !sizing.problem ? fmt(sizing.size) : '';
  // the sized order size (or value per step) is the form's, so every other check and preview reads it
  useEffect(() => {
    if (active && o.current !== size) o.onSized(size);
  }, [active, size, o.current]); // eslint-disable-line react-hooks/exhaustive-deps

  /** Why the investment does not size the grid yet (null: it does, or the grid's own fields come first). */
  const problem = !active ? null : parsed.problem ?? sizing?.problem ?? null;

  const switcher = (
    <fieldset className="setup-mode" data-testid="size-by">
      <legend>Size the orders by</legend>
      {([
        ['size', o.own?.sizeLabel ?? 'Each order’s size'],
        ['investment', 'Total investment (USDT)'],
      ] as const).map(([value, label]) => (
        <label key={value} className="setup-mode__option">
          <input type="radio" name={`${o.idp}-size-by`} value={value} checked={sizeBy === value} onChange={() => setSizeBy(value)} /> {label}
        </label>
      ))}
    </fieldset>
  );

  const minimums = o.rules
    ? `The market's minimums: amount step ${fmt(o.rules.amountStep)} ${o.base}${o.rules.minAmount ? `, minimum amount ${fmt(o.rules.minAmount)} ${o.base}` : ''}, minimum order value ${fmt(o.rules.minNotional)} USDT`
    : "The market's minimums are not known yet: the server sizes the orders at them when you save";
  const summary: ReactNode = sizing && !sizing.problem ? sizing.summary : null;

  const field = (submitted: boolean) =>
    active ? (
      <div className="investment" data-testid="investment">
        <Field
          id={`${o.idp}-investment`}
          label={INVESTMENT_LABEL}
          name="investment"
          inputMode="decimal"
          autoComplete="off"
          spellCheck={false}
          maxLength={14}
          value={text}
          onValue={setText}
          onBlur={() => setTouched(true)}
          error={submitted || touched ? problem : null}
          hint={o.futures ? 'The margin all the orders lock together' : o.own?.hint ?? 'What all the orders cost together'}
        />
        <div className="readout investment__readout" aria-live="polite" data-testid="investment-readout">
          <span className="readout__label">Sized orders</span>
          <span className="readout__value" data-testid="investment-sizing">{summary ?? '—'}</span>
          <span className="readout__sub" data-testid="investment-minimums">
            {minimums}
            {sizing && sizing.minimum > 0 ? `. Smallest investment for this grid: ${usdt(sizing.minimum)} USDT` : ''}
          </span>
        </div>
      </div>
    ) : null;

  return {
    sizeBy,
    active,
    switcher,
    field,
    problem,
    /** What the body sends: the investment in place of the size (the server sizes again). */
    body: (): { investment: number } | Record<string, never> => (active && parsed.value !== null ? { investment: parsed.value } : {}),
  };
}
