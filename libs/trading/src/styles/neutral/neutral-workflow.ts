/**
 * The runner's decisions for a NEUTRAL futures grid (issue 32, styles/neutral/neutral.engine.ts), pure like
 * bot-workflow.ts: the engine from the bot's history, the history facts of its fills, the orders that
 * should rest, the margin its orders need, and its stop-loss. BotTask executes them with the same
 * exchange steps as a long or short ladder (place by client order id, adopt, cancel, record in one append).
 *
 * How a neutral grid's trading is written in the bot's history (the same events as a ladder, so the
 * bot page, the money view, the chart and the history read it unchanged):
 *  - an order that opens (or grows) the position, a buy below or a sell above the reference, is an
 *    OrderPlaced (role `buy`, `level` = its line, `cycle` = the line's generation) and its fill an
 *    OrderFilled, with the side it really has;
 *  - an order that answers a fill (reduce-only: a sell on or below the reference, a buy on or above it)
 *    is a TakeProfitPlaced (`tpSeq` = the generation) and its fill a TakeProfitFilled with the pair's
 *    profit, and a ProfitRealized;
 *  - the stop-loss is a StopLossStarted (recorded before anything is cancelled) and its market close's
 *    fills StopLossTriggered, as for a ladder.
 */
import type { BotConfig, RunBook, TradingEvent } from '@gridrocket/bots';
import type { Fill as ExchangeFill } from '@gridrocket/exchanges';
import { parseClientOrderId } from '../../grid/client-order-id';
import { roundMoney } from '../../grid/decimal';
import type { DesiredOrder, ExchangeOrderRef, MarketRules } from '../../grid/grid.types';
import { reconcile } from '../../grid/grid.engine';
import {
  applyNeutralFills,
  beginNeutralStopLoss,
  neutralDesiredOrders,
  neutralStopLoss,
  processNeutralFill,
  restartNeutral,
  type NeutralGridConfig,
  type NeutralState,
} from './neutral.engine';
import { toEngineFill, type RunnerAction } from '../../runner/bot-workflow';

export const isNeutral = (c: Pick<BotConfig, 'direction'>): boolean => c.direction === 'neutral';

/** A neutral bot's configuration as its engine takes it (the entry price is the grid's reference). */
export function toNeutralConfig(c: BotConfig): NeutralGridConfig {
  return {
    botType: 'Futures',
    numOfOrders: c.numOfOrders,
    orderSize: c.orderSize,
    interval: c.interval,
    entryPrice: c.entryPrice,
    takeProfit: c.takeProfit,
    leverage: c.leverage,
    direction: 'neutral',
    ...(c.stopLossPrice !== undefined ? { stopLossPrice: c.stopLossPrice } : {}),
    ...(c.stopLossPriceAbove !== undefined ? { stopLossPriceAbove: c.stopLossPriceAbove } : {}),
  };
}

/**
 * The neutral engine from the bot's history: each run continues the grid, or restarts it from its
 * reference (styles/neutral/neutral.engine.ts restartNeutral: ids above every earlier one), then applies the run's fills,
 * its stop-loss among them. Runs of another direction (before an edit to neutral) only number the ids.
 */
export function replayNeutral(runs: readonly RunBook[], rules: MarketRules, engineId: string): NeutralState {
  let engine: NeutralState | null = null;
  for (const r of runs) {
    if (!isNeutral(r.config)) continue; // a ladder run: the edit to neutral restarted the book
    if (!engine || r.restart) engine = restartNeutral(engine, toNeutralConfig(r.config), rules, engineId);
    const fills = r.fills.map((f) => ({ clientOrderId: f.clientOrderId, fillId: f.fillId, price: f.price, amount: f.amount, fee: f.fee }));
    let done = 0;
    for (const mark of r.marks ?? []) {
      engine = applyNeutralFills(engine, fills.slice(done, mark.afterFills));
      done = Math.max(done, mark.afterFills);
      if (mark.type === 'stop-loss') engine = beginNeutralStopLoss(engine, mark.price, mark.level);
    }
    engine = applyNeutralFills(engine, fills.slice(done));
  }
  if (!engine) throw new Error('A neutral bot that never started has no grid');
  return engine;
}

/** The orders that should rest now, as the runner's reconcile takes them (reduce-only ones as take-profits). */
export function neutralActive(rules: MarketRules, engine: NeutralState): DesiredOrder[] {
  return neutralDesiredOrders(rules, engine).map((o) => ({
    clientOrderId: o.clientOrderId,
    role: o.reduceOnly ? 'take-profit' : 'buy',
    side: o.side,
    type: 'limit',
    price: o.price,
    amount: o.amount,
    reduceOnly: o.reduceOnly,
    cycle: o.generation,
    level: o.line,
    tpSeq: o.generation,
  }));
}

/** The history facts of fills (exchange order) and the engine after them; the engine unchanged when none applied. */
export function decideNeutralFills(botId: string, run: number, engine: NeutralState, fills: readonly ExchangeFill[]): { engine: NeutralState; facts: TradingEvent[] } {
  const facts: TradingEvent[] = [];
  let s = engine;
  for (const f of fills) {
    const r = processNeutralFill(s, toEngineFill(f));
    s = r.state;
    const fee = { ...(f.feeAsset ? { feeAsset: f.feeAsset, feeCost: f.feeCost } : {}) };
    for (const e of r.effects) {
      if (e.type !== 'NeutralFilled') continue;
      const cycle = parseClientOrderId(e.clientOrderId)?.cycle ?? 1;
      const base = { botId, run, fillId: e.fillId, clientOrderId: e.clientOrderId, side: e.side, price: e.price, amount: e.amount, fee: e.fee, ...fee, cycle, at: f.timestamp };
      if (e.stopLoss) {
        facts.push({ type: 'StopLossTriggered', data: { ...base, loss: roundMoney(-e.profit), level: s.stopLoss?.level ?? 0 } });
        facts.push({ type: 'ProfitRealized', data: { botId, amount: e.profit, totalProfit: 0, cycle, run, fillId: e.fillId } });
      } else if (e.closed > 0) {
        facts.push({ type: 'TakeProfitFilled', data: { ...base, tpSeq: cycle, profit: e.profit } });
        facts.push({ type: 'ProfitRealized', data: { botId, amount: e.profit, totalProfit: 0, cycle, run, fillId: e.fillId } });
      } else {
        facts.push({ type: 'OrderFilled', data: { ...base, level: e.line, late: false } });
      }
    }
  }
  return { engine: s, facts };
}

/**
 * The margin the grid's opening orders still to place need plus their maker fees (the cost the form
 * shows for a neutral grid: both halves, bot-market.rules.ts gridHalves). Reduce-only orders need none.
 */
export function neutralFundsNeeded(toPlace: readonly DesiredOrder[], leverage: number, feeRate: number): { need: number; fees: number } {
  let cost = 0;
  let fees = 0;
  for (const d of toPlace) {
    if (d.reduceOnly) continue;
    cost += (d.price * d.amount) / leverage;
    fees += d.price * d.amount * feeRate;
  }
  return { need: roundMoney(cost + fees), fees: roundMoney(fees) };
}

/** What the latest price asks of a neutral grid: nothing, or its stop-loss (a position on the side whose stop was crossed). */
export function decideNeutralPrice(config: NeutralGridConfig, engine: NeutralState, price: number): { type: 'none' } | { type: 'stop-loss'; level: number } {
  if (engine.stopLoss) return { type: 'none' };
  const hit = neutralStopLoss(config, engine, price);
  return hit ? { type: 'stop-loss', level: hit.level } : { type: 'none' };
}

/** What the exchange should hold (as decideConverge for a ladder): fetch fills of closed desired orders first, else cancel, then place. */
export function decideNeutralConverge(rules: MarketRules, engine: NeutralState, open: readonly ExchangeOrderRef[], closed: ReadonlyMap<string, ExchangeOrderRef>): RunnerAction[] {
  const plan = reconcile(neutralActive(rules, engine), open, { botId: engine.botId, closed });
  if (plan.awaitingFills.length > 0) return [{ type: 'await-fills', orders: plan.awaitingFills.map((a) => a.desired) }];
  return [...plan.toCancel.map((o) => ({ type: 'cancel' as const, clientOrderId: o.clientOrderId })), ...plan.toPlace.map((order) => ({ type: 'place' as const, order }))];
}
