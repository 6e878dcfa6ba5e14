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
import type { BotStyleRules } from '../domain/bot.rules';

export interface BotStyle extends BotStyleRules {
  /** The style's name: a bot's `style` value, or its `direction` value when `namedBy` is 'direction'. */
  readonly style: string;
  /** Which configuration field names the style. */
  readonly namedBy: 'style' | 'direction';
}

/** The style's claim on a configuration (its `style`, or its `direction`). */
export function claims(s: Pick<BotStyle, 'style' | 'namedBy'>, c: { style?: unknown; direction?: unknown }): boolean {
  return s.namedBy === 'direction' ? c.direction === s.style : c.style === s.style;
}
