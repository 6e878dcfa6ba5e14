/**
 * What keeps the bot form's Save disabled (issue 40, point 7), field by field in the form's order, in the
 * words the form shows under each field (the server's messages, bot-market.rules.ts labelled): every
 * field still empty or wrong, the range, the advanced settings, a neutral grid's stops, the confirmation
 * an entry above the market needs, the name and the investment. A field a style does not use (a neutral
 * grid's take profit) is never among them.
 */
import { BOT_FIELD_LABELS, type BotFieldErrors, type BotFormField } from '@gridrocket/bots/domain/bot-market.rules';
import type { FormProblem } from '../forms/saveReasons';
import { INVESTMENT_LABEL } from './InvestmentSizing';

const LADDER_ORDER: BotFormField[] = ['exchange', 'symbol', 'entryPrice', 'numOfOrders', 'orderSize', 'interval', 'takeProfit', 'leverage'];

/** A server message that starts with the API's field name, in the form's label ("stepPercent is required" → "Step is required"). */
function worded(field: string, label: string, message: string): string {
  return message.startsWith(field) ? label + message.slice(field.length) : message;
}

export interface BotFormState {
  nameProblem: string | null;
  /**
   * A style with fields of its own in place of the ladder's (the infinity grid's): their labels in the form's
   * order, their errors, and the one the investment sizes.
   */
  ownFields: { labels: Readonly<Record<string, string>>; errors: Partial<Record<string, string>>; sized: string } | null;
  /** Whether the grid has a take profit of its own (a grid that answers each fill has none). */
  takeProfit: boolean;
  errors: BotFieldErrors;
  advErrors: Partial<Record<string, string>>;
  /** A two-sided grid's stops, its only advanced settings (else null: the advanced settings'). */
  stopErrors: { below?: string; above?: string } | null;
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
  if (s.ownFields) {
    const { labels, errors, sized } = s.ownFields;
    for (const [k, label] of Object.entries(labels)) {
      // by investment, the sized field is the investment's: its problem is the investment's
      if (k === sized && s.investment.active) {
        invested();
        continue;
      }
      const m = errors[k];
      if (m) out.push({ label, message: worded(k, label, m) });
    }
    return out;
  }
  for (const m of Object.values(s.rangeProblems)) if (m) out.push({ label: 'Price range', message: m });
  for (const k of LADDER_ORDER) {
    if (k === 'takeProfit' && !s.takeProfit) continue; // not the grid's (issue 40)
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
  if (s.stopErrors) {
    if (s.stopErrors.below) out.push({ label: 'Stop-loss below', message: s.stopErrors.below });
    if (s.stopErrors.above) out.push({ label: 'Stop-loss above', message: s.stopErrors.above });
  } else {
    for (const m of Object.values(s.advErrors)) if (m) out.push({ label: 'Advanced settings', message: m });
  }
  if (s.confirm) out.push({ label: 'Confirmation', message: `tick “${s.confirm}” (the entry is beyond the current price)` });
  return out;
}
