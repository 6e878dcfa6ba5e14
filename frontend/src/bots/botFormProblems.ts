/**
 * What keeps the bot form's Save disabled (issue 40, point 7), field by field in the form's order, in the
 * words the form shows under each field (the server's messages, bot-market.rules.ts labelled): every
 * field still empty or wrong, the range, the advanced settings, a neutral grid's stops, the confirmation
 * an entry above the market needs, the name and the investment. A field a style does not use (a neutral
 * grid's take profit) is never among them.
 */
import { BOT_FIELD_LABELS, type BotFieldErrors, type BotFormField } from '@gridrocket/bots/domain/bot-market.rules';
import type { FormProblem } from '../forms/saveReasons';
import type { InfinityErrors } from '../styles/infinity/form';
import { INVESTMENT_LABEL } from './InvestmentSizing';

const LADDER_ORDER: BotFormField[] = ['exchange', 'symbol', 'entryPrice', 'numOfOrders', 'orderSize', 'interval', 'takeProfit', 'leverage'];
const INFINITY_LABELS = { exchange: 'Exchange', symbol: 'Pair', entryPrice: 'Entry Price', stepPercent: 'Step', quoteValue: 'Value per step (USDT)', lowerPrice: 'Lower price', initialQuote: 'Initial buy (USDT, optional)' } as const;

/** A server message that starts with the API's field name, in the form's label ("stepPercent is required" → "Step is required"). */
function worded(field: string, label: string, message: string): string {
  return message.startsWith(field) ? label + message.slice(field.length) : message;
}

export interface BotFormState {
  nameProblem: string | null;
  infinity: boolean;
  neutral: boolean;
  errors: BotFieldErrors;
  infErrors: InfinityErrors;
  advErrors: Partial<Record<string, string>>;
  stopErrors: { below?: string; above?: string };
  rangeProblems: Partial<Record<string, string>>;
  /** The bot's own leverage as typed, when it is not one the server takes (FuturesRisk.tsx). */
  leverageProblem: string | null;
  /** The entry above the market waits for its confirmation: the checkbox's label. */
  confirm: string | null;
  investment: { active: boolean; problem: string | null };
}

export function botFormProblems(s: BotFormState): FormProblem[] {
  const out: FormProblem[] = [];
  if (s.nameProblem) out.push({ label: 'Name', message: worded('name', 'Name', s.nameProblem) });
  const invested = () => {
    if (s.investment.problem) out.push({ label: INVESTMENT_LABEL, message: s.investment.problem });
  };
  if (s.infinity) {
    for (const k of Object.keys(INFINITY_LABELS) as (keyof typeof INFINITY_LABELS)[]) {
      // by investment, the value per step is the investment's: its problem is the investment's
      if (k === 'quoteValue' && s.investment.active) {
        invested();
        continue;
      }
      const m = s.infErrors[k];
      if (m) out.push({ label: INFINITY_LABELS[k], message: worded(k, INFINITY_LABELS[k], m) });
    }
    return out;
  }
  for (const m of Object.values(s.rangeProblems)) if (m) out.push({ label: 'Price range', message: m });
  for (const k of LADDER_ORDER) {
    if (k === 'takeProfit' && s.neutral) continue; // not a neutral grid's (issue 40)
    const m = s.errors[k];
    if (k === 'orderSize' && s.investment.active) {
      invested();
      // (an order size the investment sized that the market still refuses, e.g. above its maximum, is said too)
      if (m && !/is required$/.test(m)) out.push({ label: BOT_FIELD_LABELS.orderSize, message: m });
      continue;
    }
    if (m) out.push({ label: BOT_FIELD_LABELS[k], message: m });
  }
  if (s.leverageProblem) out.push({ label: BOT_FIELD_LABELS.leverage, message: s.leverageProblem });
  if (s.neutral) {
    if (s.stopErrors.below) out.push({ label: 'Stop-loss below', message: s.stopErrors.below });
    if (s.stopErrors.above) out.push({ label: 'Stop-loss above', message: s.stopErrors.above });
  } else {
    for (const m of Object.values(s.advErrors)) if (m) out.push({ label: 'Advanced settings', message: m });
  }
  if (s.confirm) out.push({ label: 'Confirmation', message: `tick “${s.confirm}” (the entry is beyond the current price)` });
  return out;
}
