/**
 * What the venue folders read of a market ccxt loads (its unified `limits`, the venue's own `info`), and the
 * small pure helpers they share (issue 39's maximums, market-maximums.ts). No imports but types.
 */
import type { MarketRules, PercentPrice } from '../exchange.port';

export type Maximums = Pick<MarketRules, 'maxAmount' | 'maxNotional' | 'maxNumOrders' | 'percentPrice' | 'ruleNames'>;
export type { PercentPrice };

/** The part of a ccxt market read here. */
export interface CcxtMarketLike {
  limits?: { amount?: { min?: number | null; max?: number | null }; cost?: { min?: number | null; max?: number | null } };
  info?: unknown;
}

export const positive = (v: unknown): number | undefined => {
  const n = typeof v === 'string' ? Number(v) : typeof v === 'number' ? v : NaN;
  return Number.isFinite(n) && n > 0 ? n : undefined;
};

/** The Binance filter of this type in a market's info, if any. */
export function filter(info: unknown, type: string): Record<string, unknown> | undefined {
  const filters = (info as { filters?: unknown })?.filters;
  if (!Array.isArray(filters)) return undefined;
  return filters.find((f) => f && typeof f === 'object' && (f as { filterType?: unknown }).filterType === type) as Record<string, unknown> | undefined;
}

/** Only the keys with a value (so that an absent maximum stays absent). */
export function defined<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}
