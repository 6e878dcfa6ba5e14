/**
 * What a start, a resume and a stop do before and after the loop: the task built from the bot's
 * stream, the venue's rules and the engine rebuilt from the history, futures leverage/margin/position
 * mode, the balance check (decided by the workflow), and closing a futures position at a stop.
 */
import type { ExchangeMode, ExchangeProvider } from '@gridrocket/exchanges';
import { validateGrid } from '../grid/ladder';
import { liquidationProblem } from '../grid/liquidation';
import { directionOf, exitSide } from '../grid/direction';
import { marginTiers } from '@gridrocket/exchanges/venues';
import { floorToStep } from '../grid/decimal';
import { BotTask, UnrecoverableError, toGridRules, type TaskHost } from './bot-task';
import { decide, DEFAULT_FEE_RATE, toGridConfig } from './bot-workflow';
import { neutralIdsUsed, neutralLiquidation, neutralProblem, type NeutralGridConfig, type NeutralState } from '../grid/neutral';
import { roundMoney } from '../grid/decimal';
import { decideNeutralConverge, neutralFundsNeeded, toNeutralConfig } from './neutral-workflow';
import type { BotRun } from './bot-stream';
import { infinityProblem, type InfinityState } from '../grid/infinity.engine';
import { decideInfinityConverge, infinityCloseOrder, infinityFundsNeeded, toInfinityConfig } from './infinity-workflow';

export function newTask(info: BotRun, host: TaskHost, mode: ExchangeMode): BotTask {
  const b = info.bot;
  const c = b.config;
  // a neutral grid (issue 32) runs its own engine: its ladder config carries no risk settings (they are the neutral engine's)
  const neutral = c.direction === 'neutral' ? toNeutralConfig(c) : undefined;
  // an infinity grid (issue 32) too: its ladder config is the bot's unused ladder fields (0), never validated nor traded
  const infinity = c.style === 'infinity' ? toInfinityConfig(c) : undefined;
  const config = neutral || infinity ? toGridConfig({ ...c, stopLossPrice: undefined, direction: undefined }, b.botType) : toGridConfig(c, b.botType);
  const task = new BotTask(
    {
      botId: b.botId,
      userId: b.userId,
      run: b.run,
      correlationId: info.runEvent.metadata.correlationId,
      causationId: info.runEvent.id,
      exchange: c.exchange,
      market: b.botType === 'Futures' ? 'futures' : 'spot',
      symbol: c.symbol,
      config,
      ...(neutral ? { neutral } : {}),
      ...(infinity ? { infinity } : {}),
    },
    host,
  );
  task.fillsSinceMs = fillsSince(info, mode);
  task.runEvent = info.runEvent;
  return task;
}

/**
 * Exchange time from which the bot may have missed fills: its last recorded fill, else its first
 * placement of the run, else the run's start — the wall clock of the start request on a live venue,
 * whose clock it is; the paper venue keeps its feed's time, which only its placements give, and has
 * no time windows (1). Never 0 (issue 10 finding 1).
 */
export function fillsSince(info: BotRun, mode: ExchangeMode): number {
  const t = info.bot.trading;
  if (t.lastFillAt >= 0) return t.lastFillAt;
  if (t.firstPlacedAt >= 0) return t.firstPlacedAt;
  if (mode !== 'paper') return Date.parse(info.runEvent.metadata.occurredAt);
  return 1;
}

/** The port, the market's rules (validated), the fee rate, and the engine rebuilt from the recorded fills. */
export async function prepare(task: BotTask, info: BotRun, exchanges: ExchangeProvider): Promise<void> {
  const { id } = task;
  task.port = await exchanges.for({ userId: id.userId, exchange: id.exchange, market: id.market });
  const market = await task.call(() => task.port.marketRules(id.symbol));
  const rules = toGridRules(market);
  if (id.neutral) {
    const problem = neutralProblem(id.neutral, rules);
    if (problem) throw new UnrecoverableError(problem);
  } else if (id.infinity) {
    const problem = infinityProblem(id.infinity, rules);
    if (problem) throw new UnrecoverableError(problem);
  } else {
    const validation = validateGrid(task.config, rules);
    if (!validation.ok) throw new UnrecoverableError(validation.reason);
  }
  task.makerFee = market.makerFee;
  task.rebuild(rules, info.bot.trading.runs);
}

export const HEDGE_MODE_REFUSED = (exchange: string) =>
  `The ${exchange} futures account is in hedge mode: GridRocket trades in one-way mode only. Switch the account to one-way mode and start the bot again`;

/**
 * Futures, on every start AND resume: refuse an account in hedge mode (its orders would need a
 * position side; see docs/runner.md), then set the leverage with isolated margin.
 */
export async function prepareFutures(task: BotTask): Promise<void> {
  const { id, port } = task;
  if (id.market !== 'futures') return;
  task.ensureOwned();
  if ((await task.call(() => port.positionMode())) === 'hedge') throw new UnrecoverableError(HEDGE_MODE_REFUSED(id.exchange));
  task.ensureOwned();
  await task.call(() => port.setLeverage(id.symbol, task.config.leverage, 'isolated'));
}

/** The balance must cover what the ladder still has to place, fees included (bot-workflow.ts). */
export async function checkFunds(task: BotTask): Promise<void> {
  const { id } = task;
  if (id.neutral) return checkNeutralFunds(task, id.neutral);
  if (id.infinity) return checkInfinityFunds(task);
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
}

/**
 * A neutral grid at a start (issue 32): refused when either side's position would be liquidated before
 * its last order fills (grid/neutral.ts neutralLiquidation), or when the margin of the orders it still
 * has to place, both halves and their maker fees, is more than the account has.
 */
async function checkNeutralFunds(task: BotTask, config: NeutralGridConfig): Promise<void> {
  const { id } = task;
  const problem = neutralLiquidation(config, task.rules, marginTiers(id.exchange, id.symbol).tiers).problem;
  if (problem) throw new UnrecoverableError(problem);
  const toPlace = decideNeutralConverge(task.rules, task.neutral!, [...task.open.values()], task.closed).flatMap((a) => (a.type === 'place' ? [a.order] : []));
  const { need, fees } = neutralFundsNeeded(toPlace, config.leverage, task.makerFee ?? DEFAULT_FEE_RATE);
  if (need <= 0) return;
  task.ensureOwned();
  const balances = await task.call(() => task.port.balances());
  const available = balances.find((b) => b.symbol === 'USDT')?.available ?? 0;
  if (available < need) {
    throw new UnrecoverableError(
      `Insufficient balance: the grid needs ${need} USDT but only ${roundMoney(available)} USDT is available on ${id.exchange} futures (the orders ${roundMoney(need - fees)} USDT plus ${fees} USDT of fees)`,
    );
  }
}

/**
 * An infinity grid at a start (issue 32, spot): refused when the quote of the buys it still has to place
 * (the initial buy, or the first step's buy), with their maker fees, is more than the account has. Its
 * sells need no quote: the coin they sell comes from its own buys.
 */
async function checkInfinityFunds(task: BotTask): Promise<void> {
  const { id } = task;
  const quote = task.workflowQuote();
  const toPlace = decideInfinityConverge(task.rules, task.infinity!, [...task.open.values()], task.closed).flatMap((a) => (a.type === 'place' ? [a.order] : []));
  const { need, fees } = infinityFundsNeeded(toPlace, task.makerFee ?? DEFAULT_FEE_RATE);
  if (need <= 0) return;
  task.ensureOwned();
  const balances = await task.call(() => task.port.balances());
  const available = balances.find((b) => b.symbol === quote)?.available ?? 0;
  if (available < need) {
    throw new UnrecoverableError(
      `Insufficient balance: the infinity grid needs ${need} ${quote} but only ${roundMoney(available)} ${quote} is available on ${id.exchange} spot (its buys ${roundMoney(need - fees)} ${quote} plus ${fees} ${quote} of fees)`,
    );
  }
}

/**
 * Stop with closePosition: what the bot holds is sold at market, once (its id is fixed), rounded down to
 * the amount step; futures reduce-only, spot a plain market sell (issue 29). Less than one step (dust)
 * is left alone.
 */
export async function closePosition(task: BotTask): Promise<void> {
  if (task.neutral) return closeNeutralPosition(task, task.neutral);
  if (task.infinity) return closeInfinityPosition(task, task.infinity);
  const w = task.workflow();
  const action = decide(w, { type: 'StopRequested', cancelAllOrders: false, closePosition: true, ownOpen: [] }).actions.find((a) => a.type === 'close-position');
  const port = task.port;
  if (!action || action.type !== 'close-position') return;
  const clientOrderId = `${task.prefix}${w.engine.cycle}-close`;
  task.ensureOwned();
  if (await task.call(() => port.orderByClientId(task.id.symbol, clientOrderId))) return;
  task.ensureOwned();
  const amount = floorToStep(action.amount, task.rules.amountStep);
  if (!(amount > 0)) return;
  const reduceOnly = w.config.botType === 'Futures';
  await task.call(() => port.createMarketOrder({ symbol: task.id.symbol, side: exitSide(directionOf(w.config)), amount, clientOrderId, reduceOnly }));
}

/** A neutral grid's stop with closePosition: what it holds, long or short, closed at market reduce-only under a fixed id (never twice). */
async function closeNeutralPosition(task: BotTask, engine: NeutralState): Promise<void> {
  const amount = floorToStep(Math.abs(engine.position), task.rules.amountStep);
  if (!(amount > 0)) return;
  const clientOrderId = `${task.prefix}${neutralIdsUsed(engine)}-close`;
  task.ensureOwned();
  if (await task.call(() => task.port.orderByClientId(task.id.symbol, clientOrderId))) return;
  task.ensureOwned();
  await task.call(() => task.port.createMarketOrder({ symbol: task.id.symbol, side: engine.position > 0 ? 'sell' : 'buy', amount, clientOrderId, reduceOnly: true }));
}

/**
 * An infinity grid's stop with closePosition (issue 32, spot): the coin it holds sold at market under a
 * fixed id of its step (never twice). Its resting step sell holds part of that coin on the venue (Binance
 * spot's account balances are `free` and `locked`, the coin of open orders locked:
 * https://developers.binance.com/docs/binance-spot-api-docs/rest-api/account-endpoints), so it is cancelled
 * first (a stop with cancel-all has cancelled it already). Less than one amount step is left.
 */
async function closeInfinityPosition(task: BotTask, engine: InfinityState): Promise<void> {
  const close = infinityCloseOrder(task.rules, engine, task.prefix);
  if (!close) return;
  task.ensureOwned();
  if (await task.call(() => task.port.orderByClientId(task.id.symbol, close.clientOrderId))) return;
  for (const o of [...task.open.values()]) if (o.side === 'sell') await task.cancel(o.clientOrderId);
  task.ensureOwned();
  await task.call(() => task.port.createMarketOrder({ symbol: task.id.symbol, side: 'sell', amount: close.amount, clientOrderId: close.clientOrderId }));
}
