/**
 * The shape of a venue's maintenance margin tiers and the conservative default table (issue 14, 40): the
 * leaf that the futures venue folders build their tables from (sources: margin-tiers.ts, docs/exchanges.md).
 */
export interface MarginTier {
  /** Upper bound of the position's notional (quote) for this tier; Infinity for the last. */
  notionalCap: number;
  /** Maintenance margin rate as a fraction (0.004 = 0.40 %). */
  maintenanceRate: number;
  /** Maintenance amount (quote) of the tier, derived from the tiers (see above). */
  maintenanceAmount: number;
  /** The highest leverage a position of this tier may have (Binance `initialLeverage`, Kucoin `maxLeverage`); absent: not known. */
  maxLeverage?: number;
}

export interface MarginTierTable {
  source: string;
  tiers: readonly MarginTier[];
}

export const ANNOUNCEMENT_2021_03_18 = 'https://www.binance.com/en/support/announcement/86cf9aa472574b8cb2e05bb751c2a9a6';

/** The tiers with their maintenance amounts: amount_k = amount_{k−1} + floor_k × (rate_k − rate_{k−1}). */
export function maintenanceAmounts(tiers: ReadonlyArray<{ notionalCap: number; maintenanceRate: number; maxLeverage?: number }>): MarginTier[] {
  const out: MarginTier[] = [];
  let amount = 0;
  for (let k = 0; k < tiers.length; k++) {
    if (k > 0) amount += tiers[k - 1].notionalCap * (tiers[k].maintenanceRate - tiers[k - 1].maintenanceRate);
    const t: MarginTier = { notionalCap: tiers[k].notionalCap, maintenanceRate: tiers[k].maintenanceRate, maintenanceAmount: Math.round(amount * 1e8) / 1e8 };
    if (tiers[k].maxLeverage !== undefined) t.maxLeverage = tiers[k].maxLeverage;
    out.push(t);
  }
  return out;
}


/** The conservative table for symbols without their own (see margin-tiers.ts's comment). */
export const DEFAULT_TABLE: MarginTierTable = {
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

