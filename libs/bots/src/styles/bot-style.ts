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
import type { BotType, FieldError } from '@gridrocket/shared';
import type { BotConfig } from '../domain/bot.events';
import type { SettingsToSize, SizingMarket } from '../domain/bot-sizing';
import type { BotStyleName, StyleViewFields } from './registry.types';

/** A bot create body as the form's rules give it (domain/bot.rules.ts parseCreateBot, a style's parseCreate). */
export interface CreateBotInput {
  userId?: string;
  botType: BotType;
  config: BotConfig;
  /** The trader confirmed an entry above the market (not stored). */
  confirmAboveMarket?: boolean;
}

/**
 * Sizes the orders of a bot given by its investment (issue 40): what the caller's market says the
 * investment buys (bot-investment.rules.ts investmentSizer, at the market's steps and minimums): the
 * ladder's `orderSize` or a style's own field (BotStyle.sizedField). Throws a ValidationError on `investment`
 * when the investment cannot size the grid. `config`: the bot's other settings, already checked.
 */
export type OrderSizer = (config: Omit<BotConfig, 'symbol' | 'leverage' | 'takeProfit'> & { symbol?: string; leverage?: number; takeProfit?: number }, investment: number) => number;

/**
 * The options of a create body's parse (domain/bot.rules.ts parseCreateBot): the market's price step (a
 * range), the investment's sizing, and the plug-in styles' rules (libs/shared style-plugins.ts `rules`,
 * given by the server's callers: the form's rules are pure, the dashboard builds them too).
 */
export interface CreateOptions {
  priceStep?: number;
  sizeOrders?: OrderSizer;
  /** Plug-in styles' rules, asked before the built-in ones (the server passes stylePluginParts('rules')). */
  styleRules?: readonly BotStyleRules[];
}

/** A style's create rules (its config schema and field messages): all a plug-in style's `rules` part must give. */
export interface BotStyleRules {
  /** The `style` a body names. */
  readonly style: string;
  /**
   * The create body of a bot of this style: its own fields and messages (a ValidationError with field
   * errors). `ladder` parses a ladder's body with the form's rules, for a style made of a ladder's fields.
   */
  parseCreate(input: unknown, options: CreateOptions, ladder: (input: unknown, options: CreateOptions) => CreateBotInput): CreateBotInput;
  /** The style's own check of a created bot against its market's rules (one field message, null: it trades); absent: the ladder's market checks. */
  marketProblem?(config: BotConfig, rules: { priceStep: number; amountStep: number; minNotional: number; minAmount?: number }): FieldError | null;
}

export interface BotStyle extends BotStyleRules, BotStyleParts {
  /** The style's name: a bot's `style` value, or its `direction` value when `namedBy` is 'direction'. */
  readonly style: string;
  /** Which configuration field names the style. */
  readonly namedBy: 'style' | 'direction';

  // ---- form rules (issue 42): what domain/bot.rules.ts, bot-investment.rules.ts, bot-futures.rules.ts and
  // the bots controller ask of a style instead of naming it. Every member is optional: absent, the ladder's rule.

  /** The one bot type the style trades, with the message that refuses the other (a ladder direction's, on `direction`); absent: spot and futures. */
  readonly onlyBotType?: { readonly botType: BotType; readonly message: string };
  /** false: the style has no take profit of its own: not required, not held against the fees (one given is kept). */
  readonly requiresTakeProfit?: boolean;
  /** The ladder's settings a bot of this style refuses, as field messages (a ladder direction's create and edit). */
  formProblems?(v: Readonly<Record<string, unknown>>): FieldError[];
  /** The style's own checks of the stop-loss prices, in place of the ladder's checks of its stops and limits. */
  stopProblems?(grid: { entryPrice: number; interval: number; numOfOrders: number }, stops: { stopLossPrice?: unknown; stopLossPriceAbove?: unknown }): FieldError[];
  /** Why an edit of a bot of this style is refused (on `style`, by the form's rules and by the decider before any other edit check); absent: it is edited as a ladder. */
  readonly editRefusal?: string;
  /** The ladder's fields the style does not have: refused in its body; the capacity query does not ask them. */
  readonly notLadderFields?: readonly string[];
  /** The field an investment sizes (parseCreateBot sizes it before parseCreate); absent: the ladder's orderSize. */
  readonly sizedField?: string;
  /** The style's sizing of an investment (bot-investment.rules.ts investmentSizer): the sized field's value, or why it cannot. */
  sizeInvestment?(config: SettingsToSize, investment: number, market?: SizingMarket): { value: number; problem: string | null };
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
