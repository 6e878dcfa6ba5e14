/**
 * The risk levels a bot's chart draws (issue 14), pure: the stop-loss level for the position its
 * recorded fills hold now (average cost), the trailing take-profit's activation and first stop, and
 * on futures the liquidation price of the full ladder at its leverage. Without market rules (the
 * chart has none) prices are shown to the cent.
 */
import { riskPreview, type MaintenanceTier } from '../grid';
import type { GridConfig } from '../grid/grid.types';

export interface ChartRisk {
  stopLoss: number | null;
  trailing: { activation: number; stop: number; deviation: number } | null;
  liquidation: number | null;
}

export interface ChartEvent {
  type: string;
  data: any;
}

/** The position the recorded fills of the bot's latest run hold (average cost). */
export function heldPosition(events: readonly ChartEvent[]): { amount: number; averageEntry: number } {
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
 * The ladder's levels (long, short). A style with levels of its own gives them through its GridStyle's
 * `chartRisk` (the neutral grid's: styles/neutral/neutral.risk-levels.ts); the chart asks the bot's style.
 */
export function chartRisk(events: readonly ChartEvent[], config: GridConfig, tiers?: readonly MaintenanceTier[]): ChartRisk {
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
