/** The ladder in the dashboard, the fallback style: a long (the spec's bot) or a short, with one take-profit. */
import type { DashboardStyle } from '../style';
import { LONG_WORDS, SHORT_WORDS } from './words';

export const SHORT_LADDER: DashboardStyle = {
  name: 'short',
  matches: (bot) => bot.direction === 'short',
  words: SHORT_WORDS,
  ladderTools: true,
  form: { offer: { futures: { label: 'Short (sells above the entry)' } } },
};

/** Every bot no other style claims (the bot form's fields are its own). */
export const LADDER: DashboardStyle = {
  name: 'ladder',
  matches: () => true,
  words: LONG_WORDS,
  ladderTools: true,
  form: {
    offer: {
      spot: {
        label: 'Ladder (buys below the entry, one take profit)',
        note: { testId: 'ladder-note', text: 'A ladder buys below the entry and sells all at the take profit; an infinity grid sells each step up and buys each step down, with no upper price.' },
      },
      futures: { label: 'Long (buys below the entry)' },
    },
  },
};
