/**
 * The ladder (the spec's long grid, issue 32's short grid and trailing down, issue 14's risk settings):
 * its engine is grid/grid.engine.ts, its workflow runner/bot-workflow.ts, its price step runner/risk-steps.ts.
 * The registry's fallback: a bot that names no other style runs it.
 */
import { marginTiers } from '@gridrocket/exchanges/venues';
import { MAX_REARMS, rearmOrder } from '../../grid/grid.engine';
import type { GridConfig, GridState } from '../../grid/grid.types';
import { validateGrid } from '../../grid/ladder';
import { liquidationProblem } from '../../grid/liquidation';
import { activeOrders } from '../../grid/risk';
import { directionOf, exitSide } from '../../grid/direction';
import { floorToStep } from '../../grid/decimal';
import { UnrecoverableError } from '../../runner/task-errors';
import { decide, decideConverge, decideFills, replayBook, toGridConfig, type WorkflowState } from '../../runner/bot-workflow';
import { applyPrice, finishStopLoss, watchesPrice } from '../../runner/risk-steps';
import { belowVenueMinimum, recordCloseFills } from '../../runner/close-steps';
import type { GridStyle, StyleTask, StyleView } from '../grid-style';

const view = (v: StyleView<GridConfig, GridState>): WorkflowState => ({ ...v, config: v.style });

export const ladderStyle: GridStyle<GridConfig, GridState> = {
  name: 'ladder',
  // the fallback: it runs every bot no other style runs (registry.ts asks the others first, never this one)
  runs: () => true,
  engineConfig: (c, botType) => toGridConfig(c, botType),
  taskConfig: (c, botType) => toGridConfig(c, botType),
  problem: (config, rules) => {
    const validation = validateGrid(config, rules);
    return validation.ok ? null : validation.reason;
  },
  replay: replayBook,
  processedFillIds: (s) => s.processedFillIds,
  active: (config, _ladder, rules, s) => activeOrders(config, rules, s),
  held: (s) => ({ sign: s.direction === 'short' ? -1 : 1, amount: s.position.amount }),
  signedPosition: (s) => ({ amount: (s.direction === 'short' ? -1 : 1) * s.position.amount, averageEntry: s.position.averageEntry }),
  heldForClose: (s) => ({ kind: 'average', held: s.position, short: s.direction === 'short' }),
  idsUsed: (s) => s.cycle,
  stopLossUnderWay: (s) => !!s.stopLoss,
  watchesPrice: (config) => watchesPrice({ config }),
  decideFills(v, fills) {
    const d = decideFills(view(v), [...fills]);
    return { engine: d.state.engine, facts: d.actions.flatMap((a) => (a.type === 'record' ? a.facts : [])) };
  },
  decideConverge: (v) => decideConverge(view(v)),
  rearm: rearmOrder,
  rearmRefused: (d, partly) =>
    `The ${d.side} order at ${d.price} was cancelled on the exchange outside GridRocket${partly}, and its replacements were cancelled too (${MAX_REARMS} times); the bot stops rather than place it again`,

  applyPrice: (task: StyleTask) => applyPrice(task), // stop-loss, trailing, follow (issue 14)
  async afterConverge(task) {
    const stopped = await finishStopLoss(task);
    if (stopped) return stopped;
    // The engine's stalledReason: the grid cannot make progress on its own (BotFailed with the reason).
    for (const a of decideConverge(task.workflow())) {
      if (a.type === 'report' && 'reason' in a.report) return a.report.reason;
    }
    return null;
  },

  /** The balance must cover what the ladder still has to place, fees included (bot-workflow.ts). */
  async checkFunds(task) {
    const { id } = task;
    if (id.market === 'futures') {
      // Issue 14: a ladder whose position would be liquidated before its last rung fills does not start
      // (checked at a start only: a running bot is never stopped by it).
      const validation = validateGrid(task.config, task.rules);
      const problem = validation.ok ? liquidationProblem(validation.ladder, task.config.leverage, marginTiers(id.exchange, id.symbol).tiers, directionOf(task.config)) : null;
      if (problem) throw new UnrecoverableError(problem);
    }
    const w = task.workflow();
    task.ensureOwned();
    const balances = await task.call(() => task.port.balances());
    const available = balances.find((b) => b.symbol === w.quote)?.available ?? 0;
    for (const a of decide(w, { type: 'BalanceSeen', available }).actions) {
      if (a.type === 'report' && 'reason' in a.report) throw new UnrecoverableError(a.report.reason);
    }
  },

  /**
   * Stop with closePosition: what the bot holds is sold at market, once (its id is fixed), rounded down to
   * the amount step; futures reduce-only, spot a plain market sell (issue 29). Less than one step (dust)
   * is left alone. The close's fills are recorded (issue 40, recordCloseFills), in the stop's one append.
   */
  async closePosition(task) {
    const w = task.workflow();
    const action = decide(w, { type: 'StopRequested', cancelAllOrders: false, closePosition: true, ownOpen: [] }).actions.find((a) => a.type === 'close-position');
    const port = task.port;
    if (!action || action.type !== 'close-position') return;
    const clientOrderId = `${task.prefix}${w.engine.cycle}-close`;
    task.ensureOwned();
    let order = await task.call(() => port.orderByClientId(task.id.symbol, clientOrderId));
    if (!order) {
      task.ensureOwned();
      const amount = floorToStep(action.amount, task.rules.amountStep);
      if (!(amount > 0)) return;
      const reduceOnly = w.config.botType === 'Futures';
      if (!reduceOnly && (await belowVenueMinimum(task, amount))) return;
      // no blind retry: an answer lost in a timeout is found by the lookup of the stop's next attempt
      order = await task.call(() => port.createMarketOrder({ symbol: task.id.symbol, side: exitSide(directionOf(w.config)), amount, clientOrderId, reduceOnly }), 0);
    }
    await recordCloseFills(task, order, w.engine.cycle);
  },
};
