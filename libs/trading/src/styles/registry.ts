/**
 * The runner's registry of grid styles (issue 42): the runner finds a bot's style here, never by its name.
 * A built-in style is one line below; a plug-in style (a toy style of the test tree) registers with one
 * line in libs/shared style-plugins.ts, and is asked first. The ladder is the fallback, the style of a bot
 * that names no other.
 */
import type { BotConfig } from '@gridrocket/bots';
import { stylePluginParts } from '@gridrocket/shared';
import type { GridStyle } from './grid-style';
import { infinityStyle } from './infinity/infinity.style';
import { ladderStyle } from './ladder/ladder.style';
import { neutralStyle } from './neutral/neutral.style';

const registered: GridStyle[] = [
  neutralStyle,
  infinityStyle,
];

/** The style that runs a bot none of the registered styles claims. */
export const fallbackStyle: GridStyle = ladderStyle;

/** The plug-in styles (libs/shared style-plugins.ts, newest first), then the built-in ones. */
function styles(): GridStyle[] {
  return [...stylePluginParts<GridStyle>('runner'), ...registered];
}

/** The style that runs a bot with this configuration. */
export function styleFor(c: BotConfig): GridStyle {
  return styles().find((s) => s.runs(c)) ?? fallbackStyle;
}

/** Every style, the fallback last. */
export function gridStyles(): readonly GridStyle[] {
  return [...styles(), fallbackStyle];
}
