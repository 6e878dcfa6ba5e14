/**
 * The runner's decisions for an INFINITY spot grid (issue 32, docs/infinity.md, styles/infinity/infinity.engine.ts),
 * pure like bot-workflow.ts and neutral-workflow.ts: the engine from the bot's history, the history facts
 * of its fills, the orders that should rest, and the quote its buys need. BotTask executes them with the
 * same exchange steps as a ladder (place by client order id, adopt, cancel, record in one append).
 *
 * How an infinity grid's trading is written in the bot's history (the ladder's events, so the bot page,
 * the money view, the ledger's held coin and the history read it unchanged):
 *  - a buy (the initial buy `-ini`, a step down `-ib`) is an OrderPlaced (role `buy`, `cycle` = the step
 *    `seq`, `level` 0) and its fill an OrderFilled (with the net amount the account received);
 *  - a sell (a step up `-is`) is a TakeProfitPlaced (`tpSeq` = `cycle` = the step) and its fill a
 *    TakeProfitFilled with what it realised (average cost, fees included; < 0 a loss), and a ProfitRealized.
 * An infinity grid has no stop-loss, trailing or re-anchor: no price step of its own.
 */
import type { BotConfig, RunBook, TradingEvent } from '@gridrocket/bots';
import type { Fill as ExchangeFill } from '@gridrocket/exchanges';
import { floorToStep, roundMoney } from '../../grid/decimal';
import type { DesiredOrder, ExchangeOrderRef, MarketRules } from '../../grid/grid.types';
import { reconcile } from '../../grid/grid.engine';
import { applyInfinityFills, infinityDesiredOrders, infinityInitialState, processInfinityFill, type InfinityConfig, type InfinityState } from './infinity.engine';
import { toEngineFill, type RunnerAction } from '../../runner/bot-workflow';

export const isInfinity = (c: Pick<BotConfig, 'style'>): boolean => c.style === 'infinity';

/** An infinity bot's configuration as its engine takes it (bot.events.ts: its own fields beside the ladder's). */
export function toInfinityConfig(c: BotConfig): InfinityConfig {
  return {
    style: 'infinity',
    botType: 'Spot',
    entryPrice: c.entryPrice,
    stepPercent: c.stepPercent ?? 0,
    quoteValue: c.quoteValue ?? 0,
    lowerPrice: c.lowerPrice ?? 0,
    initialQuote: c.initialQuote ?? 0,
  };
}

/**
 * A new run that restarts the book (its first run, or after a cancel-all stop, an edit, a failure): the
 * grid starts again from its entry, its step numbered above every step of `previous` (the engine's bot id
 * is the bot's across runs, so an id is never used twice: a venue would refuse it, or the runner adopt the
 * old order). What `previous` held stays on the venue (the ledger still counts it); the new grid books only
 * its own fills.
 */
export function restartInfinity(previous: InfinityState | null, config: InfinityConfig, rules: MarketRules, botId: string): InfinityState {
  const s = infinityInitialState(config, rules, botId);
  return previous ? { ...s, seq: previous.seq + 1 } : s;
}

/** The infinity engine from the bot's history: each run continues the grid or restarts it, then applies the run's fills. */
export function replayInfinity(runs: readonly RunBook[], rules: MarketRules, engineId: string): InfinityState {
  let engine: InfinityState | null = null;
  for (const r of runs) {
    if (!isInfinity(r.config)) continue;
    const config = toInfinityConfig(r.config);
    if (!engine || r.restart) engine = restartInfinity(engine, config, rules, engineId);
    engine = applyInfinityFills(config, rules, engine, r.fills.map((f) => ({ clientOrderId: f.clientOrderId, fillId: f.fillId, price: f.price, amount: f.amount, fee: f.fee, ...(f.netAmount !== undefined ? { netAmount: f.netAmount } : {}) })));
  }
  if (!engine) throw new Error('An infinity bot that never started has no grid');
  return engine;
}

/** The orders that should rest now, as the runner's reconcile takes them (buys as a ladder's buys, sells as take-profits). */
export function infinityActive(rules: MarketRules, engine: InfinityState): DesiredOrder[] {
  return infinityDesiredOrders(rules, engine).map((o) => ({
    clientOrderId: o.clientOrderId,
    role: o.side === 'sell' ? 'take-profit' : 'buy',
    side: o.side,
    type: 'limit',
    price: o.price,
    amount: o.amount,
    reduceOnly: false,
    cycle: o.seq,
    level: 0,
    tpSeq: o.seq,
  }));
}

/**
 * The history facts of fills (exchange order) and the engine after them; the engine unchanged when none
 * applied. `base`: the coin, so a buy's fee taken in it gives the net amount held (bot-workflow.ts netAmount).
 */
export function decideInfinityFills(
  config: InfinityConfig,
  rules: MarketRules,
  ids: { botId: string; run: number; base?: string },
  engine: InfinityState,
  fills: readonly ExchangeFill[],
): { engine: InfinityState; facts: TradingEvent[] } {
  const { botId, run } = ids;
  const facts: TradingEvent[] = [];
  let s = engine;
  for (const f of fills) {
    const fill = toEngineFill(f, ids.base);
    const r = processInfinityFill(config, rules, s, fill);
    s = r.state;
    const kind = { ...(fill.netAmount !== undefined ? { netAmount: fill.netAmount } : {}), ...(f.feeAsset ? { feeAsset: f.feeAsset, feeCost: f.feeCost } : {}) };
    for (const e of r.effects) {
      if (e.type === 'InfinityBought') {
        facts.push({ type: 'OrderFilled', data: { botId, run, fillId: e.fillId, clientOrderId: e.clientOrderId, side: 'buy', price: e.price, amount: e.amount, fee: e.fee, ...kind, cycle: e.seq, level: 0, late: e.late, at: f.timestamp } });
      } else if (e.type === 'InfinitySold') {
        facts.push({ type: 'TakeProfitFilled', data: { botId, run, fillId: e.fillId, clientOrderId: e.clientOrderId, side: 'sell', price: e.price, amount: e.amount, fee: e.fee, ...kind, cycle: e.seq, tpSeq: e.seq, profit: e.profit, at: f.timestamp } });
        // totalProfit is decided by the bot decider (the bot's lifetime total)
        facts.push({ type: 'ProfitRealized', data: { botId, amount: e.profit, totalProfit: 0, cycle: e.seq, run, fillId: e.fillId } });
      }
    }
  }
  return { engine: s, facts };
}

/**
 * The quote the buys still to place need, with their maker fees (an upper bound: Binance spot takes a
 * buy's fee in the coin). Sells need none: the coin they sell comes from the grid's own buys.
 */
export function infinityFundsNeeded(toPlace: readonly DesiredOrder[], feeRate: number): { need: number; fees: number } {
  let cost = 0;
  let fees = 0;
  for (const d of toPlace) {
    if (d.side !== 'buy') continue;
    cost += d.price * d.amount;
    fees += d.price * d.amount * feeRate;
  }
  return { need: roundMoney(cost + fees), fees: roundMoney(fees) };
}

/**
 * What the exchange should hold (as decideConverge for a ladder): fetch fills of closed desired orders
 * first, else cancel, then place. `open` holds the bot's own orders only (BotTask.owns), so no bot id is
 * given to reconcile (its ownership test reads ladder ids).
 */
export function decideInfinityConverge(rules: MarketRules, engine: InfinityState, open: readonly ExchangeOrderRef[], closed: ReadonlyMap<string, ExchangeOrderRef>): RunnerAction[] {
  const plan = reconcile(infinityActive(rules, engine), open, { closed });
  if (plan.awaitingFills.length > 0) return [{ type: 'await-fills', orders: plan.awaitingFills.map((a) => a.desired) }];
  return [...plan.toCancel.map((o) => ({ type: 'cancel' as const, clientOrderId: o.clientOrderId })), ...plan.toPlace.map((order) => ({ type: 'place' as const, order }))];
}

/** The market sell of a stop with closePosition: what the grid holds, at the amount step, under a fixed id of its step (never twice); null when less than one step. */
export function infinityCloseOrder(rules: Pick<MarketRules, 'amountStep'>, engine: InfinityState, prefix: string): { clientOrderId: string; amount: number } | null {
  const amount = floorToStep(engine.position.amount, rules.amountStep);
  return amount > 0 ? { clientOrderId: `${prefix}${engine.seq}-close`, amount } : null;
}
