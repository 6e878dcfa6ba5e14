/**
 * The infinity grid in the bot form (issue 32, docs/infinity.md): a new spot bot's Style, with its own fields
 * in place of the ladder's (form.ts: the server's messages), its preview, its sizing by investment and its
 * create body; the range setup, advanced settings, templates and backtest are the ladder's.
 */
import type { StyleForm } from '../form';
import { EMPTY_INFINITY, INFINITY_FIELD_LABELS, infinityErrors, infinityNumbers, type InfinityFormValues } from './form';
import { InfinityFields } from './FormSection';
import { InfinityPreview } from './Preview';
import { infinitySizing } from './sizing';

export const INFINITY_FORM: StyleForm = {
  offer: {
    spot: {
      label: 'Infinity (sells each step up, buys each step down)',
      note: { testId: 'infinity-note', text: 'The range setup, advanced settings, templates and backtest are for ladder bots only. An infinity bot cannot be edited: delete it and create another.' },
    },
  },
  // (an infinity bot is not edited, the server refuses it: a new one's fields start empty)
  values: { of: () => EMPTY_INFINITY },
  entryHint: 'The initial buy’s price and the first reference',
  fields: {
    labels: INFINITY_FIELD_LABELS,
    sized: 'quoteValue',
    errors: (v, rules) => infinityErrors(v as InfinityFormValues, rules),
    sizing: (v, e) =>
      infinitySizing(e.entryPrice || e.stepPercent || e.lowerPrice || e.initialQuote ? null : { entryPrice: Number(v.entryPrice), stepPercent: Number(v.stepPercent), lowerPrice: Number(v.lowerPrice), initialQuote: Number(v.initialQuote || 0) }),
    capacity: (v, e) => ({ style: 'infinity' as const, initialQuote: e.initialQuote ? '' : v.initialQuote }),
    body: (v) => ({ style: 'infinity', botType: 'Spot', ...infinityNumbers(v as InfinityFormValues) }),
    Section: InfinityFields,
    Preview: InfinityPreview,
  },
};
