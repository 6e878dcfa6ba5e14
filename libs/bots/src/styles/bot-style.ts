/**
 * A grid style as the bots context knows it (issue 42, DESIGN.md "Styles and venues are plug-ins"): the
 * form's rules, the decider's checks, the view, the capacity figures and the API schemas of one style, in
 * the style's own folder (styles/<style>/), behind this interface and one registry (registry.ts). Nothing
 * in libs/bots outside a style's folder names a style (libs/shared boundaries/style-names.spec.ts).
 *
 * A style is chosen by a bot's configuration in one of two ways (`namedBy`): its `style` field (the
 * infinity grid, a plug-in style) or the ladder's `direction` (the neutral grid, a ladder whose direction
 * is neither long nor short). The ladder (long, short) is the fallback: a bot no style claims.
 *
 * Pure: no I/O, no framework (the dashboard builds the form's parts too).
 */
import type { FieldError } from '@gridrocket/shared';
import type { BotConfig } from '../domain/bot.events';
import type { BotStyleRules } from '../domain/bot.rules';
import type { BotStyleName, StyleViewFields } from './registry.types';

export interface BotStyle extends BotStyleRules, BotStyleParts {
  /** The style's name: a bot's `style` value, or its `direction` value when `namedBy` is 'direction'. */
  readonly style: string;
  /** Which configuration field names the style. */
  readonly namedBy: 'style' | 'direction';
}

/** The style's claim on a configuration (its `style`, or its `direction`). */
export function claims(s: Pick<BotStyle, 'style' | 'namedBy'>, c: { style?: unknown; direction?: unknown }): boolean {
  return s.namedBy === 'direction' ? c.direction === s.style : c.style === s.style;
}

// ---- decider/view/capacity: what bot.decider.ts, bot.view.ts, capacity.ts and the API contract ask of a style ----

/**
 * A style's part in the bot's lifecycle, its view, its capacity figures and the API document. Each member is
 * optional: absent, the ladder's behaviour. (The parameters are typed structurally where the file that asks
 * imports this registry: capacity.ts and bot.view.ts.)
 */
export interface BotStyleParts {
  /** The refusal of an edit of a bot of this style (the decider, before any other edit check); absent or null: editable. */
  editRefusal?(c: BotConfig): FieldError | null;
  /** A style named by a direction that trades futures only: the refusal of a spot bot's edit asking for it. */
  spotRefusal?(): FieldError;
  /** What a held position of this style is called in the edit's refusal to change direction ("… holds a <word> position"). */
  readonly positionWord?: string;
  /**
   * The start warning of a bot of this style that holds a position (positionStartMessage), between what it
   * holds and the confirmation: what its start trades again (ends with a space). Absent: the ladder's text.
   */
  heldStartText?(c: BotConfig, quote: string, money: (x: number) => string): string;
  /** The bot view's fields of a bot of this style (its `style` and its own settings, bot.view.ts toBotView); absent: its `style` only. */
  viewFields?(c: BotConfig): { style: BotStyleName } & StyleViewFields;
  /**
   * The orders a start places at once and the most the bot rests at once on its symbol (capacity.ts), given
   * the grid size `rungs` (a whole number ≥ 0). Absent: the ladder's (its rungs; rungs + 1 with a take-profit).
   */
  readonly capacity?: {
    ordersAtStart(bot: { initialQuote?: number }, rungs: number): number;
    mostResting(bot: { initialQuote?: number }, rungs: number): number;
  };
  /** The style's part of the OpenAPI document (apps/api openapi/contract.ts merges every style's); fresh objects on each call. */
  apiSchemas?(): BotStyleApi;
}

/** An OpenAPI 3.0 schema object, as the document carries it (structural: libs/bots knows no apps/api type). */
export type ApiSchema = Record<string, unknown>;

export interface BotStyleApi {
  /** The named schemas the style adds to the document's components (its bodies), in the document's order. */
  readonly schemas: Readonly<Record<string, ApiSchema>>;
  /** The names among them a create body may be (POST /bots: BotsController_create's oneOf, after the ladder's). */
  readonly createBodies: readonly string[];
  /** Its backtest request (BacktestRequest's oneOf, after the ladder's), given the schema of a backtest's period. */
  backtestBody?(period: ApiSchema): ApiSchema;
}
