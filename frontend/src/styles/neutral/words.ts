/**
 * The neutral grid's words: it buys below and sells above its reference, and its engine answers each fill one
 * line away (libs/trading grid/neutral.ts), so its closing orders are answers and it has no take-profit.
 */
import type { StyleWords } from '../words';

export const NEUTRAL_WORDS: StyleWords = {
  direction: 'neutral',
  label: 'Neutral',
  describe: 'Neutral: buys below and sells above the entry, each fill answered one interval away',
  takeProfit: false,
  takeProfitTitle: '',
  intervalNote: ': each fill is answered one interval away',
  stopsBothSides: true,
  opens: 'opening',
  orders: { open: 'open buys and sells', filled: 'filled', closing: 'answers (each closes a pair)', closingShort: '' },
  closingFill: { back: 'Answer (buy)', sold: 'Answer (sell)' },
  history: { placed: 'Answer order placed', filled: 'Answer filled', noun: 'answer', level: 'line' },
  liquidationCase: { long: ' (every buy filled)', short: ' (every sell filled)' },
  stopping: 'cancelling every order, closing the position at market',
};
