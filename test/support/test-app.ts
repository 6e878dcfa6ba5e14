import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EXCHANGE_PROVIDER } from '@gridrocket/credentials';
import type { PaperExchangeProvider, PaperVenue } from '@gridrocket/exchanges';
import { loadConfig } from '@gridrocket/shared/runtime';
import { RunningApp, startApp } from '../../apps/api/src/bootstrap';

/**
 * The real Nest app on the embedded adapters, in a temporary data folder, on a free port. Backtests run on
 * the simulated history unless `BACKTEST_HISTORY` says otherwise (issue 40: a test never reaches a venue).
 */
export async function startTestApp(env: Record<string, string> = {}): Promise<RunningApp & { dataDir: string }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'gr-app-'));
  const config = loadConfig({ BACKTEST_HISTORY: 'simulated', ...env, DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: env.LOG_LEVEL ?? 'silent', WEB_DIST: join(dataDir, 'no-web') });
  const running = await startApp(config);
  return {
    ...running,
    dataDir,
    async close() {
      await running.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * The real app on the paper exchange with a replayed price CSV (`PAPER_PRICES`), the venue's feed at
 * `startMs`: the test then moves the feed one row at a time (`venue.advanceTo`).
 */
export async function startPaperReplayApp(csv: string, startMs: number, env: Record<string, string> = {}) {
  const csvDir = mkdtempSync(join(tmpdir(), 'gr-csv-'));
  const file = join(csvDir, 'prices.csv');
  writeFileSync(file, csv);
  const app = await startTestApp({ ...env, PAPER_PRICES: file });
  const provider = app.app.get(EXCHANGE_PROVIDER) as PaperExchangeProvider;
  const venue: PaperVenue = provider.venue;
  venue.advanceTo(startMs);
  return {
    app,
    provider,
    venue,
    async close() {
      await app.close();
      rmSync(csvDir, { recursive: true, force: true });
    },
  };
}
