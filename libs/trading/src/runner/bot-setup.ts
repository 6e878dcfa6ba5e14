/**
 * What a start, a resume and a stop do before and after the loop: the task built from the bot's
 * stream, the venue's rules and the engine rebuilt from the history, futures leverage/margin/position
 * mode, the balance check (decided by the workflow), and closing a futures position at a stop.
 */
import { isExchangeError, type ExchangeMode, type ExchangeProvider } from '@gridrocket/exchanges';
import { BotTask, UnrecoverableError, toGridRules, type TaskHost } from './bot-task';
import type { BotRun } from './bot-stream';
import { styleFor } from '../styles/registry';

export function newTask(info: BotRun, host: TaskHost, mode: ExchangeMode): BotTask {
  const b = info.bot;
  const c = b.config;
  // the bot's style (styles/registry.ts) runs its own engine; the task keeps the ladder config the style gives it
  const style = styleFor(c);
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
      config: style.taskConfig(c, b.botType),
      ...(b.botType === 'Futures' && c.marginMode ? { marginMode: c.marginMode } : {}),
      style,
      styleConfig: style.engineConfig(c, b.botType),
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
  const problem = task.style.problem(task.styleConfig, rules);
  if (problem) throw new UnrecoverableError(problem);
  task.makerFee = market.makerFee;
  task.rebuild(rules, info.bot.trading.runs);
}

export const HEDGE_MODE_REFUSED = (exchange: string) =>
  `The ${exchange} futures account is in hedge mode: GridRocket trades in one-way mode only. Switch the account to one-way mode and start the bot again`;

/** Issue 40: why a bot stopped when the venue liquidated its position (BotFailed; the alerts read "Liquidated"). */
export const liquidatedReason = (exchange: string, side: 'long' | 'short', amount: number, price: number, realized: number) =>
  `Liquidated by ${exchange}: the venue closed the ${side} position of ${amount} at ${price} (realised ${realized} USDT: the position's margin) and cancelled the bot's orders`;

/** Issue 40: the start refused because the venue refused the bot's leverage or margin mode, with the venue's reason. */
export const FUTURES_SETTING_REFUSED = (exchange: string, symbol: string, leverage: number, marginMode: string, reason: string) =>
  `${exchange} futures refused leverage ${leverage}× with ${marginMode} margin on ${symbol}: ${reason}. The bot placed no order`;

/**
 * Futures, on every start AND resume: refuse an account in hedge mode (its orders would need a
 * position side; see docs/runner.md), then set the bot's leverage and margin mode (issue 40: isolated
 * unless the bot chose cross) on the venue, before any order. A venue that refuses them (Binance -4048
 * "Margin type cannot be changed if there exists position.", -4028, -4161; Kucoin 300016…) refuses the
 * start with its reason (docs/exchanges.md "Leverage and margin mode").
 */
export async function prepareFutures(task: BotTask): Promise<void> {
  const { id, port } = task;
  if (id.market !== 'futures') return;
  task.ensureOwned();
  if ((await task.call(() => port.positionMode())) === 'hedge') throw new UnrecoverableError(HEDGE_MODE_REFUSED(id.exchange));
  task.ensureOwned();
  const marginMode = id.marginMode ?? 'isolated';
  try {
    await task.call(() => port.setLeverage(id.symbol, task.config.leverage, marginMode));
  } catch (err) {
    if (isExchangeError(err) && !err.retryable && (err.code === 'INVALID_ORDER' || err.code === 'INSUFFICIENT_FUNDS')) {
      throw new UnrecoverableError(FUTURES_SETTING_REFUSED(id.exchange, id.symbol, task.config.leverage, marginMode, (err.reason ?? err.message).replace(/\.$/, '')));
    }
    throw err;
  }
}

/** The balance must cover what the bot still has to place, fees included (the bot's style checks it, with its liquidation check). */
export function checkFunds(task: BotTask): Promise<void> {
  return task.style.checkFunds(task);
}

/** Stop with closePosition: what the bot holds closed at market, once, its fills recorded (the bot's style decides how: styles/<style>/). */
export function closePosition(task: BotTask): Promise<void> {
  return task.style.closePosition(task);
}
