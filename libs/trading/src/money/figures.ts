/**
 * The bot's figures, ONE projection of its stream read by every screen (issue 40, point 1): the bot page
 * (GET /api/bots/{id}/summary), the bots page's cards and strip (GET /api/bots-overview), the performance
 * view (GET /api/bots/{id}/performance) and the account (GET /api/performance) all take position, fills,
 * fees, capital in use and committed, and P&L from `foldFigures`. Before, the page folded the stream its
 * own way and missed the stop-loss's fills (0.001998 BTC and 2 fills after the stop-loss had sold, while
 * the performance view had 0.000008 and 3). Pure: no I/O, no clock (`now` is given).
 *
 *  - **Position** (base, signed: negative is a short): the opening fills (a rung, a neutral grid's opening
 *    order, an infinity buy) add what the account received (a buy's NET amount: a fee the venue took in the
 *    coin is not held), the closing fills (take-profit, stop-loss, a neutral grid's answers, an infinity
 *    sell, a stop's market close) take away what they close (never more than is held). What a completed cycle
 *    leaves (a buy fee taken in the coin, below the amount step) is **dust**: shown on its own, not in the
 *    position; the next opening fill takes it along. A stop that closes the position at market
 *    (`closePosition`) ends with nothing held: its close's fills (PositionClosed, role `close`) sell what they
 *    can, and what they could not (less than one amount step) leaves the books at its cost.
 *  - **Average entry**: the position's cost (price × amount of the fills that opened it, fees aside) ÷ its
 *    amount, reduced at that average by each close.
 *  - **Fills** and **fees**: every fill of the bot, opening and closing (the stop-loss's included); fees in
 *    the quote currency (the adapters convert a fee paid in another asset).
 *  - **Realised P&L**: the grid engine's, each closing fill realised on the average cost of what it closed,
 *    its share of the opening fees and its own fee included (the fill's `profit`, a stop-loss's −loss, a stop's
 *    close's `profit`); a liquidation by the venue (PositionLiquidated) on the same cost (its `profit`, or
 *    here for events before it had one). The bot's `profit` (GET /bots) adds the same amounts up.
 *  - **Total P&L** = the quote the fills brought in less what they cost (fees included) + what is held at
 *    the price now; **unrealised** = total − realised: what selling the position now would realise, before
 *    the sale's fee (the opening fees of what is held included). So realised + unrealised = total.
 *  - **Capital in use**: what the bot's orders and position hold on the venue now: Σ price × amount left of
 *    its open opening orders, plus the position at its average entry, ÷ leverage (the venue locks the quote
 *    of a buy, the coins a take-profit sells, a futures order's margin).
 *  - **Capital committed**: what the bot's full ladder takes, Σ rung price × size ÷ leverage (both halves of
 *    a neutral grid), at its current settings.
 *  - **Return** = total P&L ÷ capital committed; **annualised** = return × a year ÷ the time the bot has
 *    run (simple, not compounded), shown only from MIN_RUNTIME_FOR_ANNUAL_MS (7 days) of running: a yearly
 *    figure of ten minutes said +703,450 %.
 *  - **Equity curve**: the total P&L after each fill (what is held marked at that fill's price), and a last
 *    point at the price now.
 */
import { quoteOf } from '@gridrocket/shared';
import { addClean, roundMoney, subClean } from '../grid/decimal';
import { rungPrice, rungSize, type RungInput } from '../grid/spacing';
import { gridHalves, partsOf, styleDirection, type StyleDirection } from '../styles/pure-registry';
import { figureFactsOf, type FigureFact, type MoneyEntry, type StreamEvent } from './money-entries';

const EPS = 1e-12;
const DAY_MS = 24 * 3600 * 1000;
const YEAR_MS = 365 * DAY_MS;
/** Below this much running time a yearly figure says nothing: "—", with the reason (issue 40, point 5). */
export const MIN_RUNTIME_FOR_ANNUAL_DAYS = 7;
export const MIN_RUNTIME_FOR_ANNUAL_MS = MIN_RUNTIME_FOR_ANNUAL_DAYS * DAY_MS;

export interface EquityPoint {
  /** ms */
  time: number;
  /** Total P&L (quote) at that moment. */
  pnl: number;
}

/** At most this many points in a curve (the latest kept; evenly thinned before). */
export const MAX_CURVE_POINTS = 500;

export function thin(points: EquityPoint[], max = MAX_CURVE_POINTS): EquityPoint[] {
  if (points.length <= max) return points;
  const out: EquityPoint[] = [];
  const step = (points.length - 1) / (max - 1);
  for (let i = 0; i < max; i++) out.push(points[Math.round(i * step)]);
  return out;
}

/** The cost of a ladder: Σ rung price × size ÷ leverage (rungs at or below zero left out). */
export function committedCapital(config: RungInput & { numOfOrders: number; leverage?: number }): number {
  const leverage = config.leverage && config.leverage >= 1 ? config.leverage : 1;
  let cost = 0;
  for (let i = 0; i < Math.min(1000, Math.floor(config.numOfOrders)); i++) {
    const p = rungPrice(config, i);
    if (p > 0) cost += (p * rungSize(config, i)) / leverage;
  }
  return roundMoney(cost);
}

/** The ladder's directions and a style's that is one (a neutral grid's: styles/pure-registry.ts). */
export type Direction = 'long' | 'short' | StyleDirection;

/** The direction of the bot's settings as the figures say it (absent or unknown: long). */
const directionIn = (config: Record<string, unknown>): Direction => (config.direction === 'short' ? 'short' : styleDirection(config.direction) ?? 'long');

/** What a bot's settings commit: its full ladder, every half of its grid (a neutral grid's two); leverage for futures only (a spot bot's is 1). */
export function committedCapitalOf(config: Record<string, unknown>, botType: string | undefined): number {
  const num = (k: string) => (typeof config[k] === 'number' && Number.isFinite(config[k] as number) ? (config[k] as number) : 0);
  if (!(num('numOfOrders') > 0 && num('orderSize') > 0 && num('entryPrice') > 0)) return 0;
  const ladder = {
    numOfOrders: num('numOfOrders'),
    orderSize: num('orderSize'),
    interval: num('interval'),
    entryPrice: num('entryPrice'),
    leverage: botType === 'Spot' ? 1 : num('leverage') || 1,
    ...(config.spacing === 'percent' ? { spacing: 'percent' as const } : {}),
    ...(typeof config.sizeScale === 'number' ? { sizeScale: config.sizeScale } : {}),
  };
  const direction = directionIn(config);
  return roundMoney(gridHalves(direction === 'long' ? ladder : { ...ladder, direction }).reduce((t, half) => t + committedCapital(half), 0));
}

/** The figures every screen shows (the performance view's answer; the bot page's summary and the cards carry them too). */
export interface Performance {
  realisedPnl: number;
  /** Realised since 00:00 UTC of `now` (by the fills' exchange time). */
  realisedToday: number;
  unrealisedPnl: number;
  totalPnl: number;
  feesPaid: number;
  /** Base amount held, dust excluded (negative: a short position, issue 32). */
  position: number;
  /** Base amount a completed cycle left that no sell could take; not in `position`. */
  dust: number;
  averageEntry: number | null;
  lastPrice: number | null;
  capitalInUse: number;
  capitalCommitted: number;
  /** totalPnl ÷ capitalCommitted, in % (null without a committed capital). */
  returnPercent: number | null;
  /** returnPercent scaled to a year of running time (simple); null before 7 days of running. */
  annualisedPercent: number | null;
  runtimeMs: number;
  /** Started and not yet stopped. */
  running: boolean;
  cyclesCompleted: number;
  fills: number;
  equity: EquityPoint[];
}

/** The bot's figures with what the screens write them in and for. */
export interface BotFigures extends Performance {
  /** The quote currency every amount of money is in ('USDT', 'USDC'). */
  currency: string;
  direction: Direction;
  /** How many times the bot started. */
  runs: number;
  /** The run going on (`endedAt` null), else the last one that ended; null before the first start. */
  lastRun: { startedAt: number; endedAt: number | null; ms: number } | null;
}

const startOfUtcDay = (ms: number) => {
  const d = new Date(ms);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
};

const netOf = (e: { amount: number; netAmount?: number }) => (e.netAmount !== undefined && e.netAmount >= 0 && e.netAmount <= e.amount ? e.netAmount : e.amount);

/**
 * THE fold (see the header): the facts in stream order, the price now (null: not known, what is held is
 * then marked at the last fill's price) and the time now. `committed` replaces the settings' committed
 * capital (for entries without them: the money read model's).
 */
export function foldFigures(facts: readonly FigureFact[], price: number | null, now: number, committed?: number): BotFigures {
  let config: Record<string, unknown> = {};
  let botType: string | undefined;
  let held = 0; // signed base, dust included
  // what the held amount cost as the engine counts it: a long's price × amount + opening fees, a short's quote received
  // less its fees; each close takes off what the engine realised it on (a ladder: the average cost; a neutral grid:
  // the pair it closed), so the average entry and the unrealised P&L agree with the realised
  let cost = 0;
  let openFees = 0; // the opening fees in `cost`, at their average
  let dust = 0;
  let dustCost = 0;
  let dustFees = 0;
  let cash = 0; // quote: what the fills brought in less what they cost, fees included
  let realised = 0;
  let today = 0;
  let fees = 0;
  let fills = 0;
  let cycles = 0;
  let lastFillPrice: number | null = null;
  let runningSince: number | null = null;
  let runtime = 0;
  let runs = 0;
  let lastRun: BotFigures['lastRun'] = null;
  let drop: { seq: number } | null = null;
  const orders = new Map<string, { price: number; left: number }>();
  const equity: EquityPoint[] = [];
  const dayStart = startOfUtcDay(now);

  const endRun = (at: number) => {
    if (runningSince === null) return;
    runtime += Math.max(0, at - runningSince);
    lastRun = { startedAt: runningSince, endedAt: at, ms: Math.max(0, at - runningSince) };
    runningSince = null;
  };
  const flatten = (at: number) => {
    // a stop that sold the position at market: what its close did not sell leaves the books at its cost
    held = cost = openFees = dust = dustCost = dustFees = 0;
    cash = realised;
    drop = null;
    if (equity.length) equity.push({ time: at, pnl: roundMoney(cash) });
  };
  /** Takes `amount` (≤ |held|) off the position; `closed`: its cost as the engine realised it, else its share at the average. */
  const reduce = (amount: number, closed?: number) => {
    const share = amount / Math.abs(held);
    cost = closed !== undefined && Number.isFinite(closed) ? cost - closed : cost * (1 - share);
    openFees *= 1 - share;
    held = addClean(held, held > 0 ? -amount : amount);
    if (Math.abs(held) <= EPS) held = cost = openFees = 0;
  };
  /** An opening fill of `delta` base (signed) at `price` with `fee`: grows the position (or, against it, reduces it and opens the rest). */
  const open = (delta: number, price: number, fee: number) => {
    let amount = Math.abs(delta);
    if (held !== 0 && Math.sign(held) !== Math.sign(delta)) {
      // (a neutral grid's fills out of order) against the position: at its average, the rest opens
      const against = Math.min(amount, Math.abs(held));
      reduce(against);
      amount = subClean(amount, against);
      fee = (fee * amount) / Math.abs(delta);
      if (amount <= EPS) return;
    }
    held = addClean(held, delta > 0 ? amount : -amount);
    cost += delta > 0 ? amount * price + fee : amount * price - fee;
    openFees += fee;
  };

  for (const e of facts) {
    switch (e.kind) {
      case 'config':
        if (e.created) {
          config = { ...e.config };
          botType = typeof e.config.botType === 'string' ? e.config.botType : undefined;
        } else {
          config = { ...config, ...e.config };
          for (const k of Object.keys(config)) if (config[k] === null) delete config[k];
        }
        break;
      case 'order':
        if (e.placed && e.opens) orders.set(e.clientOrderId, { price: e.price, left: e.amount });
        else if (!e.placed) orders.delete(e.clientOrderId);
        break;
      case 'run':
        if (e.running && e.resumed) {
          if (runningSince === null) runningSince = e.at;
        } else if (e.running) {
          endRun(e.at); // a start without a recorded end: the earlier run ended here at the latest
          runningSince = e.at;
          runs += 1;
        } else {
          endRun(e.at);
          if (drop) flatten(e.at);
        }
        break;
      case 'cycle':
        cycles += 1;
        // a completed cycle sold all it could: what is left is dust
        dust = held;
        dustCost = cost;
        dustFees = openFees;
        break;
      case 'drop':
        drop = { seq: e.seq };
        break;
      case 'fill': {
        if (drop && e.run > drop.seq) flatten(e.at); // (entries without the stop's end: a fill of a run begun after it)
        fills += 1;
        fees += e.fee;
        lastFillPrice = e.price;
        if (e.clientOrderId !== undefined) {
          const o = orders.get(e.clientOrderId);
          if (o) {
            o.left = subClean(o.left, e.amount);
            if (o.left <= EPS) orders.delete(e.clientOrderId);
          }
        }
        if (e.role === 'buy') {
          // opening: a buy adds what the account received, a sell (short rung, neutral sell) goes short
          const amount = e.side === 'buy' ? netOf(e) : e.amount;
          dust = dustCost = dustFees = 0; // the dust rides along: the next take-profit sells it
          open(e.side === 'buy' ? amount : -amount, e.price, e.fee);
          cash += e.side === 'buy' ? -(amount * e.price + e.fee) : amount * e.price - e.fee;
        } else {
          // closing: a sell takes from a long, a buy from a short, never more than is held
          const closes = e.side === 'sell' ? Math.min(e.amount, Math.max(0, held)) : Math.min(e.amount, Math.max(0, -held));
          // a liquidation (the venue's close, issue 40 point 3) recorded without its profit is realised here, on what the position cost
          const before = cost;
          const share = Math.abs(held) > 0 ? closes / Math.abs(held) : 0;
          const profit = e.profit ?? (closes > 0 ? (e.side === 'sell' ? closes * e.price - before * share : before * share - closes * e.price) - e.fee : -e.fee);
          // what it closed cost: a ladder's engine realises on the average cost; a neutral grid's on the pair it
          // closes, which its realised profit says (a long's sale brought closes × price − fee − profit)
          const paired = partsOf(config)?.closesOnPair === true && e.profit !== null;
          if (closes > 0) reduce(closes, !paired ? undefined : e.side === 'sell' ? closes * e.price - e.fee - profit : closes * e.price + e.fee + profit);
          cash += e.side === 'sell' ? closes * e.price - e.fee : -(closes * e.price + e.fee);
          if (Math.abs(dust) > Math.abs(held)) {
            dust = held;
            dustCost = cost;
            dustFees = openFees;
          }
          realised += profit;
          if (e.at >= dayStart) today += profit;
          // the venue closed the whole position: what is left (if it said less) leaves the books when the bot stops
          if (e.role === 'liquidation' && held !== 0) drop = { seq: e.seq };
        }
        equity.push({ time: e.at, pnl: roundMoney(cash + held * e.price) });
        break;
      }
    }
  }
  if (runningSince !== null) {
    runtime += Math.max(0, now - runningSince);
    lastRun = { startedAt: runningSince, endedAt: null, ms: Math.max(0, now - runningSince) };
  }

  const leverage = botType !== 'Spot' && typeof config.leverage === 'number' && config.leverage >= 1 ? config.leverage : 1;
  const mark = price ?? lastFillPrice;
  const total = roundMoney(cash + (mark !== null ? held * mark : 0));
  realised = roundMoney(realised);
  const position = roundMoney(held - dust);
  // the position's cost at its entry prices, fees aside (a long's cost less its fees, a short's proceeds plus them)
  const positionCost = Math.max(0, position > 0 ? cost - dustCost - (openFees - dustFees) : cost - dustCost + (openFees - dustFees));
  const averageEntry = Math.abs(position) > EPS && positionCost > 0 ? positionCost / Math.abs(position) : null;
  let resting = 0;
  for (const o of orders.values()) resting += o.left * o.price;
  const capital = committed ?? committedCapitalOf(config, botType);
  const ret = capital > 0 ? (total / capital) * 100 : null;
  if (equity.length && price !== null) equity.push({ time: Math.max(now, equity[equity.length - 1].time), pnl: total });
  return {
    realisedPnl: realised,
    realisedToday: roundMoney(today),
    unrealisedPnl: roundMoney(total - realised),
    totalPnl: total,
    feesPaid: roundMoney(fees),
    position,
    dust: roundMoney(dust),
    averageEntry: averageEntry === null ? null : roundMoney(averageEntry),
    lastPrice: mark,
    capitalInUse: roundMoney((resting + (averageEntry !== null ? positionCost : 0)) / leverage),
    capitalCommitted: roundMoney(capital),
    returnPercent: ret === null ? null : roundMoney(ret),
    annualisedPercent: annualised(ret, runtime),
    runtimeMs: runtime,
    running: runningSince !== null,
    cyclesCompleted: cycles,
    fills,
    equity: thin(equity),
    currency: quoteOf(String(config.symbol ?? '')) ?? 'USDT',
    direction: directionIn(config),
    runs,
    lastRun,
  };
}

/** A return (%) scaled to a year of `runtimeMs` (simple), or null before MIN_RUNTIME_FOR_ANNUAL_MS. */
export function annualised(returnPercent: number | null, runtimeMs: number): number | null {
  return returnPercent !== null && runtimeMs >= MIN_RUNTIME_FOR_ANNUAL_MS ? roundMoney((returnPercent * YEAR_MS) / runtimeMs) : null;
}

/** The bot's figures from its stream (in stream order), the price now and the time now: what every screen reads. */
export function botFigures(events: readonly StreamEvent[], price: number | null, now: number): BotFigures {
  return foldFigures(figureFactsOf(events), price, now);
}

/** The same fold over the money read model's entries (bot-money.projection.ts), with the committed capital given. */
export function botPerformance(entries: readonly MoneyEntry[], price: number | null, capitalCommitted: number, now: number): Performance {
  const { currency: _c, direction: _d, runs: _r, lastRun: _l, ...performance } = foldFigures([...entries].sort((a, b) => a.seq - b.seq), price, now, capitalCommitted);
  return performance;
}
