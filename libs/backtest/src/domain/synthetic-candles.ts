/**
 * Deterministic synthetic candles (a seeded random walk, mulberry32): benchmarks, the paper venue's
 * history and tests. Every candle is `ticksPerCandle` steps of at most ± `maxMoveBps` each, rounded
 * to `priceStep`, so open/high/low/close have a realistic shape.
 */
import { allocateSeries, type CandleSeries } from './candle';

export interface WalkOptions {
  seed: string;
  startPrice: number;
  priceStep: number;
  from: number;
  count: number;
  timeframeMs: number;
  ticksPerCandle?: number;
  maxMoveBps?: number;
  shared?: boolean;
}

function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

export function randomWalkCandles(o: WalkOptions): CandleSeries {
  const s = allocateSeries(o.count, o.shared);
  const ticks = o.ticksPerCandle ?? 6;
  const bps = o.maxMoveBps ?? 12;
  const span = 2 * bps + 1;
  let rng = hash32(o.seed);
  const step = o.priceStep;
  const decimals = Math.max(0, Math.round(-Math.log10(step)) + 2);
  const snap = (x: number) => Number((Math.max(step, Math.round(x / step) * step)).toFixed(decimals));
  let price = snap(o.startPrice);
  for (let i = 0; i < o.count; i++) {
    const open = price;
    let high = open;
    let low = open;
    for (let k = 0; k < ticks; k++) {
      const a = (rng + 0x6d2b79f5) | 0;
      let t = Math.imul(a ^ (a >>> 15), 1 | a);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      rng = a;
      const move = ((((t ^ (t >>> 14)) >>> 0) % span) - bps) / 10_000;
      price = snap(price * (1 + move));
      if (price > high) high = price;
      if (price < low) low = price;
    }
    s.time[i] = o.from + i * o.timeframeMs;
    s.open[i] = open;
    s.high[i] = high;
    s.low[i] = low;
    s.close[i] = price;
  }
  return s;
}
