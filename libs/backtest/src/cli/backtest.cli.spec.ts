import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

jest.setTimeout(60_000);

const ROOT = resolve(__dirname, '../../../..');
const run = (args: string[]) =>
  promisify(execFile)(process.execPath, ['-r', join(ROOT, 'libs/streaming/src/testing/ts-register.js'), join(__dirname, 'backtest.cli.ts'), ...args], { cwd: ROOT });

describe('npm run backtest (CLI)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gr-cli-'));
  const csv = join(dir, 'candles.csv');
  // the known-answer candles: a falling candle buys 100, a rising one buys 90 and takes the profit at 95.95
  writeFileSync(csv, 'time,open,high,low,close\n2026-01-01T00:00:00Z,105,106,95,96\n2026-01-01T00:01:00Z,96,102,89,101\n');
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('backtests a CSV and prints the figures in a table', async () => {
    const { stdout } = await run(['--exchange', 'Binance', '--symbol', 'SOLUSDT', '--csv', csv, '--entry', '100', '--orders', '3', '--size', '1', '--interval', '10', '--tp', '1']);
    expect(stdout).toContain('2 1m candles of SOLUSDT on Binance spot');
    expect(stdout).toMatch(/realised profit\s+│ '1\.52'/);
    expect(stdout).toMatch(/fills\s+│ 3/);
    expect(stdout).toMatch(/cycles\s+│ 1/);
  });

  it('sweeps and names the best combination', async () => {
    const { stdout } = await run(['--exchange', 'Binance', '--symbol', 'SOLUSDT', '--csv', csv, '--entry', '100', '--orders', '3', '--size', '1', '--interval', '10', '--sweep', 'interval=5:10:5,tp=1:2:1']);
    expect(stdout).toMatch(/best by profit: interval \d+, 3 orders, take-profit \d %/);
  });

  it('says what is missing', async () => {
    await expect(run(['--symbol', 'SOLUSDT'])).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining('--exchange must be Binance or Kucoin') });
  });
});
