/** The ladder's words (the fallback style): a long buys below the entry, a short sells above it; one take-profit each. */
import type { StyleWords } from '../words';

const LADDER = {
  takeProfit: true,
  intervalNote: '',
  stopsBothSides: false,
  closingFill: { back: 'Take-profit (buy back)', sold: 'Take-profit' },
  history: { placed: 'Take-profit order placed', filled: 'Take profit filled', noun: 'take-profit', level: 'rung' },
  liquidationCase: { long: ' (every order filled)', short: ' (every order filled)' },
} as const;

export const LONG_WORDS: StyleWords = {
  ...LADDER,
  direction: 'long',
  label: 'Long',
  describe: 'Long: buys below the entry, sells above the average',
  takeProfitTitle: 'Sold at the average entry price + this %',
  opens: 'buy',
  orders: { open: 'open buys', filled: 'filled buys', closing: 'take profit (TP)', closingShort: 'TP' },
  stopping: 'cancelling the ladder, selling at market',
};

export const SHORT_WORDS: StyleWords = {
  ...LADDER,
  direction: 'short',
  label: 'Short',
  describe: 'Short: sells above the entry, buys back below the average',
  takeProfitTitle: 'Bought back at the average entry price − this %',
  opens: 'sell',
  orders: { open: 'open sells', filled: 'filled sells', closing: 'take profit (TP, buys back)', closingShort: 'TP' },
  stopping: 'cancelling the ladder, buying the short back at market',
};
