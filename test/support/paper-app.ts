import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EXCHANGE_PROVIDER } from '@gridrocket/credentials';
import type { PaperExchangeProvider, PaperVenue } from '@gridrocket/exchanges';
import { candlePath, type Candle } from '@gridrocket/backtest';
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

/** One row per print of each candle's path (backtest candlePath), `stepMs` apart: what the backtest of the same candles walks. */
export function candleRows(candles: readonly Candle[], exchange: string, symbol: string, stepMs: number): string[] {
  return candles.flatMap((c) => candlePath(c).map((p, k) => `${c.time + k * stepMs},${exchange},${symbol},${p}`));
}
