/**
 * The bots context's registry of grid styles (issue 42): libs/bots finds a bot's style here, never by its
 * name. A built-in style is one line below; a plug-in style (libs/shared style-plugins.ts, part `rules`)
 * is asked first. The ladder (long, short) is the fallback: a bot that no style claims.
 *
 * The persisted and API values (bot.events.ts, bot.view.ts, the OpenAPI contract) are registry.types.ts's,
 * re-exported here: a built-in style adds its name there, and its line below, with its folder.
 */
import { stylePluginParts } from '@gridrocket/shared';
import { claims, type BotStyle } from './bot-style';
import { infinityBotStyle } from './infinity/infinity.bot-style';
import { neutralBotStyle } from './neutral/neutral.bot-style';

const builtIn: readonly BotStyle[] = [
  neutralBotStyle,
  infinityBotStyle,
];

export { BOT_DIRECTIONS, BOT_STYLE_NAMES, LADDER_DIRECTIONS, type BotDirection, type BotStyleName, type StyleConfigFields, type StyleViewFields } from './registry.types';

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

// A style's parts that other contexts reach through this registry, so that no file outside a style's folder
// imports it by name (issue 42): the backtest walk's body (parseInfinityBot, through @gridrocket/bots).
export { parseInfinityBot } from './infinity/infinity.rules';
