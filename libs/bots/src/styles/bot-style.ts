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

export interface BotStyle extends BotStyleRules {
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
  /** Why an edit of a bot of this style is refused (on `style`); absent: it is edited as a ladder. */
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
