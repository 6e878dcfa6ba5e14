import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EXCHANGE_PROVIDER } from '@gridrocket/credentials';
import type { ExchangePort, PaperExchangeProvider, PaperVenue } from '@gridrocket/exchanges';
import { candlePath, paperTerms, runBacktest, toSeries, type Candle } from '@gridrocket/backtest';
import type { GridConfig, MarketRules } from '@gridrocket/trading/grid';
import { until } from '@gridrocket/shared/testing/until';
import { Client } from './http-client';
import { startTestApp } from './test-app';

export interface PaperApp {
  app: Awaited<ReturnType<typeof startTestApp>>;
  provider: PaperExchangeProvider;
  venue: PaperVenue;
  close(): Promise<void>;
}

/**
 * The real app on the paper exchange replaying `rows` (`ms,exchange,symbol,price` lines, header added) as its
 * PAPER_PRICES, the venue's clock at `startAt`: the tests that trade a hand-worked price path end to end.
 */
export async function startPaperApp(rows: readonly string[], startAt: number): Promise<PaperApp> {
  const dir = mkdtempSync(join(tmpdir(), 'gr-paper-app-'));
  const csv = join(dir, 'prices.csv');
  writeFileSync(csv, ['ms,exchange,symbol,price', ...rows].join('\n'));
  const app = await startTestApp({ PAPER_PRICES: csv });
  const provider: PaperExchangeProvider = app.app.get(EXCHANGE_PROVIDER);
  const venue = provider.venue;
  venue.advanceTo(startAt);
  return {
    app,
    provider,
    venue,
    close: async () => {
      await app.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Candles of [open, high, low, close] rows, one every 4 hours from `t0`: the hand-made paths of the style and backtest suites. */
export function fourHourCandles(rows: ReadonlyArray<readonly [number, number, number, number]>, t0: number): Candle[] {
  return rows.map(([open, high, low, close], i) => ({ time: t0 + i * 4 * 3_600_000, open, high, low, close }));
}

/** One row per print of each candle's path (backtest candlePath), `stepMs` apart: what the backtest of the same candles walks. */
export function candleRows(candles: readonly Candle[], exchange: string, symbol: string, stepMs: number): string[] {
  return candles.flatMap((c) => candlePath(c).map((p, k) => `${c.time + k * stepMs},${exchange},${symbol},${p}`));
}

/** The paper app of a describe block: started on `rows` before its tests, closed after them; call the answer inside a test. */
export function usePaperApp(rows: readonly string[], startAt: number): () => PaperApp {
  let paper: PaperApp | undefined;
  beforeAll(async () => {
    paper = await startPaperApp(rows, startAt);
  });
  afterAll(() => paper?.close());
  return () => paper!;
}

/** On the describe block's paper app (usePaperApp's answer): its venue and provider, and a trader `email` signed up there with a Binance key (traderWithKey). */
export async function paperTrader(paper: () => PaperApp, email: string): Promise<{ venue: PaperVenue; provider: PaperExchangeProvider; c: Client; uid: string }> {
  const { venue, provider, app } = paper();
  return { venue, provider, ...(await traderWithKey(app.url, email)) };
}

/** A signed-up trader with a (paper) Binance key, on the app at `url`. */
export async function traderWithKey(url: string, email: string): Promise<{ c: Client; uid: string }> {
  const c = new Client(url);
  const uid = (await c.signUp(email)).uid as string;
  await c.addKey(uid);
  return { c, uid };
}

/** A fill as the known-answer suites write it. */
export const fillLine = (f: { side: string; price: number; amount: number; fee: number }) => `${f.side} ${f.price} ${f.amount} fee ${f.fee}`;

/** The venue's fills of `symbol` are the hand-worked ones, their fees the hand-worked total (to 1e-8); returns the venue's fees. */
export async function expectVenueFills(port: ExchangePort, symbol: string, fills: readonly string[], fees: number): Promise<number> {
  const exchangeFills = await port.recentFills(symbol, 0);
  expect(exchangeFills.map(fillLine)).toEqual(fills);
  const total = exchangeFills.reduce((s, f) => s + f.fee, 0);
  expect(total).toBeCloseTo(fees, 8);
  return total;
}

/** The bot's profit as its details say, once it is the hand-worked one (what it is after 30 s otherwise): it must be `expected`. */
export async function expectRecordedProfit(c: Client, id: string, expected: number): Promise<number> {
  const profit = await until('profit recorded', async () => {
    const d = (await c.get(`/api/bot-details/${id}`)).body;
    return d.profit === expected && d.profit;
  }, 30_000).catch(async () => (await c.get(`/api/bot-details/${id}`)).body.profit);
  expect(profit).toBe(expected);
  return profit;
}

/**
 * The backtest of the same candles (a ladder config on paper Binance futures' terms): the hand-worked fills,
 * fees and profit, and the venue's fees and the bot's profit to the cent. Returns it for the style's own checks.
 */
export function expectLadderBacktestAgrees(candles: readonly Candle[], config: GridConfig, rules: MarketRules, known: { fills: readonly string[]; fees: number; profit: number }, venue: { fees: number; profit: number }) {
  const bt = runBacktest(toSeries([...candles]), { ...paperTerms({ exchange: 'Binance', market: 'futures', symbol: 'LTCUSDT' }), config, rules, recordFills: true });
  expect(bt.fillLog!.map(fillLine)).toEqual(known.fills);
  expect(Math.round(bt.fees * 100)).toBe(Math.round(venue.fees * 100));
  expect(bt.fees).toBeCloseTo(known.fees, 8);
  expect(Math.round(bt.profit * 100)).toBe(Math.round(venue.profit * 100));
  expect(bt.profit).toBe(known.profit);
  return bt;
}
