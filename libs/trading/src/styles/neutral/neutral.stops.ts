/**
 * A neutral grid's stops beyond its liquidation price (issue 40 point 3; grid/liquidation-stops.ts says why
 * they are refused): its lower stop lies below its lowest buy, so every buy has filled (long N × size); its
 * upper stop above its highest sell (short N × size): neutralLiquidation's two worst cases. The pure
 * registry (pure-registry.ts stopsBeyondLiquidation) asks it for a neutral grid that liquidates, the
 * ladder's (grid/liquidation-stops.ts) for any other. Pure.
 */
import { ceilToStep, floorToStep, roundMoney } from '../../grid/decimal';
import type { MaintenanceTier } from '../../grid/liquidation';
import { stopMessage, type StopBeyondLiquidation } from '../../grid/liquidation-stops';
import type { GridConfig, MarketRules } from '../../grid/grid.types';
import { neutralLiquidation, type NeutralGridConfig } from './neutral.engine';

/** The stops of a neutral futures grid that lie beyond its liquidation price (empty when none). */
export function neutralStopsBeyondLiquidation(config: GridConfig & { stopLossPriceAbove?: number }, rules: MarketRules, tiers: readonly MaintenanceTier[]): StopBeyondLiquidation[] {
  return neutralStops(config as unknown as NeutralGridConfig, rules, tiers);
}

function neutralStops(config: NeutralGridConfig, rules: MarketRules, tiers: readonly MaintenanceTier[]): StopBeyondLiquidation[] {
  const out: StopBeyondLiquidation[] = [];
  const n = config.numOfOrders;
  if (!(Number.isInteger(n) && n >= 1)) return out;
  const liq = neutralLiquidation(config, rules, tiers);
  const size = floorToStep(config.orderSize, rules.amountStep);
  const avg = (prices: number[]) => roundMoney(prices.reduce((s, p) => s + p, 0) / prices.length);
  const lines = Array.from({ length: n }, (_, i) => i + 1);
  const below = lines.map((k) => floorToStep(config.entryPrice - k * config.interval, rules.priceStep));
  const above = lines.map((k) => ceilToStep(config.entryPrice + k * config.interval, rules.priceStep));
  if (typeof config.stopLossPrice === 'number' && config.stopLossPrice > 0 && liq.long > 0 && config.stopLossPrice <= liq.long) {
    const f = { field: 'stopLossPrice' as const, side: 'long' as const, stop: config.stopLossPrice, liquidation: liq.long, amount: roundMoney(n * size), averageEntry: avg(below) };
    out.push({ ...f, message: stopMessage(f, config.leverage, `every buy of the grid filled`, rules.priceStep) });
  }
  if (typeof config.stopLossPriceAbove === 'number' && config.stopLossPriceAbove > 0 && liq.short > 0 && config.stopLossPriceAbove >= liq.short) {
    const f = { field: 'stopLossPriceAbove' as const, side: 'short' as const, stop: config.stopLossPriceAbove, liquidation: liq.short, amount: roundMoney(n * size), averageEntry: avg(above) };
    out.push({ ...f, message: stopMessage(f, config.leverage, `every sell of the grid filled`, rules.priceStep) });
  }
  return out;
}
