/** The ladder in the dashboard, the fallback style: a long (the spec's bot) or a short, with one take-profit. */
import type { DashboardStyle } from '../style';
import { LONG_WORDS, SHORT_WORDS } from './words';

export const SHORT_LADDER: DashboardStyle = { name: 'short', matches: (bot) => bot.direction === 'short', words: SHORT_WORDS, ladderTools: true };

/** Every bot no other style claims. */
export const LADDER: DashboardStyle = { name: 'ladder', matches: () => true, words: LONG_WORDS, ladderTools: true };
