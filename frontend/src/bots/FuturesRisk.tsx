import { useId } from 'react';
import { marginTiers } from '@gridrocket/exchanges/venues';
import { futuresRiskErrors } from '@gridrocket/bots/domain/bot-futures.rules';
import { ladderLiquidation, PREVIEW_RULES, buildLadder, type GridConfig } from '@gridrocket/trading/grid';
import type { Exchange } from '../api/types';
import { Field, SelectField } from '../components/Field';
import { compact } from './format';
import { styleOf, wordsOf, type Direction } from '../styles/registry';

/**
 * Issue 40 (docs/risk.md "Futures risk"): a futures bot's leverage and margin mode, chosen in the form
 * (set on the venue before the bot's first order), and its liquidation prices before create, for long,
 * short and neutral grids, from the venue's margin tiers (the server's own pure functions:
 * liquidation.ts, neutral.ts, bot-futures.rules.ts). A stop-loss beyond a liquidation price is the
 * server's refusal, shown here in its words.
 */

export interface FuturesValues {
  leverage: string;
  marginMode: 'isolated' | 'cross';
}

export interface FuturesGrid {
  exchange: Exchange | '';
  symbol: string;
  direction: Direction;
  numOfOrders: string;
  orderSize: string;
  interval: string;
  entryPrice: string;
  takeProfit: string;
  /** The stops set in the form (long/short: stopLossPrice or stopLossPercent; neutral: both prices). */
  stopLossPrice?: string;
  stopLossPercent?: string;
  stopLossPriceAbove?: string;
  spacing?: 'absolute' | 'percent';
  sizeScale?: number;
}

/** The leverage as typed, or null when it is not a whole number from 1 to 125 (the server's rule, bot.rules.ts). */
export function leverageOf(v: FuturesValues): number | null {
  const n = Number(v.leverage.trim());
  return Number.isInteger(n) && n >= 1 && n <= 125 ? n : null;
}

const num = (s?: string) => (s === undefined || s.trim() === '' ? undefined : Number(s));

/** The grid as the server's rules read it (undefined while a field is not a number). */
function configOf(g: FuturesGrid, leverage: number, marginMode: 'isolated' | 'cross'): (GridConfig & { stopLossPriceAbove?: number; exchange: Exchange; symbol: string; marginMode: 'isolated' | 'cross' }) | null {
  const n = Math.floor(Number(g.numOfOrders));
  const c = { botType: 'Futures' as const, numOfOrders: n, orderSize: Number(g.orderSize), interval: Number(g.interval), entryPrice: Number(g.entryPrice), takeProfit: Number(g.takeProfit) || 1, leverage };
  if (![c.orderSize, c.interval, c.entryPrice].every((x) => Number.isFinite(x) && x > 0) || !(n >= 1 && n <= 99) || !g.exchange || !g.symbol) return null;
  return {
    ...c,
    exchange: g.exchange,
    symbol: g.symbol,
    marginMode,
    ...(g.direction !== 'long' ? { direction: g.direction as 'short' } : {}),
    ...(g.spacing ? { spacing: g.spacing } : {}),
    ...(g.sizeScale !== undefined ? { sizeScale: g.sizeScale } : {}),
    ...(num(g.stopLossPrice) !== undefined ? { stopLossPrice: num(g.stopLossPrice) } : {}),
    ...(num(g.stopLossPercent) !== undefined ? { stopLossPercent: num(g.stopLossPercent) } : {}),
    ...(num(g.stopLossPriceAbove) !== undefined ? { stopLossPriceAbove: num(g.stopLossPriceAbove) } : {}),
  };
}

/** The server's refusals of the form's stops beyond liquidation, by field (bot-futures.rules.ts futuresRiskErrors). */
export function liquidationStopErrors(g: FuturesGrid, v: FuturesValues, rules?: { priceStep: number; amountStep: number; minNotional: number } | null): Partial<Record<'stopLossPrice' | 'stopLossPercent' | 'stopLossPriceAbove', string>> {
  const leverage = leverageOf(v);
  const c = leverage === null ? null : configOf(g, leverage, v.marginMode);
  if (!c) return {};
  const out: Partial<Record<'stopLossPrice' | 'stopLossPercent' | 'stopLossPriceAbove', string>> = {};
  for (const e of futuresRiskErrors('Futures', c as never, rules)) out[e.field as keyof typeof out] ??= e.message;
  return out;
}

/** The liquidation prices of the grid's worst cases: long (all buys filled) and short (all sells filled); 0: none. */
export function liquidationPrices(g: FuturesGrid, leverage: number, rules?: { priceStep: number; amountStep: number; minNotional: number } | null): { long?: number; short?: number } | null {
  const c = configOf(g, leverage, 'isolated');
  if (!c) return null;
  const r = rules && rules.priceStep > 0 && rules.amountStep > 0 ? { priceStep: rules.priceStep, amountStep: rules.amountStep, minNotional: rules.minNotional } : PREVIEW_RULES;
  const tiers = marginTiers(c.exchange, c.symbol).tiers;
  try {
    const own = styleOf({ direction: g.direction }).liquidation;
    if (own) return own(c, r, tiers);
    const ladder = buildLadder(c, r).filter((x) => x.price > 0 && x.amount > 0);
    const full = ladderLiquidation(ladder, leverage, tiers, g.direction === 'short' ? 'short' : 'long').fullLadder;
    return g.direction === 'short' ? { short: full } : { long: full };
  } catch {
    return null;
  }
}

interface Props {
  values: FuturesValues;
  onChange: (v: FuturesValues) => void;
  grid: FuturesGrid;
  rules?: { priceStep: number; amountStep: number; minNotional: number } | null;
  /** The leverage the account has for the symbol now (positionRisk), shown as a hint. */
  accountLeverage?: number;
  editing?: boolean;
}

const shown = (x: number | undefined) => (x === undefined ? '—' : x > 0 ? compact(x) : 'none');

export function FuturesRisk({ values, onChange, grid, rules, accountLeverage }: Props) {
  const idp = useId();
  const leverage = leverageOf(values);
  const prices = leverage === null ? null : liquidationPrices(grid, leverage, rules);
  const cross = values.marginMode === 'cross';
  return (
    <fieldset className="futures-risk" aria-label="Leverage, margin and liquidation" data-testid="futures-risk">
      <legend>Leverage and liquidation</legend>
      <div className="bot-form__grid">
        <Field
          id={`${idp}-leverage`}
          label="Leverage"
          name="leverage"
          inputMode="numeric"
          autoComplete="off"
          maxLength={3}
          unit="×"
          value={values.leverage}
          onValue={(v) => onChange({ ...values, leverage: v })}
          error={values.leverage.trim() !== '' && leverage === null ? 'Leverage must be a whole number from 1 to 125' : null}
          hint={accountLeverage ? `Set on the exchange before the first order (the account has ${accountLeverage}× for this pair now)` : 'Set on the exchange before the first order'}
        />
        <SelectField
          id={`${idp}-margin`}
          label="Margin mode"
          name="marginMode"
          value={values.marginMode}
          onValue={(v) => onChange({ ...values, marginMode: v === 'cross' ? 'cross' : 'isolated' })}
          options={[
            { value: 'isolated', label: 'Isolated (this bot’s margin only)' },
            { value: 'cross', label: 'Cross (the whole futures balance)' },
          ]}
        />
      </div>
      <ul className="futures-risk__facts" aria-live="polite">
        {prices === null ? (
          <li className="muted" data-testid="liquidation-pending">The liquidation prices appear once the grid’s fields and the leverage are filled in.</li>
        ) : (
          <>
            {prices.long !== undefined ? (
              <li>
                Liquidation of the long position{wordsOf(grid.direction).liquidationCase.long}: <strong data-testid="liquidation-long">{shown(prices.long)}</strong>
              </li>
            ) : null}
            {prices.short !== undefined ? (
              <li>
                Liquidation of the short position{wordsOf(grid.direction).liquidationCase.short}: <strong data-testid="liquidation-short">{shown(prices.short)}</strong>
              </li>
            ) : null}
            <li className="muted">
              {cross
                ? 'Cross margin: the whole futures balance backs the position, so the exchange liquidates later than these prices (computed with this bot’s margin alone), or earlier if other positions lose.'
                : `Isolated margin at ${leverage}×, from ${grid.exchange}'s margin tiers; the bot warns on its page when the price comes within 10 % of it.`}
            </li>
          </>
        )}
      </ul>
    </fieldset>
  );
}
