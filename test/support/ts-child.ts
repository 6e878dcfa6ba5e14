import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';

const root = join(__dirname, '../..');

/**
 * A TypeScript test child (`script`, from the repository root) in a process of its own, run through
 * the tests' ts register: what the crash tests SIGKILL. Resolves once the child prints "ready";
 * rejects with its stderr if it exits before.
 */
export function startTsChild(script: string, env: Record<string, string>, name: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['-r', join(root, 'libs/streaming/src/testing/ts-register.js'), join(root, script)], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  child.stderr!.on('data', (d) => (err += d));
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (d) => {
      if (String(d).includes('ready')) resolve(child);
    });
    child.once('exit', (code, signal) => reject(new Error(`${name} child exited (${code ?? signal}) before ready: ${err}`)));
  });
}
