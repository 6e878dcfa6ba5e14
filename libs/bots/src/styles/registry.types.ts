/**
 * The registry's values and types that the persisted and API shapes use (bot.events.ts, bot.view.ts,
 * capacity.ts, the OpenAPI contract): a file of their own, which imports no style's rules, so those
 * shapes use them without an import cycle (registry.ts re-exports them). A built-in style adds its name
 * and its fields' interface here, with its folder; like registry.ts, a registry file may name styles.
 */
import type { InfinityConfigFields, InfinityViewFields } from './infinity/infinity.fields';
import type { NeutralConfigFields } from './neutral/neutral.fields';

/** The ladder's own directions. */
export const LADDER_DIRECTIONS = ['long', 'short'] as const;
/** Every `direction` a bot may have: the ladder's, then the styles named by a direction. */
export const BOT_DIRECTIONS = [...LADDER_DIRECTIONS, 'neutral'] as const;
export type BotDirection = (typeof BOT_DIRECTIONS)[number];
/** The built-in styles named by a bot's `style` field (a plug-in's name is any other string). */
export const BOT_STYLE_NAMES = ['infinity'] as const;
export type BotStyleName = (typeof BOT_STYLE_NAMES)[number] | (string & {});

/** The built-in styles' own settings in a bot's configuration (BotConfig): each style's folder has its interface. */
export interface StyleConfigFields extends InfinityConfigFields, NeutralConfigFields {}
/** The same settings as the bot view names them (BotView). */
export interface StyleViewFields extends InfinityViewFields {}
