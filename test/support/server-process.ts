import { ChildProcess, spawn } from 'node:child_process';
import { join, sep } from 'node:path';

// From the sources (jest) or from dist/ (benchmarks), the built server is dist/apps/api/src/main.js.
const ROOT = __dirname.includes(`${sep}dist${sep}`) ? join(__dirname, '../..') : join(__dirname, '../../dist');
const MAIN = join(ROOT, 'apps/api/src/main.js');

/**
 * The node flags the product's processes run with (`npm start`, `npm run start:runner`, the Docker
 * image's NODE_OPTIONS; test/node-flags.spec.ts keeps them the same): a 64 MB young generation
 * semi-space, which made the fleet's tick-to-orders p99 drop from 55–64 ms to about 40 ms (issue 16,
 * BENCHMARKS.md).
 */
export const SERVER_NODE_FLAGS = ['--max-semi-space-size=64'];

/**
 * The built server as its own OS process (what `npm start` runs), for crash tests and benchmarks.
 * `main`: another build's server (a benchmark's comparison); `startTimeoutMs`: how long it may take to listen.
 */
export async function spawnServer(
  dataDir: string,
  env: Record<string, string> = {},
  options: { main?: string; startTimeoutMs?: number } = {},
): Promise<{ proc: ChildProcess; url: string }> {
  const proc = spawn(process.execPath, [...SERVER_NODE_FLAGS, options.main ?? MAIN], {
    // backtests on the simulated history unless told otherwise (issue 40: a test never reaches a venue)
    env: { BACKTEST_HISTORY: 'simulated', ...process.env, DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'error', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), options.startTimeoutMs ?? 20_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const m = / listening on (http:\/\/[^\s]+)/.exec(output);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    };
    proc.stdout!.on('data', onData);
    proc.stderr!.on('data', onData);
    proc.once('exit', (code) => reject(new Error(`server exited with ${code}:\n${output}`)));
  });
  return { proc, url };
}

export function kill9(proc: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (proc.exitCode !== null || proc.signalCode !== null) return resolve();
    proc.once('exit', () => resolve());
    proc.kill('SIGKILL');
  });
}

export function stop(proc: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (proc.exitCode !== null || proc.signalCode !== null) return resolve();
    proc.once('exit', () => resolve());
    proc.kill('SIGTERM');
  });
}
