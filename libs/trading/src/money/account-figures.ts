/**
 * The account's figures (issue 29, issue 40 point 6) and the answers of the money routes, pure: the bots'
 * figures (figures.ts, the one projection) added up; what a performance answer carries.
 */
import { roundMoney } from '../grid/decimal';
import { annualised, thin, type Direction, type EquityPoint, type Performance } from './figures';

export interface AccountPerformance {
  bots: number;
  /** How many of them are running now (started, not yet stopped). */
  botsRunning: number;
  realisedPnl: number;
  realisedToday: number;
  unrealisedPnl: number;
  totalPnl: number;
  feesPaid: number;
  /** What every bot's orders and position hold on the venues now (a stopped bot's position and orders left open included). */
  capitalInUse: number;
  /** What the RUNNING bots' full ladders take (issue 40, point 6: not the bots never started or stopped). */
  capitalCommitted: number;
  /** totalPnl ÷ the capital committed by every bot that has run (the bots whose P&L it is), in %. */
  returnPercent: number | null;
  /** Over the longest-running bot's time, from 7 days. */
  annualisedPercent: number | null;
  runtimeMs: number;
  cyclesCompleted: number;
  fills: number;
  equity: EquityPoint[];
}

/**
 * The account's performance: the bots' figures added up (one currency: the caller groups by it); the capital
 * committed by the running bots; the return over the capital of the bots that have run; annualised over
 * the longest-running bot's time; the curve the sum of each bot's latest P&L.
 */
export function accountPerformance(bots: readonly Performance[], now: number): AccountPerformance {
  const sum = (f: (p: Performance) => number, of: readonly Performance[] = bots) => roundMoney(of.reduce((s, p) => s + f(p), 0));
  const total = sum((p) => p.totalPnl);
  const ran = bots.filter((p) => p.runtimeMs > 0 || p.fills > 0);
  const base = sum((p) => p.capitalCommitted, ran);
  const runtime = bots.reduce((m, p) => Math.max(m, p.runtimeMs), 0);
  const ret = base > 0 ? (total / base) * 100 : null;
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
    botsRunning: bots.filter((p) => p.running).length,
    realisedPnl: sum((p) => p.realisedPnl),
    realisedToday: sum((p) => p.realisedToday),
    unrealisedPnl: sum((p) => p.unrealisedPnl),
    totalPnl: total,
    feesPaid: sum((p) => p.feesPaid),
    capitalInUse: sum((p) => p.capitalInUse),
    capitalCommitted: sum((p) => p.capitalCommitted, bots.filter((p) => p.running)),
    returnPercent: ret === null ? null : roundMoney(ret),
    annualisedPercent: annualised(ret, runtime),
    runtimeMs: runtime,
    cyclesCompleted: bots.reduce((s, p) => s + p.cyclesCompleted, 0),
    fills: bots.reduce((s, p) => s + p.fills, 0),
    equity: thin(equity),
  };
}

/** GET /api/bots/{id}/performance: the bot's figures, what it trades and how. */
export interface BotPerformanceView extends Performance {
  id: string;
  symbol: string;
  exchange: string;
  botType: string;
  /** The quote currency of every amount. */
  currency: string;
  /** What the bot's orders are (issue 40, point 4): a short's opening orders sell; a neutral grid's closing ones are answers. */
  direction: Direction;
}

/** GET /api/performance: the account's figures in one currency (bots quoted in USDT and in USDC are not added together). */
export type AccountPerformanceView = AccountPerformance & {
  currency: string;
  /** The same figures for the bots quoted in another currency, one entry per currency (without a curve). */
  others: Array<Omit<AccountPerformance, 'equity'> & { currency: string }>;
  perBot: Omit<BotPerformanceView, 'equity'>[];
};
