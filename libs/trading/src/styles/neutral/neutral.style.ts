/**
 * The neutral futures grid (issue 32): its engine is styles/neutral/neutral.engine.ts, its workflow neutral-workflow.ts.
 * A bot whose direction is 'neutral' runs it; its ladder config carries no risk settings (they are the
 * neutral engine's: a stop-loss below and above).
 */
import { marginTiers } from '@gridrocket/exchanges/venues';
import { floorToStep, roundMoney } from '../../grid/decimal';
import type { GridConfig } from '../../grid/grid.types';
import { beginNeutralStopLoss, neutralClose, neutralIdsUsed, neutralLiquidation, neutralProblem, neutralStopLossDone, neutralStopLossOrder, type NeutralGridConfig, type NeutralState } from './neutral.engine';
import { UnrecoverableError } from '../../runner/task-errors';
import { DEFAULT_FEE_RATE, toGridConfig } from '../../runner/bot-workflow';
import { marketClose, requireBalance } from '../../runner/close-steps';
import type { GridStyle, StyleTask } from '../grid-style';
import { neutralChartRisk } from './neutral.risk-levels';
import { decideNeutralConverge, decideNeutralFills, decideNeutralPrice, isNeutral, neutralActive, neutralFundsNeeded, replayNeutral, toNeutralConfig } from './neutral-workflow';

/** A neutral grid's average entry of what it holds (its open lots on the held side). */
export function neutralAverage(s: NeutralState): number {
  const lots = s.lots.filter((l) => (s.position > 0 ? l.side === 'long' : l.side === 'short'));
  const amount = lots.reduce((t, l) => t + l.amount, 0);
  return amount > 0 ? lots.reduce((t, l) => t + l.amount * l.price, 0) / amount : 0;
}

const engineOf = (task: StyleTask) => task.engine as NeutralState;
const configOf = (task: StyleTask) => task.styleConfig as NeutralGridConfig;

export const neutralStyle: GridStyle<NeutralGridConfig, NeutralState> = {
  name: 'neutral',
  runs: isNeutral,
  engineConfig: (c) => toNeutralConfig(c),
  chartRisk: (events, config, tiers) => neutralChartRisk(events, config, tiers),
  taskConfig: (c, botType): GridConfig => toGridConfig({ ...c, stopLossPrice: undefined, direction: undefined }, botType),
  problem: neutralProblem,
  replay: replayNeutral,
  processedFillIds: (s) => s.processedFillIds,
  active: (_config, _ladder, rules, s) => neutralActive(rules, s),
  held: (s) => ({ sign: s.position < 0 ? -1 : 1, amount: Math.abs(s.position) }),
  signedPosition: (s) => ({ amount: s.position, averageEntry: neutralAverage(s) }),
  heldForClose: (s) => ({ kind: 'engine', state: s, close: neutralClose }),
  idsUsed: neutralIdsUsed,
  stopLossUnderWay: (s) => !!s.stopLoss,
  watchesPrice: (config) => config.stopLossPrice !== undefined || config.stopLossPriceAbove !== undefined,
  decideFills: (v, fills) => decideNeutralFills(v.botId, v.run, v.engine, fills),
  decideConverge: (v) => decideNeutralConverge(v.rules, v.engine, v.open, v.closed),
  // A neutral grid's lines have no re-arm (issue 32): it is flagged, and the bot stops rather than guess.
  rearm: () => null,
  rearmRefused: (d, partly) => `The ${d.side} order at ${d.price} was cancelled on the exchange outside GridRocket${partly}; a neutral grid stops rather than place it again`,

  /**
   * A neutral grid's stop-loss (issue 32): the price beyond a stop with a position on that side. As a
   * ladder's (risk-steps.ts): every fill so far applied first, then StopLossStarted recorded BEFORE
   * anything is cancelled, so a restart finishes it; the converge then cancels every order.
   */
  async applyPrice(task) {
    const price = task.lastPrice;
    const config = configOf(task);
    if (price === null || !task.ready || task.engine === undefined) return;
    if (decideNeutralPrice(config, engineOf(task), price).type === 'none') return;
    await task.fetchMissedFills();
    const decision = decideNeutralPrice(config, engineOf(task), price);
    if (decision.type !== 'stop-loss') return;
    const next = beginNeutralStopLoss(engineOf(task), price, decision.level);
    if (!next.stopLoss) return;
    await task.recordFacts([{ type: 'StopLossStarted', data: { botId: task.botId, run: task.id.run, cycle: next.stopLoss.seq, price, level: decision.level } }]);
    task.engine = next;
  },

  /** After converge cancelled every order: the position closed at market (reduce-only, a fixed id: never twice); the reason once nothing is left. */
  async afterConverge(task) {
    const engine = engineOf(task);
    if (!engine?.stopLoss) return null;
    const close = neutralStopLossOrder(task.rules, engine);
    if (close) {
      const symbol = task.id.symbol;
      task.ensureOwned();
      const existing = await task.call(() => task.port.orderByClientId(symbol, close.clientOrderId));
      if (!existing) {
        task.ensureOwned();
        // no blind retry: an answer lost in a timeout is found by the next converge's lookup
        await task.call(() => task.port.createMarketOrder({ symbol, side: close.side, amount: close.amount, clientOrderId: close.clientOrderId, reduceOnly: true }), 0);
      }
      await task.fetchMissedFills();
    }
    const reason = neutralStopLossDone(task.rules, engineOf(task), task.workflowQuote());
    if (!reason && close) task.retryLater('waiting for the fill of the stop-loss close');
    return reason;
  },

  /**
   * A neutral grid at a start (issue 32): refused when either side's position would be liquidated before
   * its last order fills (styles/neutral/neutral.engine.ts neutralLiquidation), or when the margin of the orders it still
   * has to place, both halves and their maker fees, is more than the account has.
   */
  async checkFunds(task) {
    const { id } = task;
    const config = configOf(task);
    const problem = neutralLiquidation(config, task.rules, marginTiers(id.exchange, id.symbol).tiers).problem;
    if (problem) throw new UnrecoverableError(problem);
    const toPlace = decideNeutralConverge(task.rules, engineOf(task), [...task.open.values()], task.closed).flatMap((a) => (a.type === 'place' ? [a.order] : []));
    const { need, fees } = neutralFundsNeeded(toPlace, config.leverage, task.makerFee ?? DEFAULT_FEE_RATE);
    await requireBalance(
      task,
      'USDT',
      need,
      (available) => `Insufficient balance: the grid needs ${need} USDT but only ${available} USDT is available on ${id.exchange} futures (the orders ${roundMoney(need - fees)} USDT plus ${fees} USDT of fees)`,
    );
  },

  /** A neutral grid's stop with closePosition: what it holds, long or short, closed at market reduce-only under a fixed id (never twice). */
  async closePosition(task) {
    const engine = engineOf(task);
    const amount = floorToStep(Math.abs(engine.position), task.rules.amountStep);
    if (!(amount > 0)) return;
    const cycle = neutralIdsUsed(engine);
    await marketClose(task, { clientOrderId: `${task.prefix}${cycle}-close`, side: engine.position > 0 ? 'sell' : 'buy', amount, reduceOnly: true, cycle });
  },
};
