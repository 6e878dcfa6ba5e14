/**
 * What a grid style's words are (issue 42): the screens (card, page, chart, history, trades list) ask a bot's
 * style for them (`styleOf(bot).words`, styles/registry.ts) instead of naming a style. Each style's folder
 * fills one in; the ladder's long and short are the fallback.
 */
import type { Bot } from '../api/types';

/** The directions a bot's grid can trade (the API's `direction`). */
export type Direction = NonNullable<Bot['direction']>;

export interface StyleWords {
  /** The direction this wording is for, as the page's title line writes it ("long"). */
  direction: Direction;
  /** The card's Direction fact ("Long"). */
  label: string;
  /** The page's Direction setting, in a sentence. */
  describe: string;
  /** Whether the grid has one take-profit of its own (a grid that answers each fill has none). */
  takeProfit: boolean;
  /** The card's take-profit title. */
  takeProfitTitle: string;
  /** Added after the card's "In USDT" title of the interval. */
  intervalNote: string;
  /** Whether the page shows a stop-loss below and one above (a grid open on both sides). */
  stopsBothSides: boolean;
  /** The chart's word for an opening order ("buy", "sell", "opening"). */
  opens: string;
  /** The chart legend's words for the bot's orders. */
  orders: { open: string; filled: string; closing: string; closingShort: string };
  /** The trades list's closing fill, bought back or sold. */
  closingFill: { back: string; sold: string };
  /**
   * The history's closing order: placed, filled, its noun in a line ("take-profit sell …"), and an opening
   * order's place in the grid (`level`: "rung 1", "line 3").
   */
  history: { placed: string; filled: string; noun: string; level: string };
  /** After "Liquidation of the long position" / "… short position" in the futures risk panel. */
  liquidationCase: { long: string; short: string };
  /** The history's line when a stop-loss starts. */
  stopping: string;
}
