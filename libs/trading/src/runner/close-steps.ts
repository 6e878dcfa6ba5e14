/**
 * The exchange steps every style's stop with closePosition and balance check share (issue 40, issue 29):
 * the fills of a market close recorded with what each realised, dust a spot venue will not sell, and the
 * balance a start needs. The styles (styles/<style>/) decide what to close and what a start needs.
 */
import { ExchangeDownError, type Order } from '@gridrocket/exchanges';
import { addClean, roundMoney } from '../grid/decimal';
import type { StyleTask as BotTask } from '../styles/grid-style';
import { UnrecoverableError } from './task-errors';
import { closeFillFacts, type HeldForClose } from './close-fills';

/** Tries of the close's fills within one attempt of the stop (then the stop is tried again, the order looked up first). */
const CLOSE_FILL_TRIES = 6;

/** What the bot's engine holds for a close (its style's), null before its engine is built. */
export function heldForClose(task: BotTask): HeldForClose | null {
  return task.engine === undefined ? null : task.style.heldForClose(task.engine);
}

/**
 * Issue 40: the fills of the stop's market close, recorded with what each realised (close-fills.ts:
 * PositionClosed and ProfitRealized, in the stop's one append with BotStopped). Asked from the venue's
 * trade history (the stream's copy of them is not the bot's: the close is no order of the grid) until they
 * add up to what the venue says the order filled; a venue slow to list them fails this attempt of the stop
 * with a retryable error, and the next attempt looks the order up (never placed twice) and asks again. So a
 * runner killed between the close and its record records it when it takes the bot over, once: the fill ids
 * are the keys the bot decider drops a second time.
 */
export async function recordCloseFills(task: BotTask, placed: Order, cycle: number): Promise<void> {
  const { symbol } = task.id;
  const held = heldForClose(task);
  if (!held) return;
  const base = task.id.market === 'spot' ? symbol.slice(0, symbol.length - task.workflowQuote().length) : undefined;
  for (let attempt = 1; ; attempt++) {
    task.ensureOwned();
    const order = (await task.call(() => task.port.orderByClientId(symbol, placed.clientOrderId))) ?? placed;
    task.ensureOwned();
    const since = Math.max(1, task.fillsSinceMs - 60_000);
    const fills = (await task.call(() => task.port.recentFills(symbol, since))).filter((f) => f.clientOrderId === placed.clientOrderId);
    const listed = fills.reduce((t, f) => addClean(t, f.amount), 0);
    if (order.status !== 'open' && listed >= order.filled - 1e-12) {
      await task.recordFacts(closeFillFacts({ botId: task.botId, run: task.id.run, cycle, base }, held, fills));
      return;
    }
    if (attempt >= CLOSE_FILL_TRIES) throw new ExchangeDownError(`the venue has not listed every fill of the close order ${placed.clientOrderId} yet`);
    await task.backoff(attempt);
  }
}

/**
 * Dust a spot venue will not sell (issue 40: 0.77 USDT left by a fee taken in the coin): an amount under the
 * market's minimum amount, or worth less than its minimum order value at the price now. Binance spot's
 * NOTIONAL filter applies to market orders (`applyMinToMarket`, exchangeInfo filters,
 * https://developers.binance.com/docs/binance-spot-api-docs/filters#notional), so the sale would only be
 * refused and the stop fail; it is left on the account, as less than one amount step always was.
 * Reduce-only futures closes are not limited by the minimum value and never come here.
 */
export async function belowVenueMinimum(task: BotTask, amount: number): Promise<boolean> {
  const r = task.rules;
  if (r.minAmount !== undefined && amount < r.minAmount) return true;
  if (!(r.minNotional > 0)) return false;
  task.ensureOwned();
  const price = task.lastPrice ?? (await task.call(() => task.port.price(task.id.symbol)));
  return amount * price < r.minNotional;
}

/**
 * A market close under a fixed client order id, looked up first (never placed twice; no blind retry: an
 * answer lost in a timeout is found by the lookup of the stop's next attempt); `before` runs only when it
 * is placed now (an infinity grid cancels its resting sell first). Its fills are then recorded.
 */
export async function marketClose(task: BotTask, close: { clientOrderId: string; side: 'buy' | 'sell'; amount: number; reduceOnly?: boolean; cycle: number }, before?: () => Promise<void>): Promise<void> {
  const symbol = task.id.symbol;
  task.ensureOwned();
  let order = await task.call(() => task.port.orderByClientId(symbol, close.clientOrderId));
  if (!order) {
    if (before) await before();
    task.ensureOwned();
    order = await task.call(() => task.port.createMarketOrder({ symbol, side: close.side, amount: close.amount, clientOrderId: close.clientOrderId, ...(close.reduceOnly !== undefined ? { reduceOnly: close.reduceOnly } : {}) }), 0);
  }
  await recordCloseFills(task, order, close.cycle);
}

/**
 * A start's balance check of a style whose need is `need` (its orders `need - fees` plus `fees` of maker
 * fees) in `asset`: refused (UnrecoverableError with `message`) when the account has less.
 */
export async function requireBalance(task: BotTask, asset: string, need: number, message: (available: number) => string): Promise<void> {
  if (need <= 0) return;
  task.ensureOwned();
  const balances = await task.call(() => task.port.balances());
  const available = balances.find((b) => b.symbol === asset)?.available ?? 0;
  if (available < need) throw new UnrecoverableError(message(roundMoney(available)));
}
