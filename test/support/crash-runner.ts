import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';

const root = join(__dirname, '../..');

/**
 * The grid runner in a child process of its own (libs/trading/src/testing/crash-runner.child.ts), on
 * the data in `dir` and the test's paper venue served at `paperRpcUrl`: what the crash tests SIGKILL.
 * Resolves once the child says it is ready.
 */
export function startCrashRunner(dir: string, paperRpcUrl: string, env: Record<string, string> = {}): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['-r', join(root, 'libs/streaming/src/testing/ts-register.js'), join(root, 'libs/trading/src/testing/crash-runner.child.ts')], {
    env: { ...process.env, DATA_DIR: dir, PAPER_RPC_URL: paperRpcUrl, POLL_MS: '20', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  child.stderr!.on('data', (d) => (err += d));
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (d) => {
      if (String(d).includes('ready')) resolve(child);
    });
    child.once('exit', (code, signal) => reject(new Error(`runner child exited (${code ?? signal}) before ready: ${err}`)));
  });
}
