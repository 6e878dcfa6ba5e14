/**
 * The dashboard's grid styles (issue 42): the card, the page, the chart, the history, the trades list and the
 * form ask a bot's style (`styleOf(bot)`) or a direction's words (`wordsOf(direction)`) and never name a style.
 * Each style lives in its own folder (styles/<style>/); a new style is its folder and one line below. The ladder
 * (long, short) is the fallback.
 */
import type { ComponentType } from 'react';
import type { GridConfig, MaintenanceTier, MarketRules } from '@gridrocket/trading/grid';
import type { Bot } from '../api/types';
import { INFINITY_STYLE } from './infinity';
import { LADDER, SHORT_LADDER } from './ladder';
import { NEUTRAL_STYLE } from './neutral';
import type { Direction, StyleWords } from './words';

export type { Direction, StyleWords } from './words';

/** What a bot's style looks like, as far as the screens read it. */
export type StyledBot = { style?: string | null; direction?: string | null };

export interface DashboardStyle {
  /** The style's name (the API's `style`, or the ladder direction it is). */
  name: string;
  /** Whether a bot (its `style` and `direction`) is of this style. */
  matches(bot: StyledBot): boolean;
  /** Its words on every screen. */
  words: StyleWords;
  /** Why the server refuses its edit, if it does (the edit button is then disabled with this title). */
  editRefusal?: string;
  /** Added to the page's title line ("Binance spot · infinity grid"). */
  pageTag?: string;
  /** Whether the ladder's tools (templates, copy of settings, range setup, backtest) are for it. */
  ladderTools: boolean;
  /**
   * The liquidation prices of its worst cases before create (futures), when they are not the ladder's (one
   * position, every order filled): its long and its short position's.
   */
  liquidation?: (config: GridConfig, rules: MarketRules, tiers: readonly MaintenanceTier[]) => { long?: number; short?: number };
  /** The bot card's facts, when the style has its own settings (else the ladder's facts with its words). */
  CardFacts?: ComponentType<{ bot: Bot; cur: string }>;
  /** The bot page's settings, when the style has its own. */
  PageSettings?: ComponentType<{ bot: Bot; cur: string }>;
}

/** The styles, looked up in this order (the fallback last). */
export const STYLES: readonly DashboardStyle[] = [INFINITY_STYLE, NEUTRAL_STYLE, SHORT_LADDER, LADDER];

/** The style of a bot (absent: the spec's long ladder). */
export function styleOf(bot: StyledBot | null | undefined): DashboardStyle {
  return STYLES.find((s) => bot && s.matches(bot)) ?? LADDER;
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
