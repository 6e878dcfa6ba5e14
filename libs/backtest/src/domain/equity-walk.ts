/**
 * The mark-to-market of a backtest whose engine is not the ladder's (issue 32: the neutral and the
 * infinity grids): the figures the ladder's backtest gives (backtest.engine.ts: equity curve, drawdown,
 * time in market, returns, buy and hold), measured the same way from the fills the runner reports.
 *
 * Equity at a print = capital + cash + position × price, where cash is what the fills moved in quote
 * (a sell adds price × amount − its fee, a buy takes price × amount and its fee when paid in quote;
 * a buy whose fee is taken in the coin holds its net amount) and the position is signed (futures: a
 * short is negative). This equals capital + realised + unrealised however the engine matches its lots.
 *  - drawdown: the largest fall of that equity from a previous peak (the capital is the first peak),
 *    visited at every print of every candle's path, after the print's fills, as the ladder does;
 *  - time in market: the share of candles that end holding a position;
 *  - curve: the equity at the close of every `stride`-th candle (at most `curvePoints`, default 300) and
 *    the last, rounded to 1e-8, as the ladder's.
 * Pure: no I/O.
 */
import type { BacktestFill } from './backtest.engine';
import type { CandleSeries } from './candle';

/** What a runner tells its observer, in this order: each fill, then the print it happened at; each candle's end. */
export interface BacktestObserver {
  fill(f: BacktestFill): void;
  print(price: number): void;
  candle(index: number): void;
}

const r8 = (x: number) => Math.round(x * 1e8) / 1e8;
const YEAR_MS = 365.25 * 86_400_000;

export interface EquityFigures {
  maxDrawdown: number;
  maxDrawdownPct: number;
  timeInMarket: number;
  endEquity: number;
  totalReturn: number;
  annualisedReturn: number;
  buyAndHold: { profit: number; totalReturn: number };
  curve: { time: number[]; equity: number[] };
}

export class EquityWalk implements BacktestObserver {
  private cash = 0;
  private position = 0;
  private peak: number;
  private maxDd = 0;
  private maxDdPct = 0;
  private inMarket = 0;
  private countdown = 0;
  private readonly stride: number;
  private readonly curveT: number[] = [];
  private readonly curveE: number[] = [];

  constructor(
    readonly capital: number,
    private readonly series: CandleSeries,
    curvePoints = 300,
  ) {
    this.peak = capital;
    this.stride = Math.max(1, Math.ceil(series.length / Math.max(2, curvePoints)));
  }

  fill(f: BacktestFill): void {
    const notional = f.price * f.amount;
    if (f.side === 'buy') {
      this.cash = r8(this.cash - notional - (f.netAmount === undefined ? f.fee : 0));
      this.position = r8(this.position + (f.netAmount ?? f.amount));
    } else {
      this.cash = r8(this.cash + notional - f.fee);
      this.position = r8(this.position - f.amount);
    }
  }

  /** Equity at this price. */
  equity(price: number): number {
    return this.capital + this.cash + this.position * price;
  }

  print(price: number): void {
    const e = this.equity(price);
    if (e > this.peak) this.peak = e;
    const dd = this.peak - e;
    if (dd > this.maxDd) this.maxDd = dd;
    if (this.peak > 0 && dd / this.peak > this.maxDdPct) this.maxDdPct = dd / this.peak;
  }

  candle(i: number): void {
    if (this.position !== 0) this.inMarket++;
    if (this.countdown-- === 0) {
      this.countdown = this.stride - 1;
      this.curveT.push(this.series.time[i]);
      this.curveE.push(r8(this.equity(this.series.close[i])));
    }
  }

  /**
   * The figures at the end. `endEquity` is the engine's own capital + realised + unrealised (the same
   * number as the walk's to rounding); returns and buy and hold as backtest.engine.ts computes them.
   */
  figures(endEquity: number, feeBps: number): EquityFigures {
    const { time, open, close } = this.series;
    const n = this.series.length;
    const curve = { time: [...this.curveT], equity: [...this.curveE] };
    if (curve.time[curve.time.length - 1] !== time[n - 1]) {
      curve.time.push(time[n - 1]);
      curve.equity.push(r8(this.equity(close[n - 1])));
    }
    const capital = this.capital;
    const totalReturn = capital > 0 ? (endEquity - capital) / capital : 0;
    const spanMs = Math.max(1, time[n - 1] - time[0] + (n > 1 ? (time[n - 1] - time[0]) / (n - 1) : 60_000));
    const annualised = totalReturn <= -1 ? -1 : Math.pow(1 + totalReturn, YEAR_MS / spanMs) - 1;
    const holdProfit = r8(capital * (close[n - 1] / open[0] - 1) - capital * (feeBps / 10_000));
    return {
      maxDrawdown: r8(this.maxDd),
      maxDrawdownPct: this.maxDdPct,
      timeInMarket: this.inMarket / n,
      endEquity,
      totalReturn,
      annualisedReturn: Number.isFinite(annualised) ? annualised : Number.MAX_VALUE,
      buyAndHold: { profit: holdProfit, totalReturn: capital > 0 ? holdProfit / capital : 0 },
      curve,
    };
  }
}
