/**
 * A grid style (issue 42, docs: DESIGN.md "Styles and venues are plug-ins"): everything the runner needs
 * to know about one kind of grid, in the style's own folder (styles/<style>/), behind this interface and
 * one registry (registry.ts). The runner's task (runner/bot-task.ts), its set-up (runner/bot-setup.ts)
 * and the runner (runner/grid-runner.ts) know styles only through it.
 *
 * Two kinds of members:
 *  - pure ones (no I/O, no clock, no framework): the engine's configuration from the bot's, its problem on
 *    a market, the engine rebuilt from the bot's history, its desired orders, position, fills decision,
 *    converge plan and re-arm;
 *  - runner steps that act through the bot's task (`StyleTask`: its exchange port behind ownership checks
 *    and rate limits, its record): the price step (stop-loss, trailing, follow), the end of a converge
 *    (a stop-loss's close, a stalled grid), the balance check at a start and the close of a stop. They
 *    are the style's own workflow, executed in the bot's serial lane like everything a task does.
 *
 * `C` is the style's engine configuration, `S` its engine state (replaced, never mutated: compared by
 * identity to see that a fill applied).
 */
import type { BotConfig, RunBook, TradingEvent } from '@gridrocket/bots';
import type { Fill as ExchangeFill } from '@gridrocket/exchanges';
import type { DesiredOrder, ExchangeOrderRef, GridConfig, MarketRules } from '../grid/grid.types';
import type { RunnerAction, WorkflowState } from '../runner/bot-workflow';
import type { HeldForClose } from '../runner/close-fills';
import type { ExchangePort, Order } from '@gridrocket/exchanges';
import type { RiskTask } from '../runner/risk-steps';
import type { ChartEvent, ChartRisk } from '../chart/risk-levels';
import type { MaintenanceTier } from '../grid/liquidation';

/** What a style's pure decisions read of the bot now (BotTask.styleView). */
export interface StyleView<C, S> {
  botId: string;
  run: number;
  /** The style's engine configuration. */
  style: C;
  /** The bot's ladder configuration as the runner keeps it (botType, leverage; a non-ladder style's ladder fields are unused). */
  config: GridConfig;
  rules: MarketRules;
  engine: S;
  open: ExchangeOrderRef[];
  closed: ReadonlyMap<string, ExchangeOrderRef>;
  started: boolean;
  quote: string;
  base?: string;
  venue: string;
  makerFee?: number;
}

/**
 * The bot's task as a style's runner steps see it (runner/bot-task.ts BotTask; an interface, so the
 * styles and the task do not import each other). `engine` is the style's state, `styleConfig` its config.
 */
export interface StyleTask extends RiskTask {
  readonly id: { run: number; symbol: string; exchange: 'Binance' | 'Kucoin'; market: 'spot' | 'futures' };
  readonly port: ExchangePort;
  readonly prefix: string;
  readonly makerFee: number | undefined;
  readonly open: Map<string, Order>;
  readonly closed: Map<string, ExchangeOrderRef>;
  readonly style: GridStyle;
  readonly styleConfig: unknown;
  engine: unknown;
  fillsSinceMs: number;
  workflow(): WorkflowState;
  workflowQuote(): string;
  cancel(clientOrderId: string): Promise<void>;
  backoff(attempt: number): Promise<void>;
}

export interface GridStyle<C = any, S = any> {
  /** The style's name (the registry's key; backtests and messages say it). */
  readonly name: string;
  /** This style runs the bot with this configuration (the registry asks every style but its fallback). */
  runs(c: BotConfig): boolean;
  /** The engine's configuration from the bot's. */
  engineConfig(c: BotConfig, botType: 'Spot' | 'Futures'): C;
  /** The ladder configuration the runner keeps for the bot (its botType and leverage are read everywhere). */
  taskConfig(c: BotConfig, botType: 'Spot' | 'Futures'): GridConfig;
  /** A client order id under the bot's prefix that is this style's own though the ladder's parser does not read it. */
  ownsOrderId?(clientOrderId: string): boolean;
  /** Why the grid cannot trade on the market (the bot fails to start with it), null when it can. */
  problem(config: C, rules: MarketRules): string | null;
  /** The risk levels the bot's chart draws from its history (futures: with the market's margin tiers); absent: the ladder's (chart/risk-levels.ts). */
  chartRisk?(events: readonly ChartEvent[], config: C, tiers?: readonly MaintenanceTier[]): ChartRisk;
  /** The engine from the bot's history, all runs. */
  replay(runs: readonly RunBook[], rules: MarketRules, engineId: string): S;
  /** The fill ids the engine has applied. */
  processedFillIds(s: S): readonly string[];
  /** The orders that should rest now. */
  active(config: C, ladder: GridConfig, rules: MarketRules, s: S): DesiredOrder[];
  /** The side of the position and its size. */
  held(s: S): { sign: 1 | -1; amount: number };
  /** The signed position (< 0 short) and its average entry, for the liquidation watch (futures); null when the style holds none. */
  signedPosition(s: S): { amount: number; averageEntry: number } | null;
  /** What the engine holds, as a market close realises against it (close-fills.ts). */
  heldForClose(s: S): HeldForClose;
  /** The number in a close's or a liquidation's records (the ladder's cycle, the neutral grid's generation, the infinity grid's step). */
  idsUsed(s: S): number;
  /** A stop-loss is under way. */
  stopLossUnderWay(s: S): boolean;
  /** The bot watches the market price (it has a price step). */
  watchesPrice(config: C, ladder: GridConfig): boolean;
  /** The history facts of fills (exchange order) and the engine after them; the same engine (identity) when none applied. */
  decideFills(v: StyleView<C, S>, fills: readonly ExchangeFill[]): { engine: S; facts: TradingEvent[] };
  /** What the exchange should hold: await-fills first, else cancels then placements (a stalled grid: its report). */
  decideConverge(v: StyleView<C, S>): RunnerAction[];
  /** An order cancelled outside GridRocket, replaced under a new id; null: the style does not re-arm it (the bot stops with `rearmRefused`). */
  rearm(s: S, clientOrderId: string): { state: S; replacement: string } | null;
  /** Why the bot stops when an order cancelled outside GridRocket is not re-armed. */
  rearmRefused(order: { side: string; price: number }, partly: string): string;

  /** Runner step: what the latest market price asks (stop-loss, trailing, follow), recorded before it acts. */
  applyPrice(task: StyleTask): Promise<void>;
  /** Runner step after a converge: a stop-loss's close and a stalled grid; the reason the bot fails with, null to go on. */
  afterConverge(task: StyleTask): Promise<string | null>;
  /** Runner step at a start: the balance (and liquidation) check; throws UnrecoverableError with the reason. */
  checkFunds(task: StyleTask): Promise<void>;
  /** Runner step of a stop with closePosition: what the bot holds closed at market, once, and its fills recorded. */
  closePosition(task: StyleTask): Promise<void>;
}
