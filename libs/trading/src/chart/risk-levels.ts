/**
 * The risk levels a bot's chart draws (issue 14), pure: the stop-loss level for the position its
 * recorded fills hold now (average cost), the trailing take-profit's activation and first stop, and
 * on futures the liquidation price of the full ladder at its leverage. Without market rules (the
 * chart has none) prices are shown to the cent.
 */
import { riskPreview, type MaintenanceTier } from '../grid';
import type { GridConfig } from '../grid/grid.types';
import { neutralLiquidation, type NeutralGridConfig } from '../styles/neutral/neutral.engine';

export interface ChartRisk {
  stopLoss: number | null;
  trailing: { activation: number; stop: number; deviation: number } | null;
  liquidation: number | null;
}

interface ChartEvent {
  type: string;
  data: any;
}

/** The position the recorded fills of the bot's latest run hold (average cost). */
export function heldPosition(events: ChartEvent[]): { amount: number; averageEntry: number } {
  let run = -1;
  for (const e of events) if (typeof e.data?.run === 'number' && e.data.run > run) run = e.data.run;
  let amount = 0;
  let cost = 0;
  for (const e of events) {
    const d = e.data ?? {};
    if (d.run !== run) continue;
    if (e.type === 'OrderFilled') {
      const held = typeof d.netAmount === 'number' ? d.netAmount : d.amount;
      amount += held;
      cost += held * d.price;
    } else if ((e.type === 'TakeProfitFilled' || e.type === 'StopLossTriggered' || e.type === 'PositionClosed') && amount > 0) {
      const sold = Math.min(d.amount, amount);
      cost -= (cost / amount) * sold;
      amount -= sold;
      if (amount < 1e-9) amount = cost = 0;
    }
  }
  return { amount, averageEntry: amount > 0 ? cost / amount : 0 };
}

/**
 * `neutral` (issue 32): the bot is a neutral grid. Its levels are those of the side it holds now (long
 * when flat): the stop below its lowest buy (or above its highest sell) and the liquidation of that side
 * once all its orders have filled (styles/neutral/neutral.engine.ts neutralLiquidation), not a long ladder's from the entry.
 */
export function chartRisk(events: ChartEvent[], config: GridConfig, tiers?: readonly MaintenanceTier[], neutral?: NeutralGridConfig): ChartRisk {
  if (neutral) {
    let run = -1;
    for (const e of events) if (typeof e.data?.run === 'number' && e.data.run > run) run = e.data.run;
    let signed = 0;
    for (const e of events) {
      if (e.data?.run !== run || !['OrderFilled', 'TakeProfitFilled', 'StopLossTriggered', 'PositionClosed'].includes(e.type)) continue;
      signed += (e.data.side === 'sell' ? -1 : 1) * Number(e.data.amount || 0);
    }
    const short = signed < -1e-12;
    const liq = tiers ? neutralLiquidation(neutral, { priceStep: 0.01, amountStep: 1e-8, minNotional: 0 }, tiers) : null;
    const price = liq ? (short ? liq.short : liq.long) : 0;
    return { stopLoss: (short ? neutral.stopLossPriceAbove : neutral.stopLossPrice) ?? null, trailing: null, liquidation: price > 0 ? Math.round(price * 100) / 100 : null };
  }
  const p = riskPreview(config, undefined, tiers, heldPosition(events));
  return {
    stopLoss: p.stopLoss,
    // (short, issue 32: the buy-back level above the trough, rounded up)
    trailing: p.trailing
      ? { ...p.trailing, stop: config.direction === 'short' ? Math.ceil(p.trailing.activation * (1 + p.trailing.deviation / 100) * 100) / 100 : Math.floor(p.trailing.activation * (1 - p.trailing.deviation / 100) * 100) / 100 }
      : null,
    liquidation: p.liquidation,
  };
}
