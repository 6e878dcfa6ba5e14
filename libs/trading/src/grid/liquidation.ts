/**
 * The liquidation price of a long futures grid on isolated margin (issue 14), pure: the dashboard's
 * preview, the API and the start check use these functions.
 *
 * For a long position of Q at average entry E holding the isolated margin W (Σ price·amount ÷ leverage
 * of the rungs filled), with the maintenance tier (rate m, amount a) of its notional Q·E, Binance's
 * isolated formula (one-way mode, no unrealised P&L of other positions) gives
 *     liquidation = (Q·E − W − a) ÷ (Q·(1 − m)),
 * i.e. the price where the margin left, W + Q·(P − E), equals the maintenance margin Q·P·m − a.
 * Fees are left out (they lower W a little: the figure is a bound from above of the real margin).
 * The tiers are venue data: `marginTiers` of @gridrocket/exchanges/venues (sources in docs/exchanges.md).
 *
 * A short position (issue 32) mirrors it: the margin left is W + Q·(E − P), so
 *     liquidation = (Q·E + W + a) ÷ (Q·(1 + m)).
 * Both are Binance's USDⓈ-M formula, "How to Calculate Liquidation Price of USDⓈ-M Futures Contracts"
 * (https://www.binance.com/en/support/faq/b3c689c1f50a44cabb3a84e663b81d93):
 *     LP = (WB − TMM + UPNL + cumB − Side·Q·EP) ÷ (Q·MMR − Side·Q), Side 1 = long, −1 = short,
 * with, in isolated mode, WB the isolated wallet balance (W), TMM = UPNL = 0 and cumB the tier's
 * maintenance amount (a): Side 1 gives the long formula above, Side −1 the short one.
 */
import { roundMoney } from './decimal';
import type { Direction } from './direction';
import type { LadderLevel } from './grid.types';

export interface MaintenanceTier {
  notionalCap: number;
  maintenanceRate: number;
  maintenanceAmount: number;
}

/** The tier of a notional (the last beyond every cap). */
function tierOf(tiers: readonly MaintenanceTier[], notional: number): MaintenanceTier {
  for (const t of tiers) if (notional <= t.notionalCap) return t;
  return tiers[tiers.length - 1];
}

/** Liquidation price of a long isolated position (0 when it cannot be liquidated, e.g. leverage 1 and low tiers). */
export function longLiquidationPrice(amount: number, averageEntry: number, margin: number, tiers: readonly MaintenanceTier[]): number {
  if (!(amount > 0) || !(averageEntry > 0) || tiers.length === 0) return 0;
  const t = tierOf(tiers, amount * averageEntry);
  const price = (amount * averageEntry - margin - t.maintenanceAmount) / (amount * (1 - t.maintenanceRate));
  return price > 0 ? roundMoney(price) : 0;
}

/** Liquidation price of a short isolated position (the price where its margin runs out, rising). */
export function shortLiquidationPrice(amount: number, averageEntry: number, margin: number, tiers: readonly MaintenanceTier[]): number {
  if (!(amount > 0) || !(averageEntry > 0) || tiers.length === 0) return 0;
  const t = tierOf(tiers, amount * averageEntry);
  return roundMoney((amount * averageEntry + margin + t.maintenanceAmount) / (amount * (1 + t.maintenanceRate)));
}

/** The liquidation price of a position of either direction. */
export function liquidationPrice(direction: Direction, amount: number, averageEntry: number, margin: number, tiers: readonly MaintenanceTier[]): number {
  return direction === 'short' ? shortLiquidationPrice(amount, averageEntry, margin, tiers) : longLiquidationPrice(amount, averageEntry, margin, tiers);
}

export interface LadderLiquidation {
  /** The liquidation price once every rung has filled. */
  fullLadder: number;
  /** After each rung k fills (k = 0 … n−1): the position's liquidation price. */
  afterRung: number[];
  /** The first rung that the position before it would not survive to fill, or null. */
  liquidatedBefore: { rung: number; price: number; liquidation: number } | null;
}

/** The liquidation prices of the ladder's position as its rungs fill one by one (price falling; short: rising). */
export function ladderLiquidation(ladder: readonly LadderLevel[], leverage: number, tiers: readonly MaintenanceTier[], direction: Direction = 'long'): LadderLiquidation {
  const short = direction === 'short';
  let amount = 0;
  let cost = 0;
  const afterRung: number[] = [];
  let liquidatedBefore: LadderLiquidation['liquidatedBefore'] = null;
  for (const level of ladder) {
    if (amount > 0 && liquidatedBefore === null) {
      const before = afterRung[afterRung.length - 1];
      if (short ? before > 0 && before <= level.price : before >= level.price) liquidatedBefore = { rung: level.index, price: level.price, liquidation: before };
    }
    amount += level.amount;
    cost += level.amount * level.price;
    afterRung.push(liquidationPrice(direction, amount, cost / amount, cost / leverage, tiers));
  }
  return { fullLadder: afterRung[afterRung.length - 1] ?? 0, afterRung, liquidatedBefore };
}

/** The reason a futures ladder must not start, or null. */
export function liquidationProblem(ladder: readonly LadderLevel[], leverage: number, tiers: readonly MaintenanceTier[], direction: Direction = 'long'): string | null {
  const l = ladderLiquidation(ladder, leverage, tiers, direction);
  if (!l.liquidatedBefore) return null;
  const { rung, price, liquidation } = l.liquidatedBefore;
  return `At leverage ${leverage} the position of orders 1 to ${rung} would be liquidated at ${liquidation}, before order ${rung + 1} of ${ladder.length} at ${price} fills: lower the leverage or narrow the ladder`;
}
