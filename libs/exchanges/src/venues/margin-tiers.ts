/**
 * Maintenance margin tiers of the futures venues (issue 14: the liquidation price of a grid before it
 * starts). Pure data, sources in docs/exchanges.md ("Maintenance margin tiers"):
 *  - Binance USDⓈ-M BTCUSDT: the official table "Updates to Leverage and Margin Tiers of Binance
 *    Futures Contracts (2021-03-18)" (binance.com/en/support/announcement/86cf9aa472574b8cb2e05bb751c2a9a6);
 *  - every other symbol (and Kucoin futures, whose risk limits we have no cited table for): the 50x
 *    table of the same announcement, whose rates are higher than BTCUSDT's, so the liquidation price
 *    computed from it comes earlier (conservative: a risky grid is refused rather than let through).
 * The maintenance amount of each tier is not guessed: it follows from the tiers (Binance: "Maintenance
 * Margin = Notional Position Value × Maintenance Margin Rate − Maintenance Amount", continuous at
 * each tier's floor), see `maintenanceAmounts`.
 */
import type { ExchangeName } from '../exchange.port';

export interface MarginTier {
  /** Upper bound of the position's notional (quote) for this tier; Infinity for the last. */
  notionalCap: number;
  /** Maintenance margin rate as a fraction (0.004 = 0.40 %). */
  maintenanceRate: number;
  /** Maintenance amount (quote) of the tier, derived from the tiers (see above). */
  maintenanceAmount: number;
}

export interface MarginTierTable {
  source: string;
  tiers: readonly MarginTier[];
}

const ANNOUNCEMENT_2021_03_18 = 'https://www.binance.com/en/support/announcement/86cf9aa472574b8cb2e05bb751c2a9a6';

/** The tiers with their maintenance amounts: amount_k = amount_{k−1} + floor_k × (rate_k − rate_{k−1}). */
export function maintenanceAmounts(tiers: ReadonlyArray<{ notionalCap: number; maintenanceRate: number }>): MarginTier[] {
  const out: MarginTier[] = [];
  let amount = 0;
  for (let k = 0; k < tiers.length; k++) {
    if (k > 0) amount += tiers[k - 1].notionalCap * (tiers[k].maintenanceRate - tiers[k - 1].maintenanceRate);
    out.push({ notionalCap: tiers[k].notionalCap, maintenanceRate: tiers[k].maintenanceRate, maintenanceAmount: Math.round(amount * 1e8) / 1e8 });
  }
  return out;
}

const BTCUSDT: MarginTierTable = {
  source: `${ANNOUNCEMENT_2021_03_18} (BTCUSDT 125x perpetual contract)`,
  tiers: maintenanceAmounts([
    { notionalCap: 50_000, maintenanceRate: 0.004 },
    { notionalCap: 250_000, maintenanceRate: 0.005 },
    { notionalCap: 1_000_000, maintenanceRate: 0.01 },
    { notionalCap: 10_000_000, maintenanceRate: 0.025 },
    { notionalCap: 20_000_000, maintenanceRate: 0.05 },
    { notionalCap: 50_000_000, maintenanceRate: 0.1 },
    { notionalCap: 100_000_000, maintenanceRate: 0.125 },
    { notionalCap: 200_000_000, maintenanceRate: 0.15 },
    { notionalCap: 300_000_000, maintenanceRate: 0.25 },
    { notionalCap: 500_000_000, maintenanceRate: 0.5 },
  ]),
};

/** The conservative table for symbols without their own (see the file's comment). */
const DEFAULT_TABLE: MarginTierTable = {
  source: `${ANNOUNCEMENT_2021_03_18} (50x USDⓈ-M contracts table, used as the conservative default)`,
  tiers: maintenanceAmounts([
    { notionalCap: 5_000, maintenanceRate: 0.01 },
    { notionalCap: 25_000, maintenanceRate: 0.025 },
    { notionalCap: 100_000, maintenanceRate: 0.05 },
    { notionalCap: 250_000, maintenanceRate: 0.1 },
    { notionalCap: 1_000_000, maintenanceRate: 0.125 },
    { notionalCap: Infinity, maintenanceRate: 0.5 },
  ]),
};

/** The maintenance margin tiers of a futures symbol on a venue. */
export function marginTiers(exchange: ExchangeName, symbol: string): MarginTierTable {
  if (exchange === 'Binance' && symbol.toUpperCase() === 'BTCUSDT') return BTCUSDT;
  return DEFAULT_TABLE;
}

/** The tier of a position's notional (the last tier beyond every cap). */
export function tierFor(table: MarginTierTable, notional: number): MarginTier {
  for (const t of table.tiers) if (notional <= t.notionalCap) return t;
  return table.tiers[table.tiers.length - 1];
}
