import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { seedBotLog } from './seed';
import { spawnServer, stop } from '../test/support/server-process';
import { Figure, round } from './stats';

// BENCH_SERVER_MAIN: another build's server (e.g. the code before a change), for a comparison
const MAIN = process.env.BENCH_SERVER_MAIN ?? join(__dirname, '..', 'apps/api/src/main.js');

function health(url: string): Promise<{ ms: number; body: { projectionLag?: string; catchUpPercent?: number } | null }> {
  const t0 = performance.now();
  return new Promise((resolve) => {
    const req = request(`${url}/api/health`, { timeout: 30_000 }, (res) => {
      let text = '';
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ ms: performance.now() - t0, body: res.statusCode === 200 ? JSON.parse(text) : null }));
    });
    req.on('error', () => resolve({ ms: performance.now() - t0, body: null }));
    req.end();
  });
}

/**
 * Starts the built server on `dataDir` and probes /api/health every 100 ms from the moment it listens
 * until every projection has caught up. Returns the time to the first answer, the time to caught-up
 * (from the spawn), and the slowest health answer meanwhile.
 */
async function startAndProbe(dataDir: string): Promise<{ listening: number; caughtUp: number; slowest: number; answers: number; sawProgress: boolean; stop(): Promise<void> }> {
  const t0 = performance.now();
  const { proc, url } = await spawnServer(dataDir, { WEB_DIST: join(dataDir, 'none') }, { main: MAIN, startTimeoutMs: 300_000 });
  const listening = performance.now() - t0;
  const times: number[] = [];
  let sawProgress = false;
  for (;;) {
    const h = await health(url);
    times.push(h.ms);
    if (h.body && h.body.catchUpPercent !== undefined && h.body.catchUpPercent < 100) sawProgress = true;
    if (h.body && h.body.projectionLag === '0') break;
    if (performance.now() - t0 > 600_000) throw new Error('no catch-up within 10 minutes');
    await new Promise((r) => setTimeout(r, 100));
  }
  const caughtUp = performance.now() - t0;
  return {
    listening,
    caughtUp,
    slowest: Math.max(...times),
    answers: times.length,
    sawProgress,
    stop: () => stop(proc),
  };
}

/** Issue 16: the first start on a large log nothing has seen yet, then a restart on it. */
export async function restartBench(options: { events: number }): Promise<Figure[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'gr-bench-restart-'));
  try {
    mkdirSync(dataDir, { recursive: true });
    await seedBotLog(join(dataDir, 'events.sqlite'), options.events);
    const first = await startAndProbe(dataDir);
    await first.stop();
    const again = await startAndProbe(dataDir);
    await again.stop();
    const n = options.events.toLocaleString('en');
    return [
      { name: `first start on a ${n}-event log: slowest /api/health answer during catch-up`, value: round(first.slowest, 1), unit: `ms (${first.answers} answers, progress reported: ${first.sawProgress ? 'yes' : 'no'})`, aim: '≤ 1000' },
      { name: `first start on a ${n}-event log: listening / caught up`, value: round(first.listening / 1000, 2), unit: `s / ${round(first.caughtUp / 1000, 1)} s` },
      { name: `restart to healthy and caught up, ${n}-event log`, value: round(again.caughtUp / 1000, 2), unit: `s (listening after ${round(again.listening / 1000, 2)} s)`, aim: '≤ 2' },
    ];
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

