/**
 * Price feeds of the paper exchange. Pure and deterministic (no timers, no clock of their own):
 * whoever drives them calls `advanceTo(ms)` with an injected clock's time, and gets the ticks between
 * the previous position and `ms`, oldest first. Their position round-trips through `snapshot()` /
 * `restore()` so that a restart resumes exactly where the last committed tick left off.
 *
 * - RandomWalkFeed: a seeded walk (mulberry32, integer maths only) from realistic start prices, on
 *   the coarser tick of the exchange's spot and futures markets (walkStep).
 * - CsvReplayFeed: replays rows `ms,exchange,symbol,price` (PAPER_PRICES=path).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { ExchangeName } from './exchange.port';
import { parseExchangeName } from './venues/registry';
import { mulDiv, parseUnits } from './fixed-point';
import {
  PAPER_SYMBOLS,
  RANDOM_WALK_MAX_CATCH_UP_STEPS,
  RANDOM_WALK_MAX_MOVE_BPS,
  RANDOM_WALK_STEP_MS,
  type PaperSymbolSpec,
} from './paper.constants';
import { marketSpec } from './venues/markets';

export interface FeedTick {
  ms: number;
  exchange: ExchangeName;
  symbol: string;
  /** Price in fixed-point units (1e-8). */
  price: number;
}

export interface PaperPriceFeed {
  /** Identifies the source (seed or CSV digest); a snapshot only restores into the same source. */
  readonly source: string;
  /** The feed's current time (ms of the last position it was advanced to). */
  nowMs(): number;
  /** Current price in units, or undefined for an unknown symbol. */
  priceUnits(exchange: ExchangeName, symbol: string): number | undefined;
  /** Move the feed forward to `ms`; returns the ticks in (previous, ms], oldest first. */
  advanceTo(ms: number): FeedTick[];
  snapshot(): string;
  /** Returns false (and keeps the fresh state) when the snapshot belongs to another source. */
  restore(snapshot: string): boolean;
}

const EXCHANGE_LIST: ExchangeName[] = ['Binance', 'Kucoin'];

function startPrices(symbols: readonly PaperSymbolSpec[]): Map<string, number> {
  return new Map(symbols.map((s) => [s.symbol, parseUnits(s.startPrice)]));
}

const key = (exchange: ExchangeName, symbol: string) => `${exchange}:${symbol}`;

/** FNV-1a, 32 bits. */
function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** mulberry32 step: returns [output uint32, next state]. */
function mulberry32(state: number): [number, number] {
  const a = (state + 0x6d2b79f5) | 0;
  let t = Math.imul(a ^ (a >>> 15), 1 | a);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return [(t ^ (t >>> 14)) >>> 0, a];
}

interface WalkLane {
  exchange: ExchangeName;
  symbol: string;
  step: number;
  price: number;
  rng: number;
}

export interface RandomWalkOptions {
  seed?: number | string;
  stepMs?: number;
  maxMoveBps?: number;
  maxCatchUpSteps?: number;
  symbols?: readonly PaperSymbolSpec[];
}

/**
 * The walk's price step of a symbol on an exchange: the coarser tick of that exchange's spot and
 * futures markets (venues/markets.ts; powers of ten, so it is a multiple of both), so the price
 * (and the entry price the form pre-fills from it) lies on the tick of either market: Binance's
 * BTCUSDT perpetual ticks by 0.1 where its spot market ticks by 0.01.
 */
function walkStep(exchange: ExchangeName, spec: PaperSymbolSpec): number {
  const ticks = (['spot', 'futures'] as const).map((market) => parseUnits(marketSpec(exchange, market, spec.symbol, spec).priceStep));
  return Math.max(...ticks);
}

export class RandomWalkFeed implements PaperPriceFeed {
  readonly source: string;
  private readonly stepMs: number;
  private readonly maxMoveBps: number;
  private readonly maxCatchUp: number;
  private readonly lanes: WalkLane[] = [];
  private readonly byKey = new Map<string, WalkLane>();
  private lastStepMs: number | null = null;
  private now = 0;

  constructor(options: RandomWalkOptions = {}) {
    const seed = String(options.seed ?? 1);
    this.source = `random:${seed}`;
    this.stepMs = options.stepMs ?? RANDOM_WALK_STEP_MS;
    this.maxMoveBps = options.maxMoveBps ?? RANDOM_WALK_MAX_MOVE_BPS;
    this.maxCatchUp = options.maxCatchUpSteps ?? RANDOM_WALK_MAX_CATCH_UP_STEPS;
    for (const exchange of EXCHANGE_LIST) {
      for (const spec of options.symbols ?? PAPER_SYMBOLS) {
        const lane: WalkLane = {
          exchange,
          symbol: spec.symbol,
          step: walkStep(exchange, spec),
          price: parseUnits(spec.startPrice),
          rng: hash32(`${seed}|${exchange}|${spec.symbol}`),
        };
        this.lanes.push(lane);
        this.byKey.set(key(exchange, spec.symbol), lane);
      }
    }
  }

  nowMs(): number {
    return this.now;
  }

  priceUnits(exchange: ExchangeName, symbol: string): number | undefined {
    return this.byKey.get(key(exchange, symbol))?.price;
  }

  advanceTo(ms: number): FeedTick[] {
    if (!Number.isFinite(ms) || ms <= this.now) return [];
    this.now = ms;
    if (this.lastStepMs === null) {
      this.lastStepMs = Math.floor(ms / this.stepMs) * this.stepMs;
      return [];
    }
    let steps = Math.floor((ms - this.lastStepMs) / this.stepMs);
    if (steps > this.maxCatchUp) {
      this.lastStepMs += (steps - this.maxCatchUp) * this.stepMs;
      steps = this.maxCatchUp;
    }
    const ticks: FeedTick[] = [];
    const span = 2 * this.maxMoveBps + 1;
    for (let i = 0; i < steps; i++) {
      this.lastStepMs += this.stepMs;
      for (const lane of this.lanes) {
        const [r, next] = mulberry32(lane.rng);
        lane.rng = next;
        const bps = (r % span) - this.maxMoveBps;
        const moved = lane.price + mulDiv(lane.price, bps, 10_000);
        lane.price = Math.max(lane.step, Math.round(moved / lane.step) * lane.step);
        ticks.push({ ms: this.lastStepMs, exchange: lane.exchange, symbol: lane.symbol, price: lane.price });
      }
    }
    return ticks;
  }

  snapshot(): string {
    return JSON.stringify({
      source: this.source,
      now: this.now,
      lastStepMs: this.lastStepMs,
      lanes: this.lanes.map((l) => [l.exchange, l.symbol, l.price, l.rng]),
    });
  }

  restore(snapshot: string): boolean {
    const s = JSON.parse(snapshot);
    if (s.source !== this.source) return false;
    this.now = s.now;
    this.lastStepMs = s.lastStepMs;
    for (const [exchange, symbol, price, rng] of s.lanes as Array<[ExchangeName, string, number, number]>) {
      const lane = this.byKey.get(key(exchange, symbol));
      if (lane) {
        lane.price = price;
        lane.rng = rng;
      }
    }
    return true;
  }
}

export interface CsvRow {
  ms: number;
  exchange: ExchangeName;
  symbol: string;
  price: number;
}

/** Parses `ms,exchange,symbol,price` lines (an optional header line, blank lines and # comments allowed). */
export function parseCsvPrices(text: string): CsvRow[] {
  const rows: CsvRow[] = [];
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].trim();
    if (line === '' || line.startsWith('#')) continue;
    const cells = line.split(',').map((c) => c.trim());
    if (rows.length === 0 && !/^\d+$/.test(cells[0])) continue; // header
    if (cells.length !== 4) throw new Error(`PAPER_PRICES line ${i + 1}: expected ms,exchange,symbol,price`);
    const ms = Number(cells[0]);
    const exchange = parseExchangeName(cells[1]);
    const symbol = cells[2].toUpperCase();
    if (!Number.isSafeInteger(ms) || ms < 0) throw new Error(`PAPER_PRICES line ${i + 1}: bad ms`);
    if (!exchange) throw new Error(`PAPER_PRICES line ${i + 1}: unknown exchange`);
    if (!/^[A-Z0-9]{2,20}$/.test(symbol)) throw new Error(`PAPER_PRICES line ${i + 1}: bad symbol`);
    let price: number;
    try {
      price = parseUnits(cells[3]);
    } catch {
      throw new Error(`PAPER_PRICES line ${i + 1}: bad price`);
    }
    if (price <= 0) throw new Error(`PAPER_PRICES line ${i + 1}: price must be positive`);
    rows.push({ ms, exchange, symbol, price });
  }
  // Stable sort by time: rows with the same ms keep the file's order.
  return rows
    .map((r, i) => ({ r, i }))
    .sort((a, b) => a.r.ms - b.r.ms || a.i - b.i)
    .map((x) => x.r);
}

export class CsvReplayFeed implements PaperPriceFeed {
  readonly source: string;
  private readonly rows: CsvRow[];
  private readonly current = new Map<string, number>();
  private readonly firstPrice = new Map<string, number>();
  private readonly defaults: Map<string, number>;
  private index = 0;
  private now: number;

  constructor(text: string, symbols: readonly PaperSymbolSpec[] = PAPER_SYMBOLS) {
    this.source = `csv:${createHash('sha256').update(text).digest('hex').slice(0, 32)}`;
    this.rows = parseCsvPrices(text);
    this.defaults = startPrices(symbols);
    for (const r of this.rows) {
      const k = key(r.exchange, r.symbol);
      if (!this.firstPrice.has(k)) this.firstPrice.set(k, r.price);
    }
    this.now = this.rows.length > 0 ? this.rows[0].ms - 1 : 0;
  }

  static fromFile(path: string, symbols?: readonly PaperSymbolSpec[]): CsvReplayFeed {
    return new CsvReplayFeed(readFileSync(path, 'utf8'), symbols);
  }

  nowMs(): number {
    return this.now;
  }

  /** The last replayed price; before the first row of a symbol, that row's price; else the default. */
  priceUnits(exchange: ExchangeName, symbol: string): number | undefined {
    const k = key(exchange, symbol);
    return this.current.get(k) ?? this.firstPrice.get(k) ?? this.defaults.get(symbol);
  }

  /** True when every row has been replayed. */
  done(): boolean {
    return this.index >= this.rows.length;
  }

  /** The ms of the next row, or undefined at the end. */
  nextMs(): number | undefined {
    return this.rows[this.index]?.ms;
  }

  lastMs(): number | undefined {
    return this.rows.length ? this.rows[this.rows.length - 1].ms : undefined;
  }

  advanceTo(ms: number): FeedTick[] {
    const ticks: FeedTick[] = [];
    while (this.index < this.rows.length && this.rows[this.index].ms <= ms) {
      const r = this.rows[this.index++];
      this.current.set(key(r.exchange, r.symbol), r.price);
      ticks.push({ ms: r.ms, exchange: r.exchange, symbol: r.symbol, price: r.price });
    }
    if (ms > this.now) this.now = ms;
    return ticks;
  }

  snapshot(): string {
    return JSON.stringify({ source: this.source, index: this.index, now: this.now });
  }

  restore(snapshot: string): boolean {
    const s = JSON.parse(snapshot);
    if (s.source !== this.source) return false;
    this.index = 0;
    this.current.clear();
    // Re-apply the rows up to the saved index: prices are a function of the position alone.
    for (; this.index < s.index && this.index < this.rows.length; this.index++) {
      const r = this.rows[this.index];
      this.current.set(key(r.exchange, r.symbol), r.price);
    }
    this.now = s.now;
    return true;
  }
}
