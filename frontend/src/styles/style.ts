/** What the dashboard asks of a grid style (issue 42): each style's folder gives one (styles/<style>/index), the registry lists them. */
import type { ComponentType } from 'react';
import type { GridConfig, MaintenanceTier, MarketRules } from '@gridrocket/trading/grid';
import type { Bot } from '../api/types';
import type { StyleForm } from './form';
import type { StyleWords } from './words';

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
  /** Where the bot form offers it and what it changes there (styles/form.ts); absent, the form does not offer it. */
  form?: StyleForm;
}
