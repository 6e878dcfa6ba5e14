/**
 * The risk levels a neutral grid's chart draws (issue 32): those of the side it holds now (long when
 * flat): the stop below its lowest buy (or above its highest sell) and the liquidation of that side once
 * all its orders have filled (neutral.engine.ts neutralLiquidation), not a long ladder's from the entry.
 * Pure; the chart asks it through the neutral style's `chartRisk` (chart/risk-levels.ts has the ladder's).
 */
import type { MaintenanceTier } from '../../grid/liquidation';
import type { ChartEvent, ChartRisk } from '../../chart/risk-levels';
import { neutralLiquidation, type NeutralGridConfig } from './neutral.engine';

export function neutralChartRisk(events: readonly ChartEvent[], neutral: NeutralGridConfig, tiers?: readonly MaintenanceTier[]): ChartRisk {
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
