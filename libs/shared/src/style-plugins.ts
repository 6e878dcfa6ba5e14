/**
 * Grid styles as plug-ins (issue 42, DESIGN.md "Styles and venues are plug-ins"): the one place a style
 * outside the built-in ones registers, with one line, every part the contexts read of it:
 *  - `runner`: its GridStyle (libs/trading styles/grid-style.ts: engine, workflow, runner steps);
 *  - `backtest`: its backtest walk (libs/backtest domain/walks/backtest-walk.ts);
 *  - `rules`: its bot form's rules (libs/bots styles/bot-style.ts BotStyleRules: config schema and field messages).
 * Each context's own table (trading styles/registry.ts, backtest styles.ts, bots styles/registry.ts) lists its
 * built-in styles and asks this registry for the plug-ins first. The parts are typed by the context that
 * reads them (this library knows none of them).
 *
 * A backtest runs in the job pool's worker threads, which share no module with the thread that
 * registered: a plug-in whose module path is in GRIDROCKET_STYLE_PLUGINS (comma-separated) is loaded by
 * loadStylePlugins, which the workers call at their start.
 */
export interface StylePlugin {
  /** The style's name, as a bot's `style` field and a backtest's `styles` name it. */
  readonly name: string;
  readonly runner?: unknown;
  readonly backtest?: unknown;
  readonly rules?: unknown;
}

const plugins = new Map<string, StylePlugin>();

/** Registers a style; the same plug-in again is a no-op (a module loaded twice); another of its name is refused. Returns its removal. */
export function registerStylePlugin(plugin: StylePlugin): () => void {
  const known = plugins.get(plugin.name);
  if (known && known !== plugin) throw new Error(`grid style ${plugin.name} is registered already`);
  plugins.set(plugin.name, plugin);
  return () => {
    if (plugins.get(plugin.name) === plugin) plugins.delete(plugin.name);
  };
}

/** The registered plug-ins' parts of one kind (newest first). */
export function stylePluginParts<T>(part: 'runner' | 'backtest' | 'rules'): T[] {
  return [...plugins.values()].reverse().flatMap((p) => (p[part] === undefined ? [] : [p[part] as T]));
}

/** The environment variable listing the modules of plug-in styles (each registers itself when loaded). */
export const STYLE_PLUGINS_ENV = 'GRIDROCKET_STYLE_PLUGINS';

/** Loads the plug-in styles listed in GRIDROCKET_STYLE_PLUGINS (absolute module paths, comma-separated). */
export function loadStylePlugins(env: NodeJS.ProcessEnv = process.env): void {
  for (const path of (env[STYLE_PLUGINS_ENV] ?? '').split(',').map((p) => p.trim()).filter(Boolean)) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    require(path);
  }
}
