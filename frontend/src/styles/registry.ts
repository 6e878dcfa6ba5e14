/**
 * The dashboard's grid styles (issue 42): the card, the page, the chart, the history, the trades list and the
 * form ask a bot's style (`styleOf(bot)`) or a direction's words (`wordsOf(direction)`) and never name a style.
 * Each style lives in its own folder (styles/<style>/); a new style is its folder and one line below. The ladder
 * (long, short) is the fallback.
 */
import { INFINITY_STYLE } from './infinity';
import { LADDER, SHORT_LADDER } from './ladder';
import { NEUTRAL_STYLE } from './neutral';
import type { Direction, StyleWords } from './words';
import type { DashboardStyle, StyledBot } from './style';

export type { Direction, StyleWords } from './words';

export type { DashboardStyle, StyledBot } from './style';

export type { StyleValues } from './form';

/** The styles, looked up in this order (the fallback last). */
export const STYLES: readonly DashboardStyle[] = [INFINITY_STYLE, NEUTRAL_STYLE, SHORT_LADDER, LADDER];

/** The style of a bot (absent: the spec's long ladder). */
export function styleOf(bot: StyledBot | null | undefined): DashboardStyle {
  return STYLES.find((s) => bot && s.matches(bot)) ?? LADDER;
}

/**
 * The styles the bot form offers in one of its selects, the fallback first (the lookup order reversed): the
 * Style select of a new spot bot, the Direction select of a futures bot.
 */
export function formOffers(where: 'spot' | 'futures'): DashboardStyle[] {
  return [...STYLES].reverse().filter((s) => s.form?.offer[where]);
}

/** The directions a bot's grid can trade, each with its words. */
const DIRECTION_WORDS: readonly StyleWords[] = [...new Set(STYLES.map((s) => s.words))];

/** The direction a bot's view says (absent or unknown: long, the spec's bot). */
export function directionOf(bot: { direction?: string | null } | null | undefined): Direction {
  return DIRECTION_WORDS.find((w) => w.direction === bot?.direction)?.direction ?? LADDER.words.direction;
}

/** The words of a direction's orders. */
export function wordsOf(direction: Direction | string | undefined): StyleWords {
  return DIRECTION_WORDS.find((w) => w.direction === direction) ?? LADDER.words;
}
