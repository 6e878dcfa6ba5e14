/**
 * A backtest is the grid engine over candles. The SAME pure engine the runner trades with
 * (`processFill`, `desiredOrders` of @gridrocket/trading/grid) decides every order; this file only plays
 * the exchange, exactly as the paper exchange does (libs/exchanges/src/paper.exchange.ts):
 *  - every point of a candle's path (candlePath: open → low → high → close when rising, open → high →
 *    low → close when falling) is a trade print; a resting limit buy fills when a print is at or below
 *    its price, the take-profit when a print is at or above its price, always at the limit price and in
 *    full; several orders crossed by one print fill together (a gap fills every rung it passes);
 *  - after fills, the orders the engine wants are placed at the current price; one that already
 *    crosses it fills at once at its limit price (as the paper venue does on placement);
 *  - each fill pays the venue's fee (FeeTerms: maker for resting orders, taker for orders crossing on
 *    placement; in quote, or on Binance-like spot buys in the coin: the engine then gets the net
 *    amount), rounded like the paper venue (1e-8, half up).
 *
 * Speed: between fills the engine's orders do not change, so the highest resting buy and the
 * take-profit price are kept as two numbers. A candle whose low is above the one and whose high is
 * below the other costs two comparisons plus the mark-to-market bookkeeping (a few multiplications).
 *
 * A short grid (issue 32, GridConfig.direction) is the same walk mirrored with a sign s = −1: a resting
 * rung (a sell) fills when a print is at or ABOVE it, the take-profit (a buy) when a print is at or
 * below it, and the equity is capital + realised − entry fees + s·(amount × price − cost).
 * Buy and hold stays the market's benchmark (the capital bought at the first open), for both directions.
 *
 * Trailing down (issue 32, `trailDownLimit`, grid/trail-down.ts): after a print's fills, a print more
 * than one interval below a fully filled ladder moves the ladder down as the runner does on that price
 * (trailDownBook), and the new ladder is placed at once (its top rung, at the print, fills as a taker).
 * The fast path then also watches the trigger price. `capital` stays the first ladder's cost.
 */
import { applyFills, desiredOrders, directionOf, initialState, processFill, signOf, takeProfitOrder, trailDownBook, trailDownTarget, trailDownTrigger, validateGrid } from '@gridrocket/trading/grid';
import type { DesiredOrder, Fill, GridConfig, GridState, MarketRules } from '@gridrocket/trading/grid';
import type { CandleSeries } from './candle';

/**
 * How the venue charges and fills (the paper exchange's model of it). Defaults: the paper exchange of
 * this branch (one fee rate in quote, a crossing order fills at its limit price).
 */
export interface FeeTerms {
  /** Maker fee per fill in basis points of its notional (paper: spot 10, futures 2): resting orders. */
  feeBps: number;
  /** Taker fee, for an order that crosses the price when placed (default: feeBps). */
  takerFeeBps?: number;
  /** 'base': a buy's fee is taken from the coin received (Binance spot); the engine gets the net amount. */
  buyFeeIn?: 'quote' | 'base';
  /** An order crossing the price when placed fills at its own limit price, or at the current price ('market'). */
  crossingFill?: 'limit' | 'market';
}

export function feeTermsOf(t: FeeTerms): FeeTerms {
  return { feeBps: t.feeBps, takerFeeBps: t.takerFeeBps, buyFeeIn: t.buyFeeIn, crossingFill: t.crossingFill };
}

export interface BacktestParams extends FeeTerms {
  config: GridConfig;
  rules: MarketRules;
  /** At most this many points in the equity curve (default 300). */
  curvePoints?: number;
  /** Keep every fill in the result (tests, CLI); off for sweeps. */
  recordFills?: boolean;
  /** Read every order from desiredOrders after every fill (the reference the fast path is tested against). */
  fullRefresh?: boolean;
}

export interface BacktestFill {
  time: number;
  side: 'buy' | 'sell';
  clientOrderId: string;
  price: number;
  amount: number;
  /** The fee's value in quote. */
  fee: number;
  /** Buys whose fee is taken in the coin: what the account received. */
  netAmount?: number;
  /** Filled on placement, crossing the price (taker). */
  taker?: boolean;
}

export interface BacktestResult {
  candles: number;
  from: number;
  to: number;
  /** The grid's cost (Σ price × amount ÷ leverage): the capital it locks. */
  capital: number;
  /** Realised profit after fees, as the bot reports it. */
  profit: number;
  /** Value of the open position at the last close minus its cost and its buy fees. */
  unrealised: number;
  fees: number;
  cycles: number;
  fills: number;
  /** Largest fall of equity (capital + realised + unrealised) from a previous peak, in quote and as a fraction of that peak. */
  maxDrawdown: number;
  maxDrawdownPct: number;
  /** Times a trailing-down grid moved its ladder down (issue 32; 0 without `trailDownLimit`). */
  trails: number;
  /** Fraction of candles that ended holding a position. */
  timeInMarket: number;
  endEquity: number;
  totalReturn: number;
  annualisedReturn: number;
  /** The same capital bought at the first open and held to the last close (one buy fee). */
  buyAndHold: { profit: number; totalReturn: number };
  position: { amount: number; averageEntry: number };
  curve: { time: number[]; equity: number[] };
  fillLog?: BacktestFill[];
}

const YEAR_MS = 365.25 * 86_400_000;

/** Fee in quote, rounded as the paper venue does: notional to 1e-8, then the fee to 1e-8 (half up). */
export function feeOf(price: number, amount: number, feeBps: number): number {
  const notionalUnits = Math.round(price * amount * 1e8);
  return Math.round((notionalUnits * feeBps) / 10_000) / 1e8;
}

/** A buy's fee taken in the coin, as the paper venue does it: fee = amount × rate (1e-8), net = amount − fee, its quote value at the price. */
export function coinFeeOf(price: number, amount: number, feeBps: number): { fee: number; netAmount: number } {
  const amountUnits = Math.round(amount * 1e8);
  const feeUnits = Math.round((amountUnits * feeBps) / 10_000);
  return { fee: Math.round(price * feeUnits) / 1e8, netAmount: (amountUnits - feeUnits) / 1e8 };
}

const r8 = (x: number) => Math.round(x * 1e8) / 1e8;

/** The simulated venue around one grid: resting orders, fills, equity. */
class GridSim {
  state: GridState;
  /** Resting rungs, nearest the price first (long: buys, highest first; short: sells, lowest first), and the take-profit. */
  buys: DesiredOrder[] = [];
  tp: DesiredOrder | null = null;
  /** +1 long, −1 short: `s × price` turns every comparison of the short grid into the long one's. */
  readonly s: 1 | -1;
  nextBuy: number;
  tpPrice: number;
  /** equity(price) = base + amount × price (amount signed: negative for a short position) */
  base = 0;
  amount = 0;
  fills = 0;
  /** Times the ladder trailed down. */
  trails = 0;
  fillLog: BacktestFill[] | null;
  private seq = 0;
  private placed = new Map<string, number>();
  private placeSeq = 0;

  constructor(
    readonly params: BacktestParams,
    readonly capital: number,
  ) {
    this.state = initialState(params.config, params.rules, 'backtest');
    this.s = signOf(directionOf(params.config));
    this.nextBuy = -this.s * Infinity;
    this.tpPrice = this.s * Infinity;
    this.fillLog = params.recordFills ? [] : null;
    this.refresh();
  }

  /** The mark-to-market terms of the engine's position. */
  private mark(): void {
    const pos = this.state.position;
    this.amount = this.s * pos.amount;
    this.base = this.capital + this.state.profit - pos.buyFees - this.s * pos.cost;
  }

  /** Reads the orders the engine wants now. */
  refresh(): void {
    const orders = desiredOrders(this.params.config, this.params.rules, this.state);
    // Placement order: an order keeps the sequence of its first appearance (the exchange's time priority).
    const placed = new Map<string, number>();
    for (const o of orders) placed.set(o.clientOrderId, this.placed.get(o.clientOrderId) ?? ++this.placeSeq);
    this.placed = placed;
    this.tp = orders.length && orders[0].role === 'take-profit' ? orders[0] : null;
    this.buys = this.tp ? orders.slice(1) : orders;
    this.nextBuy = this.buys.length ? this.buys[0].price : -this.s * Infinity;
    this.tpPrice = this.tp ? this.tp.price : this.s * Infinity;
    this.mark();
  }

  /**
   * Applies fills of these orders (in this order) to the engine, one state copy for all of them.
   * `taker`: the orders cross the price as they are placed (`price`, the current print).
   */
  private fill(orders: DesiredOrder[], time: number, taker: boolean, current: number): void {
    const p = this.params;
    const bps = taker ? (p.takerFeeBps ?? p.feeBps) : p.feeBps;
    const fills: Array<Fill & { netAmount?: number }> = [];
    for (const order of orders) {
      const price = taker && p.crossingFill === 'market' ? current : order.price;
      let fee: number;
      let netAmount: number | undefined;
      if (order.side === 'buy' && p.buyFeeIn === 'base') ({ fee, netAmount } = coinFeeOf(price, order.amount, bps));
      else fee = feeOf(price, order.amount, bps);
      const fill: Fill & { netAmount?: number } = { clientOrderId: order.clientOrderId, fillId: String(++this.seq), price, amount: order.amount, fee };
      if (netAmount !== undefined) fill.netAmount = netAmount;
      fills.push(fill);
      this.fillLog?.push({
        time, side: order.side, clientOrderId: order.clientOrderId, price, amount: order.amount, fee,
        ...(netAmount !== undefined ? { netAmount } : {}), ...(taker ? { taker: true } : {}),
      });
    }
    const next = fills.length === 1 ? processFill(this.state, fills[0]).state : applyFills(this.state, fills);
    // Fill ids here are unique by construction: drop the engine's duplicate index so that a long run
    // does not copy an ever-growing list on every fill.
    this.state = next.processedFillIds.length ? { ...next, processedFillIds: [] } : next;
    this.fills += fills.length;
  }

  /**
   * After buy fills: in the engine a buy fill changes only its own level (now filled, so no longer
   * desired) and the take-profit; so the resting buys lose the filled ones and the take-profit is read
   * again (takeProfitOrder). Same orders as desiredOrders would give (engine.equivalence.spec.ts).
   */
  private afterBuys(crossed: DesiredOrder[]): void {
    const filled = new Set(crossed);
    this.buys = this.buys.filter((b) => !filled.has(b));
    this.tp = takeProfitOrder(this.params.config, this.params.rules, this.state);
    if (this.tp && !this.placed.has(this.tp.clientOrderId)) this.placed.set(this.tp.clientOrderId, ++this.placeSeq);
    this.nextBuy = this.buys.length ? this.buys[0].price : -this.s * Infinity;
    this.tpPrice = this.tp ? this.tp.price : this.s * Infinity;
    this.mark();
  }

  /** Trailing down at this print (the runner's decision on the same price): true when the ladder moved. */
  private trailDown(price: number): boolean {
    const { config, rules } = this.params;
    if (config.trailDownLimit === undefined) return false;
    const target = trailDownTarget(config, rules, this.state, price);
    if (!target) return false;
    this.state = trailDownBook(this.state, config, rules, target.to);
    this.trails++;
    this.refresh();
    return true;
  }

  /** The highest price whose print may act (long): the next buy, or the trail-down trigger of a filled ladder. */
  get lowWatch(): number {
    const trigger = this.params.config.trailDownLimit === undefined ? null : trailDownTrigger(this.params.config, this.state);
    return trigger === null ? this.nextBuy : Math.max(this.nextBuy, trigger);
  }

  /** A trade print at `price`: fill what it crosses, place what the engine then wants, repeat. */
  print(price: number, time: number, placedNow = false): void {
    // Round 0 fills the resting orders the print reaches (makers, at their limit prices); later rounds
    // fill orders that cross the price as they are placed (takers), as does round 0 of the first
    // placement (`placedNow`).
    // Each round fills at least one order; a buy-fill round defines a take-profit above the price, so
    // rounds are bounded by the ladder. The guard only turns an engine bug into an error, never a hang.
    for (let round = 0; ; round++) {
      const taker = placedNow || round > 0;
      if (round > 4 * this.params.config.numOfOrders + 8) throw new Error(`The grid keeps filling at ${price}: engine loop`);
      const s = this.s;
      if (s * price <= s * this.nextBuy) {
        const crossed: DesiredOrder[] = [];
        for (const b of this.buys) if (s * b.price >= s * price) crossed.push(b);
        // One print fills every crossed order, oldest placement first (as the paper venue's book does).
        if (crossed.length > 1) crossed.sort((a, b) => this.placed.get(a.clientOrderId)! - this.placed.get(b.clientOrderId)!);
        this.fill(crossed, time, taker, price);
        if (this.params.fullRefresh) this.refresh();
        else this.afterBuys(crossed);
      } else if (s * price >= s * this.tpPrice) {
        this.fill([this.tp!], time, taker, price);
        this.refresh(); // the cycle may be complete: levels re-armed under new ids
      } else if (!this.trailDown(price)) return;
    }
  }
}

/** Runs one grid over the candles. Throws when the grid is invalid for the market (validateGrid's reason). */
export function runBacktest(series: CandleSeries, params: BacktestParams): BacktestResult {
  const n = series.length;
  if (n === 0) throw new Error('No candles to backtest');
  const validation = validateGrid(params.config, params.rules);
  if (!validation.ok) throw new Error(validation.reason);
  const capital = validation.cost;
  const sim = new GridSim(params, capital);
  const { time, open, high, low, close } = series;

  const points = Math.max(2, params.curvePoints ?? 300);
  const stride = Math.max(1, Math.ceil(n / points));
  const curveT: number[] = [];
  const curveE: number[] = [];

  // Mark to market: equity = base + amount × price; peak/trough along the path.
  let peak = capital;
  let maxDd = 0;
  let maxDdPct = 0;
  let inMarket = 0;
  let nextBuy = sim.nextBuy;
  let tpPrice = sim.tpPrice;
  let base = sim.base;
  let amount = sim.amount;
  let countdown = 0;
  // A candle touches no order when all its prints lie strictly between these two (long: the next buy
  // and the take-profit; short: the take-profit and the next sell).
  const short = sim.s === -1;
  let below = short ? tpPrice : nextBuy;
  let above = short ? nextBuy : tpPrice;
  /** Takes the sim's position and the two watched prices after a print (long: below is the next buy or the trail-down trigger). */
  const sync = () => {
    nextBuy = sim.nextBuy;
    tpPrice = sim.tpPrice;
    base = sim.base;
    amount = sim.amount;
    below = short ? tpPrice : sim.lowWatch;
    above = short ? nextBuy : tpPrice;
  };
  /** One print's equity on the drawdown: the peak first, then the fall from it. */
  const visit = (e: number) => {
    if (e > peak) peak = e;
    const dd = peak - e;
    if (dd > maxDd) maxDd = dd;
    if (dd / peak > maxDdPct) maxDdPct = dd / peak;
  };

  sim.print(open[0], time[0], true); // the ladder is placed at the first open
  sync();

  for (let i = 0; i < n; i++) {
    const l = low[i];
    const h = high[i];
    if (l > below && h < above) {
      // No print of this candle reaches an order: only the mark to market moves (the path's low and
      // high in their order: rising open → low → high, falling open → high → low).
      if (amount !== 0) {
        inMarket++;
        if (close[i] >= open[i]) {
          visit(base + amount * l);
          visit(base + amount * h);
        } else {
          visit(base + amount * h);
          visit(base + amount * l);
        }
      } else if (base > peak) peak = base;
    } else {
      // Slow path: walk the four prints of the path.
      const o = open[i];
      const c = close[i];
      const t = time[i];
      const rising = c >= o;
      const p1 = rising ? l : h;
      const p2 = rising ? h : l;
      for (let k = 0; k < 4; k++) {
        const p = k === 0 ? o : k === 1 ? p1 : k === 2 ? p2 : c;
        sim.print(p, t);
        visit(sim.base + sim.amount * p);
      }
      sync();
      if (amount !== 0) inMarket++;
    }
    if (countdown-- === 0) {
      countdown = stride - 1;
      curveT.push(time[i]);
      curveE.push(r8(base + amount * close[i]));
    }
  }
  const lastClose = close[n - 1];
  if (curveT[curveT.length - 1] !== time[n - 1]) {
    curveT.push(time[n - 1]);
    curveE.push(r8(base + amount * lastClose));
  }

  const st = sim.state;
  const endEquity = r8(base + amount * lastClose);
  // (amount is signed: short, the quote received less what buying back at the last close costs)
  const unrealised = r8(amount * lastClose - sim.s * st.position.cost - st.position.buyFees);
  const totalReturn = capital > 0 ? (endEquity - capital) / capital : 0;
  const spanMs = Math.max(1, time[n - 1] - time[0] + (n > 1 ? (time[n - 1] - time[0]) / (n - 1) : 60_000));
  const annualisedReturn = totalReturn <= -1 ? -1 : Math.pow(1 + totalReturn, YEAR_MS / spanMs) - 1;
  const holdFee = capital * (params.feeBps / 10_000);
  const holdProfit = r8(capital * (lastClose / open[0] - 1) - holdFee);

  return {
    candles: n,
    from: time[0],
    to: time[n - 1],
    capital,
    profit: st.profit,
    unrealised,
    fees: st.feesPaid,
    cycles: st.cyclesCompleted,
    fills: sim.fills,
    trails: sim.trails,
    maxDrawdown: r8(maxDd),
    maxDrawdownPct: maxDdPct,
    timeInMarket: inMarket / n,
    endEquity,
    totalReturn,
    annualisedReturn: Number.isFinite(annualisedReturn) ? annualisedReturn : Number.MAX_VALUE,
    buyAndHold: { profit: holdProfit, totalReturn: capital > 0 ? holdProfit / capital : 0 },
    position: { amount: st.position.amount, averageEntry: st.position.averageEntry },
    curve: { time: curveT, equity: curveE },
    ...(sim.fillLog ? { fillLog: sim.fillLog } : {}),
  };
}
