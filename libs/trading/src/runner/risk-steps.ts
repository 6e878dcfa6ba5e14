/**
 * The runner's part of the risk controls (issue 14, docs/risk.md): what a market price asks of a bot
 * (grid/risk.ts decides) and the market sells of a stop-loss and a trailing take-profit. Executed in
 * the bot's lane by BotTask.converge. Crash safety:
 *  - a stop-loss is recorded (`StopLossStarted`) BEFORE anything is cancelled or sold; the replay
 *    (replayBook) then keeps it under way, so a restart finishes it whatever the price has done since;
 *  - a re-anchor is recorded (`GridReanchored`) before its cancels and placements; the replay gives the
 *    new ladder, which converge completes; a trail down (issue 32, `trailDown: true`) the same way;
 *  - market sells carry a fixed client order id, are looked up before they are placed, and are never
 *    retried blindly (a lost answer is found by the next lookup), so nothing is ever sold twice.
 */
import type { ExchangePort } from '@gridrocket/exchanges';
import type { TradingEvent } from '@gridrocket/bots';
import type { DesiredOrder, GridConfig, GridState, MarketRules } from '../grid/grid.types';
import { beginStopLoss, decidePrice, reanchorBook, stopLossDoneReason, stopLossSell } from '../grid/risk';
import { trailDownBook } from '../grid/trail-down';

/** What the risk steps need of a bot's task (BotTask; an interface, so the two files do not import each other). */
export interface RiskTask {
  readonly botId: string;
  readonly id: { run: number; symbol: string };
  readonly config: GridConfig;
  readonly rules: MarketRules;
  readonly port: ExchangePort;
  readonly ready: boolean;
  state: GridState;
  lastPrice: number | null;
  trail: { cycle: number; peak: number } | null;
  workflow(): { quote: string };
  recordFacts(facts: TradingEvent[]): Promise<void>;
  fetchMissedFills(): Promise<void>;
  ensureOwned(): void;
  call<T>(fn: () => Promise<T>, retries?: number): Promise<T>;
  retryLater(reason: string): void;
}

/** Settings that make a bot watch the market price. */
export function watchesPrice(task: Pick<RiskTask, 'config'>): boolean {
  const c = task.config;
  return c.stopLossPercent !== undefined || c.stopLossPrice !== undefined || (c.trailingDeviation ?? 0) > 0 || c.reanchor === 'follow' || c.trailDownLimit !== undefined;
}

/** Applies the latest market price (if any) to the bot: stop-loss, trailing, follow. */
export async function applyPrice(task: RiskTask): Promise<void> {
  const price = task.lastPrice;
  if (price === null || !task.ready || !watchesPrice(task)) return;
  if (task.trail && task.trail.cycle !== task.state.cycle) task.trail = null;
  let decision = decidePrice(task.config, task.rules, task.state, price, task.trail?.peak ?? null);
  if (decision.type === 'stop-loss' || decision.type === 'trail-sell' || decision.type === 'reanchor' || decision.type === 'trail-down') {
    // Acting on the market: first make sure every fill up to now is applied (the position and its average are exact).
    await task.fetchMissedFills();
    decision = decidePrice(task.config, task.rules, task.state, price, task.trail?.peak ?? null);
  }
  const { botId } = task;
  const run = task.id.run;
  switch (decision.type) {
    case 'none':
      return;
    case 'stop-loss': {
      const next = beginStopLoss(task.state, price, decision.level);
      await task.recordFacts([{ type: 'StopLossStarted', data: { botId, run, cycle: next.cycle, price, level: decision.level } }]);
      task.state = next;
      return;
    }
    case 'trail':
      task.trail = { cycle: task.state.cycle, peak: decision.peak };
      return;
    case 'trail-sell':
      task.trail = { cycle: task.state.cycle, peak: decision.peak };
      await marketSell(task, decision.order);
      return;
    case 'reanchor': {
      const next = reanchorBook(task.state, task.config, task.rules, decision.to);
      await task.recordFacts([{ type: 'GridReanchored', data: { botId, run, from: decision.from, to: decision.to, cycle: next.cycle } }]);
      task.state = next;
      return;
    }
    case 'trail-down': {
      // Recorded before the old take-profit is cancelled and the new ladder placed (converge does both).
      const next = trailDownBook(task.state, task.config, task.rules, decision.to);
      await task.recordFacts([{ type: 'GridReanchored', data: { botId, run, from: decision.from, to: decision.to, cycle: next.cycle, trailDown: true } }]);
      task.state = next;
      return;
    }
  }
}

/**
 * A stop-loss under way, after converge cancelled every order: the position is sold at market, and
 * once nothing is left it returns the reason the bot stops with (BotFailed: the runner cancels what is left).
 */
export async function finishStopLoss(task: RiskTask): Promise<string | null> {
  if (!task.state.stopLoss) return null;
  const sell = stopLossSell(task.config, task.rules, task.state);
  if (sell) await marketSell(task, sell);
  const reason = stopLossDoneReason(task.rules, task.state, task.workflow().quote);
  if (!reason && sell) task.retryLater('waiting for the fill of the stop-loss sell');
  return reason;
}

/** A market close (long: a sell; short: a buy, `d.side`) under a fixed id: looked up first (never twice), then its fill fetched and applied. */
async function marketSell(task: RiskTask, d: DesiredOrder): Promise<void> {
  const symbol = task.id.symbol;
  task.ensureOwned();
  const existing = await task.call(() => task.port.orderByClientId(symbol, d.clientOrderId));
  if (!existing) {
    task.ensureOwned();
    // No blind retry: an answer lost in a timeout is found by the lookup of the next converge.
    await task.call(() => task.port.createMarketOrder({ symbol, side: d.side, amount: d.amount, clientOrderId: d.clientOrderId, ...(d.reduceOnly ? { reduceOnly: true } : {}) }), 0);
  }
  await task.fetchMissedFills();
}
