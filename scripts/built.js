#!/usr/bin/env node
// @ts-check
/**
 * Runs one of the server's command-line tools from its build (dist/), for `npm run tail` and `npm run replay`.
 * In a checkout (the TypeScript compiler is installed) it builds the server first, the build's output on
 * stderr; in the image (`npm prune --omit=dev`: no compiler, the build is there) it runs the build as it is.
 * Either way the tool's stdout is its own: `npm run --silent tail -- --json | jq` reads only events (npm
 * itself prints its "> gridrocket@… tail" banner on stdout unless told --silent).
 *
 *   node scripts/built.js apps/api/src/cli/tail.js [args…]
 */
const { existsSync } = require('node:fs');
const { join, resolve } = require('node:path');
const { spawnSync } = require('node:child_process');

const ROOT = resolve(__dirname, '..');
const [tool, ...args] = process.argv.slice(2);
if (!tool) {
  console.error('usage: node scripts/built.js <path of the tool under dist/, e.g. apps/api/src/cli/tail.js> [args…]');
  process.exit(2);
}
const built = join(ROOT, 'dist', tool);
if (existsSync(join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'))) {
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const r = spawnSync(npm, ['run', '--silent', 'build:server'], { cwd: ROOT, stdio: ['ignore', 2, 2] });
  if (r.status !== 0) process.exit(r.status ?? 1);
} else if (!existsSync(built)) {
  console.error(`${built} is not built, and the TypeScript compiler is not installed to build it (npm ci, then npm run build:server)`);
  process.exit(1);
}
// its own process (its `require.main` check runs it); Ctrl-C reaches it too, and it stops cleanly: wait for it
const child = require('node:child_process').spawn(process.execPath, [...process.execArgv, built, ...args], { stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
