import { existsSync } from 'node:fs';
import { extname, join, resolve } from 'node:path';

/**
 * A worker script of this package: the compiled .js beside the caller (`dir` and `callerFile` are its
 * __dirname and __filename), or, when the caller runs from its .ts source (tests), the .ts through the
 * swc hook.
 */
export function workerEntry(dir: string, callerFile: string, name: string): { file: string; execArgv: string[] } {
  const ext = extname(callerFile);
  const file = join(dir, `${name}${ext}`);
  if (ext === '.ts') {
    const hook = resolve(dir, '../../../streaming/src/testing/ts-register.js');
    return { file, execArgv: existsSync(hook) ? ['-r', hook] : [] };
  }
  return { file, execArgv: [] };
}
