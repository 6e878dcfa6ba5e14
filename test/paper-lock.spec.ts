/**
 * Issue 41: a paper-mode runner beside the API (same DATA_DIR) refused to start with a clear message, where
 * before it died on a SQLite unique-constraint error once both matched the same paper orders. The real runner
 * process (dist/apps/runner/src/main.js) is started on a folder whose paper exchange this test's process holds,
 * as the API would. A lock left by a killed process (kill -9) is taken over.
 */
import { spawn } from 'node:child_process';
import { writeFileSync, readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { lockPaperExchange, PaperExchangeInUseError } from '@gridrocket/exchanges';
import { useTempDir } from './support/close-all';

jest.setTimeout(60_000);

const ROOT = join(__dirname, '..');

describe("one process runs a paper exchange's folder (issue 41)", () => {
  const dir = useTempDir('gr-paper-lock-');

  it('a paper-mode runner on the folder of a running paper exchange exits at once, saying why and what to do', async () => {
    const release = lockPaperExchange(join(dir, 'paper-exchange.sqlite.lock'));
    try {
      const child = spawn(process.execPath, [join(ROOT, 'dist', 'apps', 'runner', 'src', 'main.js')], {
        env: { ...process.env, DATA_DIR: dir, EXCHANGE_MODE: 'paper', KAFKA_BROKERS: '', RUNNER_PORT: '0' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let err = '';
      child.stderr.on('data', (d) => (err += d));
      const code = await new Promise<number | null>((r) => child.once('exit', (c) => r(c)));
      expect(code).toBe(1);
      expect(err).toContain(`GridRocket runner not started: The paper exchange in ${dir} is in use by process ${process.pid} on ${hostname()}`);
      expect(err).toContain('separate runners (npm run start:runner) need EXCHANGE_MODE=live or testnet, or their own DATA_DIR');
      expect(err).not.toMatch(/UNIQUE constraint|SqliteError/);
    } finally {
      release();
    }
  });

  it('the lock of a process that is gone (kill -9) is taken over; a live one is refused', () => {
    const file = join(dir, 'other.lock');
    writeFileSync(file, JSON.stringify({ pid: 2 ** 22 + 12345, host: hostname() })); // no such process
    const release = lockPaperExchange(file);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ pid: process.pid, host: hostname() });
    release();
    writeFileSync(file, JSON.stringify({ pid: process.ppid, host: hostname() })); // alive
    expect(() => lockPaperExchange(file)).toThrow(PaperExchangeInUseError);
  });
});
