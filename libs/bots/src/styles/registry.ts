/**
 * The bots context's registry of grid styles (issue 42): libs/bots finds a bot's style here, never by its
 * name. A built-in style is one line below; a plug-in style (libs/shared style-plugins.ts, part `rules`)
 * is asked first. The ladder (long, short) is the fallback: a bot that no style claims.
 *
 * The type unions below are the persisted and API values (bot.events.ts, bot.view.ts, the OpenAPI
 * contract): a built-in style adds its name here, with its folder.
 */
import { stylePluginParts } from '@gridrocket/shared';
import { claims, type BotStyle } from './bot-style';
import { infinityBotStyle } from './infinity/infinity.bot-style';
import { neutralBotStyle } from './neutral/neutral.bot-style';

const builtIn: readonly BotStyle[] = [
  neutralBotStyle,
  infinityBotStyle,
];

/** The ladder's own directions. */
export const LADDER_DIRECTIONS = ['long', 'short'] as const;
/** Every `direction` a bot may have: the ladder's, then the styles named by a direction. */
export const BOT_DIRECTIONS = ['long', 'short', 'neutral'] as const;
export type BotDirection = (typeof BOT_DIRECTIONS)[number];
/** The built-in styles named by a bot's `style` field (a plug-in's name is any other string). */
export const BOT_STYLE_NAMES = ['infinity'] as const;
export type BotStyleName = (typeof BOT_STYLE_NAMES)[number] | (string & {});

/** Every style: the plug-ins (newest first), then the built-in ones. */
export function botStyles(): readonly BotStyle[] {
  return [...stylePluginParts<BotStyle>('rules'), ...builtIn];
}

/** The style of a bot with this configuration; undefined: the ladder. */
export function botStyleOf(c: { style?: unknown; direction?: unknown }): BotStyle | undefined {
  return botStyles().find((s) => claims(s, c));
}

/** The built-in styles alone (the form's default choices; a plug-in's rules come with the caller's options). */
export function builtInBotStyles(): readonly BotStyle[] {
  return builtIn;
}

// Style parts that callers reach through the registry, so that no file outside a style's folder imports it
// by name (issue 42): the backtest's body (parseInfinityBot, through @gridrocket/bots), and the decider's
// refusals (through bot.rules.ts, until the decider imports them from the styles' folders).
export { INFINITY_EDIT_MESSAGE, INFINITY_SPOT_MESSAGE, parseInfinityBot, type InfinityBotInput } from './infinity/infinity.rules';
export { NEUTRAL_SPOT_MESSAGE } from './neutral/neutral.rules';
