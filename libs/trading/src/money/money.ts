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
 *  - **The figures** (position, fills, fees, capital, P&L, return, annualised, the equity curve) are one fold,
 *    figures.ts, that every screen reads (issue 40, point 1); re-exported here.
 *  - **Short grids** (issue 32): a fill's role says whether it opens (a rung, `role: 'buy'`, a SELL on a
 *    short grid) or closes (take-profit, stop-loss: a BUY). The held amount is signed (negative: short)
 *    and the cash is the quote received for what was sold short less what buying it back cost; a short lot
 *    is opened by a sell and closed by a buy (its proceeds are the sell's, its cost basis the buy's). Its
 *    row is dated as its fills were: acquired when the buy-back bought, sold when the opening sell sold
 *    (issue 40, point 4: the two were swapped), so a short's `date_sold` comes before its `date_acquired`.
 */
import { roundMoney, subClean, addClean } from '../grid/decimal';
import type { MoneyEntry, MoneyFill, FillRole } from './money-entries';

export type { FillRole, MoneyCycle, MoneyDrop, MoneyEntry, MoneyFill, MoneyRun, FigureFact, StreamEvent } from './money-entries';
export { moneyEntryFrom, figureFactsOf, MONEY_EVENT_TYPES } from './money-entries';
// the figures every screen reads (issue 40, point 1): one fold, figures.ts
export { accountPerformance } from './account-figures';
export type { AccountPerformance, AccountPerformanceView, BotPerformanceView } from './account-figures';
export {
  MIN_RUNTIME_FOR_ANNUAL_DAYS,
  MIN_RUNTIME_FOR_ANNUAL_MS,
  MAX_CURVE_POINTS,
  annualised,
  botFigures,
  botPerformance,
  committedCapital,
  committedCapitalOf,
  foldFigures,
  thin,
} from './figures';
export type { BotFigures, EquityPoint, Performance } from './figures';

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
      // a short lot: the buy-back acquired the coin, the opening sell (the lot) sold it
      rows.push({ acquiredAt: e.at, soldAt: lot.acquiredAt, buyFillId: e.fillId, sellFillId: lot.fillId, cycle: e.cycle, amount: take, costBasis: roundMoney(cost), proceeds: roundMoney(proceeds), profit: roundMoney(proceeds - cost) });
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
