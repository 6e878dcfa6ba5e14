/**
 * The infinity spot grid (issue 32, docs/infinity.md): its engine is infinity.engine.ts, its workflow
 * infinity-workflow.ts. A bot whose style is 'infinity' runs it; its ladder config is the bot's unused
 * ladder fields (0), never validated nor traded. No stop-loss, trailing or re-anchor: no price step.
 */
import { roundMoney } from '../../grid/decimal';
import { infinityProblem, parseInfinityOrderId, type InfinityConfig, type InfinityState } from './infinity.engine';
import { DEFAULT_FEE_RATE, toGridConfig } from '../../runner/bot-workflow';
import { marketClose, requireBalance } from '../../runner/close-steps';
import type { GridStyle, StyleTask } from '../grid-style';
import { decideInfinityConverge, decideInfinityFills, infinityActive, infinityCloseOrder, infinityFundsNeeded, isInfinity, replayInfinity, toInfinityConfig } from './infinity-workflow';

const engineOf = (task: StyleTask) => task.engine as InfinityState;

export const infinityStyle: GridStyle<InfinityConfig, InfinityState> = {
  name: 'infinity',
  runs: isInfinity,
  engineConfig: (c) => toInfinityConfig(c),
  taskConfig: (c, botType) => toGridConfig({ ...c, stopLossPrice: undefined, direction: undefined }, botType),
  // an infinity grid's ids are its own (`-ini`, `-ib`, `-is`: infinity.engine.ts)
  ownsOrderId: (id) => parseInfinityOrderId(id) !== null,
  problem: infinityProblem,
  replay: replayInfinity,
  processedFillIds: (s) => s.processedFillIds,
  active: (_config, _ladder, rules, s) => infinityActive(rules, s),
  held: (s) => ({ sign: 1, amount: s.position.amount }), // spot: the coin it holds
  signedPosition: () => null, // spot: nothing to liquidate
  heldForClose: (s) => ({ kind: 'average', held: s.position, short: false }),
  idsUsed: (s) => s.seq,
  stopLossUnderWay: () => false, // an infinity grid has no stop-loss
  watchesPrice: () => false, // no price step of its own (no stop-loss, trailing, re-anchor)
  decideFills: (v, fills) => decideInfinityFills(v.style, v.rules, { botId: v.botId, run: v.run, base: v.base }, v.engine, fills),
  decideConverge: (v) => decideInfinityConverge(v.rules, v.engine, v.open, v.closed),
  // nor are an infinity grid's steps re-armed (issue 32): flagged, and the bot stops
  rearm: () => null,
  rearmRefused: (d, partly) => `The ${d.side} order at ${d.price} was cancelled on the exchange outside GridRocket${partly}; an infinity grid stops rather than place it again`,

  applyPrice: async () => undefined,
  afterConverge: async () => null, // no stop-loss, no stall: its steps go on while the price moves

  /**
   * An infinity grid at a start (issue 32, spot): refused when the quote of the buys it still has to place
   * (the initial buy, or the first step's buy), with their maker fees, is more than the account has. Its
   * sells need no quote: the coin they sell comes from its own buys.
   */
  async checkFunds(task) {
    const { id } = task;
    const quote = task.workflowQuote();
    const toPlace = decideInfinityConverge(task.rules, engineOf(task), [...task.open.values()], task.closed).flatMap((a) => (a.type === 'place' ? [a.order] : []));
    const { need, fees } = infinityFundsNeeded(toPlace, task.makerFee ?? DEFAULT_FEE_RATE);
    await requireBalance(
      task,
      quote,
      need,
      (available) => `Insufficient balance: the infinity grid needs ${need} ${quote} but only ${available} ${quote} is available on ${id.exchange} spot (its buys ${roundMoney(need - fees)} ${quote} plus ${fees} ${quote} of fees)`,
    );
  },

  /**
   * An infinity grid's stop with closePosition (issue 32, spot): the coin it holds sold at market under a
   * fixed id of its step (never twice). Its resting step sell holds part of that coin on the venue (Binance
   * spot's account balances are `free` and `locked`, the coin of open orders locked:
   * https://developers.binance.com/docs/binance-spot-api-docs/rest-api/account-endpoints), so it is cancelled
   * first (a stop with cancel-all has cancelled it already). Less than one amount step is left.
   */
  async closePosition(task) {
    const engine = engineOf(task);
    const close = infinityCloseOrder(task.rules, engine, task.prefix);
    if (!close) return;
    await marketClose(task, { clientOrderId: close.clientOrderId, side: 'sell', amount: close.amount, cycle: engine.seq }, async () => {
      for (const o of [...task.open.values()]) if (o.side === 'sell') await task.cancel(o.clientOrderId);
    });
  },
};
