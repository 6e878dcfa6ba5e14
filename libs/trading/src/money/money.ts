/**
 * The money view of a bot and of an account (issue 29), pure: no I/O, no clock.
 *
 * Its input is the bot's money entries (bot-money.projection.ts keeps them from the bot's stream): each
 * fill with its price, amount, fee and the net base amount the account received, each completed cycle
 * with its profit, the stops that closed the position at market, and the bot's running time.
 *
 *  - **Lots (FIFO)**, for tax reports: every buy is a lot (the NET amount received: a fee the venue took
 *    in the coin bought, Binance spot, is not held), costing price × net amount + the fee (its quote
 *    value; `fee` is always quote, the adapters convert a fee paid in another asset). A sell consumes the
 *    oldest lots first; each lot it touches is one row: acquired, sold, amount, cost basis (its share of
 *    the lot's cost, fees included), proceeds (amount × price less its share of the sell's fee), profit.
 *  - **Realised profit** is the product's: the grid engine's, which realises each take-profit or
 *    stop-loss fill on the AVERAGE cost of the position (libs/trading/src/grid/grid.engine.ts,
 *    `applyToDraft`), recorded as the fill's `profit`. FIFO and average cost give the same total once
 *    what was bought is sold; they differ only on what is still held (a dust rest below the amount step),
 *    by that rest's cost under each method. The sum of the lot profits equals the realised profit
 *    whenever the bot holds nothing (the reconciliation test in money.spec.ts).
 *  - **Total P&L** = realised + unrealised, where unrealised is what is held at the price now minus its
 *    cost (the engine's: so that the total is cash in − cash out + held × price, whichever method).
 *  - **Return** on the capital committed: total P&L ÷ the cost of the bot's full ladder (Σ rung price ×
 *    size ÷ leverage, as the bot page's cost shows it). **Annualised**: that return × a year ÷ the time
 *    the bot has run (simple, not compounded; null under 10 minutes of running, where it says nothing).
 *  - **Equity curve**: the total P&L after each fill, the held amount marked at that fill's price, and a
 *    last point at the price now.
 *  - **Short grids** (issue 32): a fill's role says whether it opens (a rung, `role: 'buy'`, a SELL on a
 *    short grid) or closes (take-profit, stop-loss: a BUY). The held amount is signed (negative: short)
 *    and the cash is the quote received for what was sold short less what buying it back cost; a short lot
 *    is opened by a sell and closed by a buy (its proceeds are the sell's, its cost basis the buy's).
 */
import { roundMoney, subClean, addClean } from '../grid/decimal';
import { rungPrice, rungSize, type RungInput } from '../grid/spacing';

export type FillRole = 'buy' | 'take-profit' | 'stop-loss';

/** A fill of the bot (OrderFilled, TakeProfitFilled, StopLossTriggered). */
export interface MoneyFill {
  kind: 'fill';
  /** The event's stream revision: the order of the bot's history. */
  seq: number;
  /** Exchange time of the fill (ms). */
  at: number;
  fillId: string;
  role: FillRole;
  side: 'buy' | 'sell';
  price: number;
  amount: number;
  /** Buys: the base amount received net of a fee taken in the coin (absent: `amount`). */
  netAmount?: number;
  /** Quote. */
  fee: number;
  /** The asset the venue charged the fee in and how much of it, when the venue said. */
  feeAsset?: string;
  feeCost?: number;
  cycle: number;
  run: number;
  /** Sells: the profit the engine realised on this fill; buys: null. */
  profit: number | null;
}

/** CycleCompleted: the cycle's profit. */
export interface MoneyCycle {
  kind: 'cycle';
  seq: number;
  at: number;
  cycle: number;
  run: number;
  profit: number;
}

/**
 * A stop that closes the position at market (futures, `closePosition`): the next run carries nothing
 * (libs/trading/src/grid/book.ts). The closing sale itself is not recorded as a fill, so what is held
 * leaves the books at its cost.
 */
export interface MoneyDrop {
  kind: 'drop';
  /** The revision of the stop request: runs begun after it start flat. */
  seq: number;
  at: number;
}

/** The bot started running (true) or stopped (false, also on a failure). */
export interface MoneyRun {
  kind: 'run';
  seq: number;
  at: number;
  running: boolean;
}

export type MoneyEntry = MoneyFill | MoneyCycle | MoneyDrop | MoneyRun;

/** One sell matched against one buy lot. */
export interface LotRow {
  /** Time of the buy (ms); null for a sell of nothing the bot was known to hold (its fee only). */
  acquiredAt: number | null;
  soldAt: number;
  buyFillId: string | null;
  /** Null for a buy-back of nothing the bot was known to be short (its fee only, issue 32). */
  sellFillId: string | null;
  cycle: number;
  /** Base amount. */
  amount: number;
  /** Quote: the lot's share of (price × net amount + buy fee). */
  costBasis: number;
  /** Quote: amount × sell price less this row's share of the sell's fee. */
  proceeds: number;
  profit: number;
}

export interface OpenLot {
  fillId: string;
  acquiredAt: number;
  amount: number;
  cost: number;
}

const EPS = 1e-12;
const YEAR_MS = 365 * 24 * 3600 * 1000;
/** Below this much running time a yearly figure says nothing (as the bot page's summary). */
export const MIN_RUNTIME_FOR_ANNUAL_MS = 600_000;

const bySeq = (a: { seq: number }, b: { seq: number }) => a.seq - b.seq;

/** The bot's fills matched first-in first-out: one row per (sell, lot) pair, and what is still held. */
export function fifoLots(entries: readonly MoneyEntry[]): { rows: LotRow[]; open: OpenLot[] } {
  const rows: LotRow[] = [];
  let open: OpenLot[] = [];
  /** Short lots (issue 32): amount and cost negative. */
  let short: OpenLot[] = [];
  let drop: number | null = null;
  /** A buy that closes short lots, oldest first: each row's proceeds are the lot's, its cost basis the buy's share. */
  const closeShort = (e: MoneyFill) => {
    const heldShort = short.reduce((s, l) => addClean(s, -l.amount), 0);
    const bought = Math.min(e.amount, heldShort);
    if (bought <= EPS) {
      rows.push({ acquiredAt: null, soldAt: e.at, buyFillId: e.fillId, sellFillId: null, cycle: e.cycle, amount: 0, costBasis: roundMoney(e.fee), proceeds: 0, profit: roundMoney(-e.fee) });
      return;
    }
    let left = bought;
    while (left > EPS && short.length) {
      const lot = short[0];
      const take = Math.min(left, -lot.amount);
      const whole = subClean(-lot.amount, take) <= EPS;
      const proceeds = whole ? -lot.cost : (-lot.cost * take) / -lot.amount;
      const cost = take * e.price + (e.fee * take) / bought;
      rows.push({ acquiredAt: lot.acquiredAt, soldAt: e.at, buyFillId: e.fillId, sellFillId: lot.fillId, cycle: e.cycle, amount: take, costBasis: roundMoney(cost), proceeds: roundMoney(proceeds), profit: roundMoney(proceeds - cost) });
      if (whole) short.shift();
      else {
        lot.amount = -subClean(-lot.amount, take);
        lot.cost += proceeds;
      }
      left = subClean(left, take);
    }
  };
  for (const e of [...entries].sort(bySeq)) {
    if (e.kind === 'drop') drop = e.seq;
    if (e.kind !== 'fill') continue;
    if (drop !== null && e.run > drop) {
      open = []; // a run begun after a closing stop starts flat
      short = [];
      drop = null;
    }
    if (e.role === 'buy' && e.side === 'sell') {
      // a short grid's rung opens a short lot: amount and cost negative (the quote received, its fee deducted)
      short.push({ fillId: e.fillId, acquiredAt: e.at, amount: -e.amount, cost: -(e.amount * e.price - e.fee) });
      continue;
    }
    if (e.role !== 'buy' && e.side === 'buy') {
      closeShort(e);
      continue;
    }
    if (e.side === 'buy') {
      const held = e.netAmount !== undefined && e.netAmount >= 0 && e.netAmount <= e.amount ? e.netAmount : e.amount;
      if (held > 0) open.push({ fillId: e.fillId, acquiredAt: e.at, amount: held, cost: held * e.price + e.fee });
      continue;
    }
    // a sell: the engine counts the proceeds of what the bot held, and the whole fee
    const heldTotal = open.reduce((s, l) => addClean(s, l.amount), 0);
    const sold = Math.min(e.amount, heldTotal);
    if (sold <= EPS) {
      rows.push({ acquiredAt: null, soldAt: e.at, buyFillId: null, sellFillId: e.fillId, cycle: e.cycle, amount: 0, costBasis: 0, proceeds: roundMoney(-e.fee), profit: roundMoney(-e.fee) });
      continue;
    }
    let left = sold;
    while (left > EPS && open.length) {
      const lot = open[0];
      const take = Math.min(left, lot.amount);
      const whole = subClean(lot.amount, take) <= EPS;
      const cost = whole ? lot.cost : (lot.cost * take) / lot.amount;
      const proceeds = take * e.price - (e.fee * take) / sold;
      rows.push({
        acquiredAt: lot.acquiredAt,
        soldAt: e.at,
        buyFillId: lot.fillId,
        sellFillId: e.fillId,
        cycle: e.cycle,
        amount: take,
        costBasis: roundMoney(cost),
        proceeds: roundMoney(proceeds),
        profit: roundMoney(proceeds - cost),
      });
      if (whole) open.shift();
      else {
        lot.amount = subClean(lot.amount, take);
        lot.cost -= cost;
      }
      left = subClean(left, take);
    }
  }
  return { rows, open: [...open, ...short] };
}

/** The cost of the bot's full ladder: Σ rung price × size ÷ leverage (rungs at or below zero left out). */
export function committedCapital(config: RungInput & { numOfOrders: number; leverage?: number }): number {
  const leverage = config.leverage && config.leverage >= 1 ? config.leverage : 1;
  let cost = 0;
  for (let i = 0; i < Math.min(1000, Math.floor(config.numOfOrders)); i++) {
    const p = rungPrice(config, i);
    if (p > 0) cost += (p * rungSize(config, i)) / leverage;
  }
  return roundMoney(cost);
}

export interface EquityPoint {
  /** ms */
  time: number;
  /** Total P&L (quote) at that moment. */
  pnl: number;
}

export interface Performance {
  realisedPnl: number;
  unrealisedPnl: number;
  totalPnl: number;
  feesPaid: number;
  /** Base amount held (negative: a short grid's position, issue 32). */
  position: number;
  lastPrice: number | null;
  capitalCommitted: number;
  /** totalPnl ÷ capitalCommitted, in % (null without a committed capital). */
  returnPercent: number | null;
  /** returnPercent scaled to a year of running time (simple), null under 10 minutes. */
  annualisedPercent: number | null;
  runtimeMs: number;
  cyclesCompleted: number;
  fills: number;
  equity: EquityPoint[];
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

/**
 * A bot's performance from its money entries, the price now (null: not known, the held amount is then
 * marked at the last fill's price) and its committed capital, at `now` (ms).
 */
export function botPerformance(entries: readonly MoneyEntry[], price: number | null, capitalCommitted: number, now: number): Performance {
  let realised = 0;
  let fees = 0;
  let held = 0; // base, as the engine holds it
  let cash = 0; // quote: proceeds net of fees − what the buys cost (fees included)
  let cycles = 0;
  let fills = 0;
  let lastPrice: number | null = null;
  let runningSince: number | null = null;
  let runtime = 0;
  let drop: number | null = null;
  const equity: EquityPoint[] = [];
  for (const e of [...entries].sort(bySeq)) {
    switch (e.kind) {
      case 'run':
        if (e.running && runningSince === null) runningSince = e.at;
        if (!e.running && runningSince !== null) {
          runtime += Math.max(0, e.at - runningSince);
          runningSince = null;
        }
        break;
      case 'cycle':
        cycles += 1;
        break;
      case 'drop':
        drop = e.seq;
        break;
      case 'fill': {
        if (drop !== null && e.run > drop) {
          // the position left the books at its cost: what the engine's realised profit already excludes
          cash = realised;
          held = 0;
          drop = null;
        }
        fills += 1;
        fees += e.fee;
        lastPrice = e.price;
        if (e.role === 'buy' && e.side === 'sell') {
          // a short grid's rung (issue 32): sold short, held goes negative, the quote received is cash
          held = subClean(held, e.amount);
          cash += e.amount * e.price - e.fee;
        } else if (e.role !== 'buy' && e.side === 'buy') {
          // its take-profit or stop-loss buys back what is short
          const bought = Math.min(e.amount, held < 0 ? -held : 0);
          held = addClean(held, bought);
          if (Math.abs(held) < EPS) held = 0;
          cash -= bought * e.price + e.fee;
          realised += e.profit ?? 0;
        } else if (e.side === 'buy') {
          const net = e.netAmount !== undefined && e.netAmount >= 0 && e.netAmount <= e.amount ? e.netAmount : e.amount;
          held = addClean(held, net);
          cash -= net * e.price + e.fee;
        } else {
          const sold = Math.min(e.amount, held);
          held = subClean(held, sold);
          if (held < EPS) held = 0;
          cash += sold * e.price - e.fee;
          realised += e.profit ?? 0;
        }
        equity.push({ time: e.at, pnl: roundMoney(cash + held * e.price) });
        break;
      }
    }
  }
  if (runningSince !== null) runtime += Math.max(0, now - runningSince);
  const mark = price ?? lastPrice;
  const total = roundMoney(cash + (mark !== null ? held * mark : 0));
  realised = roundMoney(realised);
  if (equity.length && price !== null) equity.push({ time: Math.max(now, equity[equity.length - 1].time), pnl: total });
  const ret = capitalCommitted > 0 ? (total / capitalCommitted) * 100 : null;
  return {
    realisedPnl: realised,
    unrealisedPnl: roundMoney(total - realised),
    totalPnl: total,
    feesPaid: roundMoney(fees),
    position: roundMoney(held),
    lastPrice: price ?? lastPrice,
    capitalCommitted: roundMoney(capitalCommitted),
    returnPercent: ret === null ? null : roundMoney(ret),
    annualisedPercent: ret !== null && runtime >= MIN_RUNTIME_FOR_ANNUAL_MS ? roundMoney((ret * YEAR_MS) / runtime) : null,
    runtimeMs: runtime,
    cyclesCompleted: cycles,
    fills,
    equity: thin(equity),
  };
}

export interface AccountPerformance extends Omit<Performance, 'position' | 'lastPrice' | 'equity'> {
  bots: number;
  equity: EquityPoint[];
}

/**
 * The account's performance: the bots' figures added up; the return over the capital all of them
 * commit; annualised over the longest-running bot's time; the curve the sum of each bot's latest P&L.
 */
export function accountPerformance(bots: readonly Performance[], now: number): AccountPerformance {
  const sum = (f: (p: Performance) => number) => roundMoney(bots.reduce((s, p) => s + f(p), 0));
  const total = sum((p) => p.totalPnl);
  const capital = sum((p) => p.capitalCommitted);
  const runtime = bots.reduce((m, p) => Math.max(m, p.runtimeMs), 0);
  const ret = capital > 0 ? (total / capital) * 100 : null;
  // merge: at each bot's point, the account's P&L is every bot's latest value so far
  const events = bots.flatMap((p, i) => p.equity.map((pt) => ({ ...pt, i }))).sort((a, b) => a.time - b.time);
  const latest = new Array<number>(bots.length).fill(0);
  let running = 0;
  const equity: EquityPoint[] = [];
  for (const pt of events) {
    running += pt.pnl - latest[pt.i];
    latest[pt.i] = pt.pnl;
    const point = { time: pt.time, pnl: roundMoney(running) };
    if (equity.length && equity[equity.length - 1].time === pt.time) equity[equity.length - 1] = point;
    else equity.push(point);
  }
  if (equity.length && equity[equity.length - 1].pnl !== total) equity.push({ time: Math.max(now, equity[equity.length - 1].time), pnl: total });
  return {
    bots: bots.length,
    realisedPnl: sum((p) => p.realisedPnl),
    unrealisedPnl: sum((p) => p.unrealisedPnl),
    totalPnl: total,
    feesPaid: sum((p) => p.feesPaid),
    capitalCommitted: capital,
    returnPercent: ret === null ? null : roundMoney(ret),
    annualisedPercent: ret !== null && runtime >= MIN_RUNTIME_FOR_ANNUAL_MS ? roundMoney((ret * YEAR_MS) / runtime) : null,
    runtimeMs: runtime,
    cyclesCompleted: bots.reduce((s, p) => s + p.cyclesCompleted, 0),
    fills: bots.reduce((s, p) => s + p.fills, 0),
    equity: thin(equity),
  };
}

/** A row of the trades list: a fill with the profit of its cycle (null while the cycle is open). */
export interface TradeRow {
  fillId: string;
  at: number;
  role: FillRole;
  side: 'buy' | 'sell';
  price: number;
  amount: number;
  netAmount: number;
  fee: number;
  feeAsset: string | null;
  feeCost: number | null;
  cycle: number;
  /** Sells: what this fill realised. */
  profit: number | null;
  /** The profit of the fill's cycle once completed, else null. */
  cycleProfit: number | null;
}

export function tradeRow(f: MoneyFill, cycleProfit: number | null): TradeRow {
  return {
    fillId: f.fillId,
    at: f.at,
    role: f.role,
    side: f.side,
    price: f.price,
    amount: f.amount,
    netAmount: f.netAmount ?? f.amount,
    fee: f.fee,
    feeAsset: f.feeAsset ?? null,
    feeCost: f.feeCost ?? null,
    cycle: f.cycle,
    profit: f.profit,
    cycleProfit,
  };
}

/** The CSV's columns, in order (docs/money.md describes each). */
export const LOT_CSV_COLUMNS = ['date_acquired', 'date_sold', 'symbol', 'amount', 'cost_basis', 'proceeds', 'profit', 'currency', 'cycle', 'buy_fill_id', 'sell_fill_id'] as const;

/** A field as RFC 4180 writes it, with a leading formula character defused (CSV injection). */
function csvField(v: string): string {
  const safe = /^[=+\-@\t\r]/.test(v) && !/^-?[0-9.]+$/.test(v) ? `'${v}` : v;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

const iso = (ms: number | null) => (ms === null ? '' : new Date(ms).toISOString());
/** A number without exponent or float noise (up to 8 decimals; amounts up to 12). */
const num = (x: number, decimals = 8) => {
  const s = x.toFixed(decimals);
  return s.includes('.') ? s.replace(/0+$/, '').replace(/\.$/, '') : s;
};

/** The lots as CSV: a header line, then one line per row, CRLF-terminated (RFC 4180). */
export function lotsCsv(rows: readonly LotRow[], symbol: string, currency: string): string {
  let out = LOT_CSV_COLUMNS.join(',') + '\r\n';
  for (const r of rows) {
    out +=
      [iso(r.acquiredAt), iso(r.soldAt), symbol, num(r.amount, 12), num(r.costBasis), num(r.proceeds), num(r.profit), currency, String(r.cycle), r.buyFillId ?? '', r.sellFillId ?? '']
        .map(csvField)
        .join(',') + '\r\n';
  }
  return out;
}
