/**
 * The infinity grid's form checks and preview (issue 32, docs/infinity.md), from the server's own pure
 * code: the field messages are parseInfinityBot's (libs/bots/src/styles/infinity/infinity.rules.ts), the
 * market's limits infinityProblem's and the first orders stepOrders' (libs/trading grid/infinity.engine.ts),
 * so the form says what the server would refuse and shows the orders the runner would place.
 */
import { parseInfinityBot } from '@gridrocket/bots/styles/infinity/infinity.rules';
import { floorToStep, type MarketRules } from '@gridrocket/trading/grid';
import { infinityProblem, stepOrders, type InfinityConfig } from '@gridrocket/trading/styles/infinity';
import type { MarketRulesData } from '../../api/types';

export type InfinityField = 'entryPrice' | 'stepPercent' | 'quoteValue' | 'lowerPrice' | 'initialQuote';
export type InfinityValues = Record<InfinityField, string>;
/** With the form's market fields (what its checks read). */
export type InfinityFormValues = InfinityValues & { exchange: string; symbol: string };
/** The form's labels of the infinity grid's fields, in the form's order (what keeps Save disabled says them). */
export const INFINITY_FIELD_LABELS = { exchange: 'Exchange', symbol: 'Pair', entryPrice: 'Entry Price', stepPercent: 'Step', quoteValue: 'Value per step (USDT)', lowerPrice: 'Lower price', initialQuote: 'Initial buy (USDT, optional)' } as const;
export type InfinityErrors = Partial<Record<InfinityField | 'exchange' | 'symbol', string>>;

export const EMPTY_INFINITY: Omit<InfinityValues, 'entryPrice'> = { stepPercent: '', quoteValue: '', lowerPrice: '', initialQuote: '' };

/** The body fields as numbers (an empty initial buy is left out: the server's default, 0). */
export function infinityNumbers(v: InfinityValues): Record<string, number> {
  const out: Record<string, number> = { entryPrice: Number(v.entryPrice), stepPercent: Number(v.stepPercent), quoteValue: Number(v.quoteValue), lowerPrice: Number(v.lowerPrice) };
  if (v.initialQuote.trim() !== '') out.initialQuote = Number(v.initialQuote);
  return out;
}

/** The server's field messages (parseInfinityBot), one per field; then the market's limits (infinityProblem) once the fields are valid. */
export function infinityErrors(v: InfinityFormValues, rules: MarketRulesData | null | undefined): InfinityErrors {
  const body = { style: 'infinity', botType: 'Spot', exchange: v.exchange || undefined, symbol: v.symbol || undefined, entryPrice: v.entryPrice, stepPercent: v.stepPercent, quoteValue: v.quoteValue, lowerPrice: v.lowerPrice, ...(v.initialQuote.trim() !== '' ? { initialQuote: v.initialQuote } : {}) }; // (as the body: an empty initial buy is left out)
  let parsed;
  try {
    parsed = parseInfinityBot(body);
  } catch (err) {
    // (a ValidationError, known by its list: the dashboard imports no server entry of @gridrocket/shared, .dependency-cruiser.js)
    const list = (err as { errors?: unknown }).errors;
    if (!Array.isArray(list)) throw err;
    return Object.fromEntries((list as Array<{ field: string; message: string }>).map((e) => [e.field, e.message])) as InfinityErrors;
  }
  const r = engineRules(rules);
  if (!r) return {};
  const problem = infinityProblem({ ...parsed, style: 'infinity', botType: 'Spot' }, r);
  return problem ? { [problemField(problem)]: problem } : {};
}

/** The market's rules as the engine takes them (as the server's market check passes them), or null while unknown. */
function engineRules(rules: MarketRulesData | null | undefined): MarketRules | null {
  if (!rules || !(rules.priceStep > 0) || !(rules.amountStep > 0)) return null;
  return { priceStep: rules.priceStep, amountStep: rules.amountStep, minNotional: rules.minNotional, minAmount: rules.minAmount || undefined };
}

/** The field an infinity problem is about: the server's mapping (libs/bots application/market-check.ts infinityProblemField). */
function problemField(problem: string): InfinityField {
  if (problem.startsWith('The initial buy')) return 'initialQuote';
  if (problem.startsWith('Entry price')) return 'entryPrice';
  if (problem.startsWith('The lower price')) return 'lowerPrice';
  if (/^(The step|A step of [0-9.e+-]+ %)/.test(problem)) return 'stepPercent';
  return 'quoteValue';
}

export interface InfinityOrderPreview {
  price: number;
  amount: number;
}

export interface InfinityPreviewData {
  initial: InfinityOrderPreview | null;
  sell: InfinityOrderPreview | null;
  buy: InfinityOrderPreview | null;
  lowerPrice: number;
}

/**
 * The first orders as the engine places them (infinityInitialState, stepOrders): the initial buy of
 * ⌊initial ÷ entry⌋ coin at the entry, then (once it filled, at the entry) a sell one step up for
 * ⌊value ÷ its price⌋ coin (no more than the initial buy holds) and a buy one step down; with no
 * market rules yet, steps of 1e-8 and no minimums. Call it with valid fields only.
 */
export function infinityPreview(v: InfinityValues, rules: MarketRulesData | null | undefined): InfinityPreviewData {
  const c: InfinityConfig = { style: 'infinity', botType: 'Spot', ...(infinityNumbers(v) as Omit<InfinityConfig, 'style' | 'botType' | 'initialQuote'>), initialQuote: Number(v.initialQuote || 0) };
  const r = engineRules(rules) ?? { priceStep: 1e-8, amountStep: 1e-8, minNotional: 0 };
  const entry = floorToStep(c.entryPrice, r.priceStep);
  const initialAmount = c.initialQuote > 0 ? floorToStep(c.initialQuote / entry, r.amountStep) : 0;
  const initial = initialAmount > 0 ? { price: entry, amount: initialAmount } : null;
  const orders = stepOrders(c, r, entry, initialAmount);
  const pick = (role: string) => {
    const o = orders.find((x) => x.role === role);
    return o ? { price: o.price, amount: o.amount } : null;
  };
  return { initial, sell: pick('step-sell'), buy: pick('step-buy'), lowerPrice: c.lowerPrice };
}
