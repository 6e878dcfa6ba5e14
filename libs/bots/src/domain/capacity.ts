/**
 * What a key can carry before a start (issue 39, docs/runner.md "Capacity before a start"): pure, no I/O.
 * Given the venue and market, the bot (how many orders its start places and how many it may rest), the
 * account's other bots on that venue (their open orders per symbol) and the install's weight budget, it
 * answers three things, each against the venue's limit with its source, and says which would be passed:
 *  1. the orders the start places against the venue's order-count windows (Binance: per 10 s, per minute,
 *     per day), at the runner's pace (its per user and exchange token bucket: a burst of 10, then 8 calls a
 *     second, libs/trading runner/exchange-calls.ts and grid-runner.service.ts), so at most
 *     `burst + 8 × window` of them fall in one window, on top of what the account has already placed in
 *     the window as the venue last said (X-MBX-ORDER-COUNT-*, libs/exchanges order-counts.ts: the trader's
 *     other bots and anything else using the key);
 *  2. the open orders on the symbol (the account's other bots' and this bot's, at most) against the venue's
 *     maximum per symbol (Binance MAX_NUM_ORDERS; the market's own figure when the venue reports it);
 *  3. the weight a minute the account's bots cost the venue in steady state (one watchdog reconciliation a
 *     minute: the open orders in the lightest read, plus the balance/position reads; the streams cost
 *     nothing once subscribed: BENCHMARKS.md "What idle bots cost the venue (issue 39)", 2 idle bots 32,
 *     50 idle bots 100 a minute on Binance spot) against the install's share of the venue's weight limit.
 * The dashboard's form shows the answer; a start that would pass a limit is refused with `capacityRefusal`.
 * Each venue's figures, with their sources, are its folder's (libs/exchanges venues/<venue>-<market>/capacity.ts),
 * read through the venue registry (`venueOf(...).capacity`, '@gridrocket/exchanges/venues': pure data).
 */
import type { BotType, ExchangeName } from '@gridrocket/shared';
import { venueOf, type CapacityLimit, type CcxtId, type OrderWindowLimit, type Venue, type VenueCapacity } from '@gridrocket/exchanges/venues';
import { botStyleOf, type BotDirection, type BotStyleName } from '../styles/registry';

/** The venue's ccxt id: what its capacity figures and the install's budget are kept under (the venue registry's). */
export type CapacityVenueId = CcxtId;

export type { CapacityLimit, OrderWindowLimit, VenueCapacity };

/** The runner's pace per user and exchange (libs/trading runner/exchange-calls.ts, grid-runner.service.ts). */
export const RUNNER_PACE = { burst: 10, perSecond: 8 } as const;
/** One watchdog reconciliation per account a minute (libs/trading runner/watchdog.ts WATCHDOG_PERIOD_MS). */
export const RECONCILE_PERIOD_MS = 60_000;
/** The install's default share of each venue limit (venue-budget.ts, issue 39). */
export const DEFAULT_BUDGET_SHARE = 0.5;

/** The venue of an exchange's market a bot type trades on (the venue registry's; its figures are `venue.capacity`). */
function capacityVenue(exchange: ExchangeName, botType: BotType): Venue {
  return venueOf(exchange, botType === 'Futures' ? 'futures' : 'spot');
}

export function capacityVenueOf(exchange: ExchangeName, botType: BotType): CapacityVenueId {
  return capacityVenue(exchange, botType).ccxt.id;
}

/** What of a bot's config decides its orders. */
export interface CapacityBot {
  numOfOrders: number;
  direction?: BotDirection;
  style?: BotStyleName;
  initialQuote?: number;
}

/** The counts of the bot's style (its `style`'s, else its `direction`'s: the registry's BotStyle.capacity); undefined: the ladder's. */
function styleCounts(bot: CapacityBot) {
  return [botStyleOf({ style: bot.style }), botStyleOf({ direction: bot.direction })].find((s) => s?.capacity)?.capacity;
}

/** The grid size: its rungs (a ladder's; each side's of a style with two). */
const rungsOf = (bot: CapacityBot) => Math.max(0, Math.floor(bot.numOfOrders));

/**
 * The orders a start places at once: a ladder its rungs (grid.engine.ts desiredOrders); a style its own
 * count (styles/<style>/: a neutral grid both halves, an infinity grid its initial buy or its first pair of
 * step orders).
 */
export function ordersAtStart(bot: CapacityBot): number {
  const counts = styleCounts(bot);
  return counts ? counts.ordersAtStart(bot, rungsOf(bot)) : rungsOf(bot);
}

/**
 * The most orders the bot rests at once on its symbol: a ladder its rungs and, while a rung is partly
 * filled, its take-profit beside them (N + 1); a style its own count (a neutral grid 2N, its cursor line
 * holds none; an infinity grid its pair of step orders).
 */
export function mostResting(bot: CapacityBot): number {
  const counts = styleCounts(bot);
  return counts ? counts.mostResting(bot, rungsOf(bot)) : rungsOf(bot) + 1;
}

export interface CapacityInput {
  exchange: ExchangeName;
  botType: BotType;
  symbol: string;
  bot: CapacityBot;
  /** The open orders of the account's other bots on this venue and market, per symbol (at most). */
  others: readonly { symbol: string; openOrders: number }[];
  /** The symbols the account's other bots keep open (running) on this venue: what the watchdog reads. */
  otherSymbols?: readonly string[];
  /** The install's share of the venue's limits (default 50 %). */
  budgetShare?: number;
  /** The market's own maximum of open orders, when the venue reports one (rules.maxNumOrders). */
  maxNumOrders?: number;
  /** The orders the account has placed in the venue's current windows (the venue's last X-MBX-ORDER-COUNT-*). */
  placed?: readonly { windowMs: number; used: number }[];
  pace?: { burst: number; perSecond: number };
}

export interface CapacityAnswer {
  venue: string;
  symbol: string;
  ordersAtStart: number;
  /** Seconds the runner takes to place them at its pace. */
  placingSeconds: number;
  /** Per window: this start's orders in it at most, those the account has placed in it already, and whether they pass the limit. */
  orderWindows: (OrderWindowLimit & { atMost: number; placed: number; exceeded: boolean })[];
  openOrders: CapacityLimit & { others: number; thisBot: number; total: number; exceeded: boolean };
  weight: CapacityLimit & {
    label: string;
    /** The account's bots (this one included) in one window of the venue. */
    account: number;
    symbols: number;
    share: number;
    /** share × limit: the install's budget. */
    budget: number;
    /** account ÷ budget. */
    budgetShareUsed: number;
    exceeded: boolean;
  };
  /** The rules that would be passed (empty: the start fits). */
  exceeded: string[];
}

/** The capacity answer (see the file's comment). */
export function capacityAnswer(input: CapacityInput): CapacityAnswer {
  const { name, capacity: venue } = capacityVenue(input.exchange, input.botType);
  const pace = input.pace ?? RUNNER_PACE;
  const symbol = input.symbol.toUpperCase();
  const start = ordersAtStart(input.bot);
  const orderWindows = venue.orderWindows.map((w) => {
    const atMost = Math.min(start, pace.burst + Math.floor((pace.perSecond * w.windowMs) / 1000));
    const placed = Math.max(0, input.placed?.find((p) => p.windowMs === w.windowMs)?.used ?? 0);
    return { ...w, atMost, placed, exceeded: placed + atMost > w.limit };
  });
  const others = input.others.filter((o) => o.symbol.toUpperCase() === symbol).reduce((t, o) => t + Math.max(0, o.openOrders), 0);
  const thisBot = mostResting(input.bot);
  const reported = input.maxNumOrders;
  const max: CapacityLimit =
    typeof reported === 'number' && Number.isFinite(reported) && reported > 0
      ? { rule: venue.maxOpenPerSymbol.rule, limit: reported, source: `the market's own figure, reported by the venue; ${venue.maxOpenPerSymbol.source}` }
      : venue.maxOpenPerSymbol;
  const total = others + thisBot;
  const openOrders = { ...max, others, thisBot, total, exceeded: total > max.limit };
  // steady state: one reconciliation round per account and period, in the lightest read of its symbols
  const symbols = new Set([symbol, ...(input.otherSymbols ?? []).map((s) => s.toUpperCase())]).size;
  const perSymbol = symbols * venue.reads.openOrdersPerSymbol;
  const round = (venue.reads.openOrdersAll !== null ? Math.min(perSymbol, venue.reads.openOrdersAll) : perSymbol) + venue.reads.accountReads;
  const account = round * Math.max(1, Math.ceil(venue.weight.windowMs / RECONCILE_PERIOD_MS));
  const share = input.budgetShare !== undefined && input.budgetShare > 0 && input.budgetShare <= 1 ? input.budgetShare : DEFAULT_BUDGET_SHARE;
  const budget = venue.weight.limit * share;
  const weight = {
    rule: venue.weight.rule,
    limit: venue.weight.limit,
    source: `${venue.weight.source}; reads: ${venue.reads.source}`,
    label: venue.weight.label,
    account,
    symbols,
    share,
    budget,
    budgetShareUsed: account / budget,
    exceeded: account > budget,
  };
  const exceeded = [
    ...(openOrders.exceeded ? [max.rule] : []),
    ...orderWindows.filter((w) => w.exceeded).map((w) => `${w.rule} ${w.label}`),
    ...(weight.exceeded ? [weight.rule] : []),
  ];
  return {
    venue: name,
    symbol,
    ordersAtStart: start,
    placingSeconds: Math.max(0, Math.ceil((start - pace.burst) / pace.perSecond)),
    orderWindows,
    openOrders,
    weight,
    exceeded,
  };
}

const fmt = (n: number) => n.toLocaleString('en-US', { maximumFractionDigits: 2 });

/** Why a start that would pass a venue limit is refused, with the numbers; null when it fits. */
export function capacityRefusal(a: CapacityAnswer): string | null {
  const parts: string[] = [];
  if (a.openOrders.exceeded) {
    const o = a.openOrders;
    const most = o.thisBot > a.ordersAtStart ? ` and rests up to ${fmt(o.thisBot)} there` : '';
    parts.push(
      `This start places ${fmt(a.ordersAtStart)} orders on ${a.symbol}${most}; ${a.venue} allows ${fmt(o.limit)} open orders per symbol (${o.rule}); ` +
        `your other bots hold up to ${fmt(o.others)} open on ${a.symbol}: ${fmt(o.total)} in all`,
    );
  }
  for (const w of a.orderWindows.filter((x) => x.exceeded)) {
    const already = w.placed > 0 ? `, and your key has already placed ${fmt(w.placed)} in this ${w.label} window: ${fmt(w.placed + w.atMost)} in all` : '';
    parts.push(`This start places ${fmt(a.ordersAtStart)} orders, ${fmt(w.atMost)} of them within ${w.label}${already}; ${a.venue} allows ${fmt(w.limit)} orders per ${w.label} (${w.rule})`);
  }
  if (a.weight.exceeded) {
    const w = a.weight;
    parts.push(`Your bots on ${a.venue} would use ${fmt(w.account)} weight per ${w.label}, more than this install's budget of ${fmt(w.budget)} (${fmt(w.share * 100)} % of ${fmt(w.limit)}, ${w.rule})`);
  }
  if (!parts.length) return null;
  // a bot stopped frees open orders and weight; an order-count window only passes
  const onlyWindows = !a.openOrders.exceeded && !a.weight.exceeded;
  return `${parts.join('. ')}. ${onlyWindows ? `Lower the grid size, or start it once the ${a.orderWindows.filter((x) => x.exceeded).map((x) => x.label).join(' and ')} window has passed.` : `Lower the grid size, or stop a bot on ${a.symbol}.`}`;
}
