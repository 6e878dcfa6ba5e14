import type { ChildProcess } from 'node:child_process';
import { startTsChild } from './ts-child';

/**
 * The grid runner in a child process of its own (libs/trading/src/testing/crash-runner.child.ts), on
 * the data in `dir` and the test's paper venue served at `paperRpcUrl`: what the crash tests SIGKILL.
 * Resolves once the child says it is ready.
 */
export function startCrashRunner(dir: string, paperRpcUrl: string, env: Record<string, string> = {}): Promise<ChildProcess> {
  return startTsChild('libs/trading/src/testing/crash-runner.child.ts', { DATA_DIR: dir, PAPER_RPC_URL: paperRpcUrl, POLL_MS: '20', ...env }, 'runner');
}
