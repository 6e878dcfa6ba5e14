/**
 * The figures of a bot's page, from its recorded events and the price now (pure): the bot's orders
 * (every one open on the exchange) as a table, the position and its average entry, unrealised and realised P&L,
 * fees, cycles, runtime, an annualised return and the last error. Amounts are in the quote
 * currency (USDT); times are unix milliseconds.
 */
import { roundMoney } from '../grid/decimal';

export type RungState = 'open' | 'filled' | 'cancelled';

export interface SummaryRung {
  price: number;
  size: number;
  /** Base amount filled so far (a partly filled rung is still open). */
  filled: number;
  state: RungState;
  /** 'sell' for a sell (a short grid's rungs; a neutral grid's sells); absent: a buy. */
  side?: 'sell';
}

export interface BotSummary {
  /**
   * The bot's buys, highest price first: every one still open on the exchange, whichever run and
   * cycle placed it (a rung a cycle did not fill keeps resting into the next cycles), and the filled
   * or cancelled rungs of the latest cycle.
   */
  ladder: SummaryRung[];
  takeProfit: SummaryRung | null;
  /** Base amount held as a position (dust excluded); negative: a short grid's position (issue 32). */
  position: number;
  /**
   * Base amount left after the last completed cycle that no sell could take (a buy fee taken in the
   * coin, Binance spot: issue 29 finding 7). Shown, not counted as a position; the next buy adds it
   * back and the take-profit sells it along. 0 when none.
   */
  dust: number;
  averageEntry: number | null;
  lastPrice: number | null;
  /** position × (price − average entry), before the fees of the sale. */
  unrealisedPnl: number;
  realisedPnl: number;
  realisedToday: number;
  feesPaid: number;
  cyclesCompleted: number;
  fills: number;
  /**
   * What the bot holds on the exchange: Σ price × (amount − filled) of every open buy, plus the held
   * position at its cost (the coins its take-profit locks), ÷ leverage.
   */
  capitalInUse: number;
  /** Time spent running, every run added up (the annualised return's clock). */
  runtimeSeconds: number;
  /**
   * The latest run: the one going on (`endedAt` null), else the last one that ended (a stop or a
   * failure), with its length in ms; null before the first start. A stopped bot's page shows how long
   * it last ran instead of a bare "0s" (issue 29, finding 9).
   */
  lastRun: { startedAt: number; endedAt: number | null; ms: number } | null;
  /** How many times the bot started. */
  runs: number;
  /** Realised P&L over the ladder's cost, scaled to a year of runtime (simple, not compounded), in %. */
  annualisedReturn: number | null;
  running: boolean;
  lastError: string | null;
  lastErrorAt: number | null;
}

export interface SummaryEvent {
  type: string;
  data: any;
  /** When the event was recorded (ms). */
  at: number;
}

const EPS = 1e-12;
/** Below this much runtime a yearly figure says nothing. */
const MIN_RUNTIME_FOR_ANNUAL_S = 600;
const YEAR_S = 365 * 24 * 3600;

const startOfUtcDay = (ms: number) => {
  const d = new Date(ms);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
};

export function buildBotSummary(events: SummaryEvent[], price: number | null, now: number): BotSummary {
  // Every order the bot placed, of every run, by client order id (ids are the bot's across runs and never reused).
  const rungs = new Map<string, SummaryRung & { cycle: number; closes?: true }>();
  const tps = new Map<string, SummaryRung & { id: string }>();
  let qty = 0;
  let cost = 0;
  let dust = 0;
  let dustCost = 0;
  let fees = 0;
  let fills = 0;
  let cycles = 0;
  let realisedFromEvents = 0;
  let sawProfitRealized = false;
  let realisedFromTp = 0;
  let today = 0;
  let todayFromTp = 0;
  const dayStart = startOfUtcDay(now);
  let leverage = 1;
  let config: { numOfOrders: number; orderSize: number; interval: number; entryPrice: number } | null = null;
  /** Issue 32: the bot's rungs sell and its take-profits buy back (a short grid). */
  let short = false;
  /**
   * Issue 32, a neutral grid: every order (opening or closing) is a row of its table, there is no single
   * take-profit, and the position is signed by the side of each fill (buys add, sells take away).
   */
  let neutral = false;
  let signed = 0;
  let runningSince: number | null = null;
  let runtimeMs = 0;
  let runs = 0;
  let lastRun: { startedAt: number; endedAt: number | null; ms: number } | null = null;
  const endRun = (at: number) => {
    if (runningSince === null) return;
    runtimeMs += Math.max(0, at - runningSince);
    lastRun = { startedAt: runningSince, endedAt: at, ms: Math.max(0, at - runningSince) };
    runningSince = null;
  };
  let lastError: string | null = null;
  let lastErrorAt: number | null = null;

  for (const e of events) {
    const d = e.data ?? {};
    switch (e.type) {
      case 'BotCreated':
      case 'BotEdited':
        config = { numOfOrders: d.numOfOrders, orderSize: d.orderSize, interval: d.interval, entryPrice: d.entryPrice };
        if (e.type === 'BotCreated' || d.direction !== undefined) {
          short = d.direction === 'short';
          neutral = d.direction === 'neutral';
        }
        if (typeof d.leverage === 'number' && d.leverage >= 1) leverage = d.leverage;
        break;
      case 'BotStarted':
        if (runningSince !== null) endRun(e.at); // a start without a recorded end: the earlier run ended here at the latest
        runningSince = e.at;
        runs += 1;
        lastError = null;
        lastErrorAt = null;
        break;
      case 'BotStartFailed':
      case 'BotFailed':
        lastError = typeof d.reason === 'string' ? d.reason : 'The bot stopped on an error.';
        lastErrorAt = e.at;
        endRun(e.at);
        break;
      case 'BotStopped':
        endRun(e.at);
        break;
      case 'OrderPlaced':
        if (!rungs.has(d.clientOrderId)) rungs.set(d.clientOrderId, { price: d.price, size: d.amount, filled: 0, state: 'open', cycle: d.cycle ?? 0, ...(d.side === 'sell' ? { side: 'sell' as const } : {}) });
        break;
      case 'TakeProfitPlaced':
        if (neutral) {
          // a neutral grid's closing order: a row of its table like the others (reduce-only, no margin of its own)
          if (!rungs.has(d.clientOrderId)) rungs.set(d.clientOrderId, { price: d.price, size: d.amount, filled: 0, state: 'open', cycle: d.cycle ?? 0, ...(d.side === 'sell' ? { side: 'sell' as const } : {}), closes: true });
          break;
        }
        tps.delete(d.clientOrderId); // insertion order = placement order
        tps.set(d.clientOrderId, { id: d.clientOrderId, price: d.price, size: d.amount, filled: 0, state: 'open' });
        break;
      case 'OrderCancelled': {
        const r = rungs.get(d.clientOrderId) ?? tps.get(d.clientOrderId);
        if (r && r.state === 'open') r.state = 'cancelled';
        break;
      }
      case 'OrderFilled':
      case 'TakeProfitFilled': {
        fills += 1;
        fees += Number(d.fee) || 0;
        const amount = Number(d.amount) || 0;
        if (neutral) {
          // the position signed by the fill's side; its cost at the average of what is held on that side
          const next = signed + (d.side === 'sell' ? -amount : amount);
          if (Math.abs(next) > Math.abs(signed) + EPS && Math.sign(next) === Math.sign(signed || next)) {
            cost += amount * d.price;
          } else if (Math.sign(next) !== Math.sign(signed) && Math.abs(next) > EPS) {
            cost = Math.abs(next) * d.price; // crossed through flat: what is left opened at this price
          } else {
            cost = Math.abs(signed) > EPS ? cost * (Math.abs(next) / Math.abs(signed)) : 0;
          }
          signed = Math.abs(next) <= EPS ? 0 : next;
          qty = Math.abs(signed);
          if (qty === 0) cost = 0;
        } else if (e.type === 'OrderFilled') {
          // a rung's fill opens (a short grid's rung is a sell: `qty` counts what is held or short, issue 32);
          // what the account received (a fee taken in the coin leaves less: docs/runner.md, fills and fees),
          // plus the dust the take-profit sells along
          const held = typeof d.netAmount === 'number' && d.netAmount >= 0 && d.netAmount <= amount ? d.netAmount : amount;
          qty += held + dust;
          cost += held * d.price + dustCost;
          dust = 0;
          dustCost = 0;
        } else {
          const avg = qty > EPS ? cost / qty : 0;
          qty -= amount;
          cost -= amount * avg;
          if (qty <= EPS) {
            qty = 0;
            cost = 0;
          }
        }
        if (e.type === 'TakeProfitFilled' && typeof d.profit === 'number') {
          realisedFromTp += d.profit;
          if (e.at >= dayStart) todayFromTp += d.profit;
        }
        const r = e.type === 'OrderFilled' || neutral ? rungs.get(d.clientOrderId) : tps.get(d.clientOrderId);
        if (r) {
          r.filled += amount;
          if (r.filled >= r.size - EPS) r.state = 'filled';
        }
        break;
      }
      case 'ProfitRealized':
        sawProfitRealized = true;
        realisedFromEvents += Number(d.amount) || 0;
        if (e.at >= dayStart) today += Number(d.amount) || 0;
        break;
      case 'CycleCompleted':
        cycles += 1;
        // a completed cycle sold all it could: a rest is dust
        dust += qty;
        dustCost += cost;
        qty = 0;
        cost = 0;
        break;
    }
  }
  if (runningSince !== null) {
    runtimeMs += Math.max(0, now - runningSince);
    lastRun = { startedAt: runningSince, endedAt: null, ms: Math.max(0, now - runningSince) };
  }

  // the orders on the exchange now: every open buy, whichever cycle or run placed it, and the latest cycle's others
  let cycle = -1;
  for (const r of rungs.values()) if (r.cycle > cycle) cycle = r.cycle;
  const ladder = [...rungs.values()]
    // (a neutral grid: the orders resting now, both sides; its lines' generations are not cycles)
    .filter((r) => r.state === 'open' || (!neutral && r.cycle === cycle))
    .sort((a, b) => b.price - a.price)
    .map(({ price: p, size, filled, state, side }) => ({ price: p, size, filled: roundMoney(filled), state, ...(side ? { side } : {}) }));

  const position = roundMoney(neutral ? signed : short ? -qty : qty);
  const averageEntry = qty > EPS ? cost / qty : null;
  // (position signed: a short gains as the price falls below its average)
  const unrealised = position !== 0 && averageEntry !== null && price !== null ? position * (price - averageEntry) : 0;
  // the take-profit: the one resting now, else the last one placed
  const placedTps = [...tps.values()];
  const tp = placedTps.filter((t) => t.state === 'open').pop() ?? placedTps.pop() ?? null;
  const realised = sawProfitRealized ? realisedFromEvents : realisedFromTp;
  // (a neutral grid's closing orders are reduce-only: no margin of their own)
  const openBuys = [...rungs.values()].filter((r) => r.state === 'open' && !r.closes).reduce((s, r) => s + (r.size - r.filled) * r.price, 0);
  const capital = (openBuys + (averageEntry !== null ? Math.abs(position) * averageEntry : 0)) / leverage;

  let ladderCost = 0;
  if (config) {
    for (let i = 0; i < Math.min(1000, Math.floor(config.numOfOrders)); i++) {
      if (neutral) {
        // both halves: the buys from one interval below the reference down, the sells from one above it up
        const below = config.entryPrice - (i + 1) * config.interval;
        if (below > 0) ladderCost += (below * config.orderSize) / leverage;
        ladderCost += ((config.entryPrice + (i + 1) * config.interval) * config.orderSize) / leverage;
        continue;
      }
      const p = short ? config.entryPrice + i * config.interval : config.entryPrice - i * config.interval;
      if (p > 0) ladderCost += (p * config.orderSize) / leverage;
    }
  }
  const runtimeSeconds = Math.floor(runtimeMs / 1000);
  const annualisedReturn =
    runtimeSeconds >= MIN_RUNTIME_FOR_ANNUAL_S && ladderCost > 0 ? roundMoney((realised / ladderCost) * (YEAR_S / runtimeSeconds) * 100) : null;

  return {
    ladder,
    takeProfit: tp ? { price: tp.price, size: tp.size, filled: roundMoney(tp.filled), state: tp.state } : null,
    position,
    dust: roundMoney(dust),
    averageEntry: averageEntry === null ? null : roundMoney(averageEntry),
    lastPrice: price,
    unrealisedPnl: roundMoney(unrealised),
    realisedPnl: roundMoney(realised),
    realisedToday: roundMoney(sawProfitRealized ? today : todayFromTp),
    feesPaid: roundMoney(fees),
    cyclesCompleted: cycles,
    fills,
    capitalInUse: roundMoney(capital),
    runtimeSeconds,
    lastRun,
    runs,
    annualisedReturn,
    running: runningSince !== null,
    lastError,
    lastErrorAt,
  };
}
