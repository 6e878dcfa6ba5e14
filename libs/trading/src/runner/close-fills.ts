/**
 * The history of a market close of the bot's position (issue 40), pure: a stop that sells what the bot
 * holds (`closePosition`: the trader's "stop and sell", a signal's "sell it first") records each fill of its
 * close order as `PositionClosed` (price, amount, fee and its currency, what it realised) and a
 * `ProfitRealized` of that amount, keyed by the venue's fill id like every fill (bot-trading.ts: a fill seen
 * twice, by a retry or after a crash, is recorded once). The venue's liquidation (PositionLiquidated)
 * realises on the same rules. What a fill realises is the engine's (grid/position-close.ts): the ladder's and
 * the infinity grid's average cost, the neutral grid's lots, the buy fees of what it closes and its own fee
 * included; so the bot's profit (GET /bots), the figures' realised P&L (money/figures.ts) and the trades list
 * say the same.
 */
import type { TradingEvent } from '@gridrocket/bots';
import type { Fill as ExchangeFill } from '@gridrocket/exchanges';
import { closeOnAverage, type AverageHeld } from '../grid/position-close';
import { netAmount } from './bot-workflow';

/** A fill of a close as the engines take it off. */
export type CloseFill = Pick<ExchangeFill, 'side' | 'price' | 'amount' | 'fee'>;

/**
 * What the bot holds as its engine counts it, before the close (the close's fills are never in the engine):
 * an average cost (the ladder's, the infinity grid's), or the style engine's own state with its own close
 * (the neutral grid's lots: GridStyle.heldForClose).
 */
export type HeldForClose = { kind: 'average'; held: AverageHeld; short: boolean } | EngineHeld<any>;

export interface EngineHeld<S> {
  kind: 'engine';
  state: S;
  /** What the fill realises against the state, and the state after it. */
  close(state: S, fill: CloseFill): { state: S; profit: number };
}

/** What each fill (in the order given) realises against `held`, the one before it taken off first. */
export function closeProfits(held: HeldForClose, fills: readonly CloseFill[]): number[] {
  const out: number[] = [];
  let now = held;
  for (const f of fills) {
    if (now.kind === 'engine') {
      const r = now.close(now.state, f);
      now = { ...now, state: r.state };
      out.push(r.profit);
    } else {
      const r = closeOnAverage(now.held, now.short, f);
      now = { ...now, held: r.held };
      out.push(r.profit);
    }
  }
  return out;
}

/** The venue's fills in the order they happened (the venue's order among equal times). */
export const inFillOrder = (fills: readonly ExchangeFill[]): ExchangeFill[] => fills.map((f, i) => ({ f, i })).sort((a, b) => a.f.timestamp - b.f.timestamp || a.i - b.i).map((x) => x.f);

/**
 * The history facts of the close order's fills: per fill a PositionClosed with what it realised and a
 * ProfitRealized of it (its total decided by the bot decider). `cycle`: the number in the close's client
 * order id (the ladder's cycle, the neutral grid's generation, the infinity grid's step).
 */
export function closeFillFacts(ids: { botId: string; run: number; cycle: number; base?: string }, held: HeldForClose, fills: readonly ExchangeFill[]): TradingEvent[] {
  const ordered = inFillOrder(fills);
  const profits = closeProfits(held, ordered);
  const { botId, run, cycle } = ids;
  return ordered.flatMap((f, i): TradingEvent[] => {
    const net = netAmount(f, ids.base);
    const kind = { ...(net !== f.amount ? { netAmount: net } : {}), ...(f.feeAsset ? { feeAsset: f.feeAsset, feeCost: f.feeCost } : {}) };
    return [
      { type: 'PositionClosed', data: { botId, run, fillId: f.fillId, clientOrderId: f.clientOrderId, side: f.side, price: f.price, amount: f.amount, fee: f.fee, ...kind, cycle, profit: profits[i], at: f.timestamp } },
      { type: 'ProfitRealized', data: { botId, amount: profits[i], totalProfit: 0, cycle, run, fillId: f.fillId } },
    ];
  });
}
