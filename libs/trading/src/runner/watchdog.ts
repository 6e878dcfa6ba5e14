/**
 * The watchdog's decision (issue 29, docs/watchdog.md), pure: what the bot expects (its engine's
 * desired orders and position) against what the venue has (its open orders, its fills, its balance or
 * position), and the history facts that say what differed and what was done. No I/O, no clock: the
 * bot's task fetches the venue's view (through its runner's owned, rate-limited calls) and records
 * the facts through the bot decider.
 *
 * The rules, in short (the why is in docs/watchdog.md):
 * - a fill of the bot on the venue that its history lacks: REPAIRED, the fill is applied (as a
 *   missed fill after a restart is) and the bot plans its orders on it;
 * - a desired order the venue never had (a placement lost): REPAIRED, it is placed (same id);
 * - a desired order the venue reports cancelled, not by the bot: REPAIRED, replaced under a new
 *   client order id (an id is never used twice) by the converge that follows, which records it
 *   (BotTask.replaceCancelled); one cancelled again MAX_REARMS times in a row is flagged and the
 *   bot stops;
 * - an open order under the bot's id that it does not expect: FLAGGED (left where it is);
 * - a venue balance (spot) or position (futures) lower than what the bot holds: FLAGGED (selling
 *   what is not there would fail; buying it back would spend money the trader did not plan);
 * - not trading: no resting order where one should be; repeated venue refusals; the price outside
 *   the ladder for longer than a limit with no follow.
 */
import type { DriftAction, DriftKind, NotTradingReason, TradingEvent } from '@gridrocket/bots';
import type { Fill as ExchangeFill, Order } from '@gridrocket/exchanges';
import type { DesiredOrder } from '../grid/grid.types';

/** The default period of the scheduled check (GridRunnerOptions.watchdogMs). */
export const WATCHDOG_PERIOD_MS = 60_000;
/** Refusals in a row (runner retries) after which a bot is said not to be trading. */
export const REFUSALS_NOT_TRADING = 3;
/** How long the price may stay above the ladder, with nothing held and no follow, before the bot is said not to be trading. */
export const OUTSIDE_LADDER_MS = 6 * 3600_000;

export interface VenueView {
  /** The venue's open orders of this bot (by its client order id prefix). */
  open: readonly Order[];
  /** The venue's fills of this bot since the check's window began. */
  fills: readonly ExchangeFill[];
  /** Desired orders not open on the venue, as the venue reports them by client order id (null: never placed). */
  lookedUp: ReadonlyMap<string, Order | null>;
  /** What the venue holds for the bot: the base coin's total (spot) or the position's size (futures); undefined: not asked. */
  held?: number;
  /** The market price now, when known. */
  price?: number;
}

export interface BotView {
  botId: string;
  run: number;
  desired: readonly DesiredOrder[];
  /** Fill ids the bot has recorded. */
  recordedFills: ReadonlySet<string>;
  /** The base amount the bot holds (its position). */
  position: number;
  amountStep: number;
  market: 'spot' | 'futures';
  base: string;
  /** Runner retries of this bot in a row (venue refusals, outages). */
  refusals: number;
  /** The ladder follows the price (reanchor: follow). */
  follows: boolean;
  /** Since when (ms) the price has been above the ladder, from the previous check; null: it was not. */
  outsideSince: number | null;
}

export interface WatchdogFinding {
  facts: TradingEvent[];
  /** Fills to apply (the repair of missed fills), in venue order. */
  missedFills: ExchangeFill[];
  /** Desired orders the venue reports cancelled outside the bot: the task marks them closed and converges (they are replaced). */
  cancelledOutside: Order[];
  /** The new `outsideSince`. */
  outsideSince: number | null;
}

const fmt = (x: number) => String(+x.toFixed(8));
const describe = (o: { side: string; amount: number; price: number; filled?: number }) =>
  `${o.side} ${fmt(o.amount)} at ${fmt(o.price)}${o.filled ? ` (${fmt(o.filled)} filled)` : ''}`;

export function checkAgainstVenue(bot: BotView, venue: VenueView, now: number): WatchdogFinding {
  const facts: TradingEvent[] = [];
  const drift = (kind: DriftKind, subject: string, expected: string, actual: string, action: DriftAction) =>
    facts.push({ type: 'BotDriftDetected', data: { botId: bot.botId, run: bot.run, kind, subject, expected, actual, action, at: now } });
  const notTrading = (reason: NotTradingReason, detail: string) =>
    facts.push({ type: 'BotNotTrading', data: { botId: bot.botId, run: bot.run, reason, detail, at: now } });

  // 1. fills the bot missed: applied
  const missedFills = venue.fills.filter((f) => !bot.recordedFills.has(f.fillId)).slice().sort((a, b) => a.timestamp - b.timestamp);
  for (const f of missedFills) {
    drift('missed-fill', f.fillId, 'not in the bot\'s history', `${f.side} ${fmt(f.amount)} at ${fmt(f.price)} filled`, 'repaired');
  }
  const missedOrders = new Set(missedFills.map((f) => f.clientOrderId));

  // 2. desired orders against the venue's open ones
  const open = new Map(venue.open.map((o) => [o.clientOrderId, o]));
  const cancelledOutside: Order[] = [];
  for (const d of bot.desired) {
    if (open.has(d.clientOrderId) || missedOrders.has(d.clientOrderId)) continue; // resting, or its fill is being applied
    const found = venue.lookedUp.get(d.clientOrderId);
    if (found === undefined || found?.status === 'open') continue; // not looked up, or it opened meanwhile
    if (found === null) {
      drift('order-missing', d.clientOrderId, describe(d), 'not on the exchange', 'repaired'); // placed by the converge that follows
    } else if (found.status === 'cancelled' && found.filled < found.amount) {
      // replaced under a new id by the converge that follows, which records it (BotTask.replaceCancelled)
      cancelledOutside.push(found);
    }
    // filled without a fill the venue returned yet: the bot's converge asks for its fills (await-fills)
  }
  const wanted = new Set(bot.desired.map((d) => d.clientOrderId));
  for (const o of venue.open) {
    if (!wanted.has(o.clientOrderId)) drift('unknown-order', o.clientOrderId, 'no such order', describe(o), 'flagged');
  }

  // 3. what the venue holds against the bot's position (another bot or the trader may hold more: only less is a drift)
  if (venue.held !== undefined && bot.position - venue.held >= bot.amountStep - 1e-12 && missedFills.length === 0) {
    const kind: DriftKind = bot.market === 'spot' ? 'balance-short' : 'position-differs';
    const what = bot.market === 'spot' ? bot.base : 'position';
    drift(kind, what, `${fmt(bot.position)} ${what === 'position' ? '' : bot.base}`.trim(), `${fmt(venue.held)} ${what === 'position' ? '' : bot.base}`.trim(), 'flagged');
  }

  // 4. running but not trading
  const repairing = facts.some((f) => f.type === 'BotDriftDetected' && f.data.action === 'repaired') || cancelledOutside.length > 0;
  if (bot.desired.length > 0 && venue.open.length === 0 && !repairing) {
    notTrading('no-resting-order', `${bot.desired.length} order${bot.desired.length === 1 ? '' : 's'} should rest on the exchange, none does`);
  }
  if (bot.refusals >= REFUSALS_NOT_TRADING) {
    notTrading('venue-refusals', `the exchange refused or failed ${bot.refusals} attempts in a row`);
  }
  let outsideSince: number | null = null;
  const buys = bot.desired.filter((d) => d.role === 'buy');
  // a short grid's rungs are sells (issue 32): the price is away from it below its lowest sell
  const short = buys.length > 0 && buys[0].side === 'sell';
  const top = buys.length ? (short ? Math.min(...buys.map((d) => d.price)) : Math.max(...buys.map((d) => d.price))) : null;
  if (venue.price !== undefined && top !== null && (short ? venue.price < top : venue.price > top) && bot.position <= 0 && !bot.follows) {
    outsideSince = bot.outsideSince ?? now;
    if (now - outsideSince >= OUTSIDE_LADDER_MS) {
      const where = short ? `below the ladder (lowest sell ${fmt(top)})` : `above the ladder (top buy ${fmt(top)})`;
      notTrading('price-outside-ladder', `the price ${fmt(venue.price)} has been ${where} for ${Math.floor((now - outsideSince) / 3600_000)} h, with nothing held and no follow`);
    }
  }
  return { facts, missedFills, cancelledOutside, outsideSince };
}
