#!/usr/bin/env node
/**
 * Runs every browser script (`npm run test:e2e`, after `npm run build`), E2E_JOBS at a time (2 by default:
 * the CI machine has two cores, and each script mostly waits on its own server and Chromium). Each script
 * starts its own server on a free port with its own data directory and its own browser profile, so they
 * share nothing. A script's output is printed whole when it ends, under its name and duration; the run
 * fails when any script fails (or prints no result line), and names them last.
 *
 *   node e2e/all.js                 every script
 *   node e2e/all.js figures forms   only these (the name without .e2e.js)
 *   E2E_JOBS=1 node e2e/all.js      one after the other
 */
'use strict';
const { spawn } = require('node:child_process');
const path = require('node:path');

// the two halves of the walk of the whole product first (run.js and walk-bots.e2e.js, the longest), side by side; the others follow
const SCRIPTS = ['run.js', 'walk-bots.e2e.js', 'proxy.e2e.js', 'capacity.e2e.js', 'alerts.e2e.js', 'access.e2e.js', 'backtest-history.e2e.js', 'figures.e2e.js', 'forms.e2e.js'];

const only = process.argv.slice(2).map((n) => (n.endsWith('.js') ? n : n === 'run' ? 'run.js' : `${n}.e2e.js`));
const unknown = only.filter((n) => !SCRIPTS.includes(n));
if (unknown.length) {
  console.error(`unknown e2e script(s): ${unknown.join(', ')}; known: ${SCRIPTS.join(', ')}`);
  process.exit(2);
}
const queue = only.length ? SCRIPTS.filter((s) => only.includes(s)) : [...SCRIPTS];
const jobs = Math.max(1, Number(process.env.E2E_JOBS || 2));

function runOne(script) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(process.execPath, [path.join(__dirname, script)], { env: process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('close', (code, signal) => {
      const secs = ((Date.now() - started) / 1000).toFixed(0);
      const result = [...out.matchAll(/^\s*(\d+) passed, (\d+) failed\s*$/gm)].at(-1);
      const ok = code === 0 && !!result && result[2] === '0';
      process.stdout.write(`\n== ${script} (${secs} s): ${ok ? 'passed' : `FAILED (exit ${code ?? signal})`}\n${out}`);
      resolve({ script, ok, secs });
    });
  });
}

async function main() {
  const started = Date.now();
  const results = [];
  const worker = async () => {
    for (let s = queue.shift(); s; s = queue.shift()) results.push(await runOne(s));
  };
  await Promise.all(Array.from({ length: jobs }, worker));
  const failed = results.filter((r) => !r.ok);
  console.log(`\ne2e: ${results.length - failed.length} of ${results.length} scripts passed in ${((Date.now() - started) / 1000).toFixed(0)} s, ${jobs} at a time (${results.map((r) => `${r.script} ${r.secs} s`).join(', ')})`);
  if (failed.length) {
    console.log(`failed: ${failed.map((r) => r.script).join(', ')}`);
    process.exit(1);
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
