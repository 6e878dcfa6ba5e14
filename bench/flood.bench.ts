/**
 * Flood benchmark (issue 28, first "Done when"): while one person floods crafted backtests, sweeps and
 * uploads at the documented limits (from one account, then from four), /api/health p99 stays ≤ 250 ms,
 * another user's bot commands stay within 2× their idle p99 and that user's small sweep (2 combinations)
 * finishes within 2× its idle time. Idle and flood are measured in the same run, on the same server
 * process, with the same victim workload: only the attacker differs.
 *
 * The attacker, per account, for a bounded time:
 *  - keeps MAX_RUNNING_PER_USER (3) backtests and sweeps running or waiting, asking again every 100 ms
 *    (429s beyond): a 365-day 1-minute paper backtest, a 2,000-combination sweep over 138 days (198,720
 *    candles: 397 M candle-runs, just under the cap) and a 99-rung backtest over its uploaded CSV;
 *  - uploads a CSV of just under 8 MB (about 270,000 one-minute candles whose closes alternate across
 *    the 99-rung ladder) again and again, deleting its oldest upload when the quota says 409.
 * At the end every one of its jobs is cancelled.
 *
 * The victim, in both phases: /api/health every 25 ms (another connection), its bot commands (edit,
 * start, stop of its own bots over HTTP, waiting for the socket's push as the dashboard does), and a
 * 2-combination sweep over 30 days of paper candles, over and over (request → `backtest:done` push).
 *
 * Alone: `npm run build:server && BENCH_ONLY=flood node --max-semi-space-size=64 dist/bench/run.js`.
 * Sizes: BENCH_FLOOD_SECONDS (25), BENCH_FLOOD_IDLE_SECONDS (10), BENCH_FLOOD_ACCOUNTS ("1,4"); to find a
 * cause, BENCH_FLOOD_WORKERS (BACKTEST_WORKERS values, e.g. "1,2") and BENCH_FLOOD_PARTS (jobs | uploads).
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Socket } from 'socket.io-client';
import { spotBot } from '../test/support/http-client';
import { spawnServer, stop } from '../test/support/server-process';
import { LightClient } from './light-client';
import { Figure, percentile, round } from './stats';

const BOT = { exchange: 'Binance', symbol: 'SOLUSDT', botType: 'Spot', numOfOrders: 10, orderSize: '0.1', interval: 1, entryPrice: 140, takeProfit: 1 };
/** 10 × 10 × 20 = 2,000 combinations (the most a sweep may have) over 138 days: 397 M candle-runs (cap 400 M). */
const CAP_SWEEP = { ...BOT, days: 138, ranges: { interval: { from: 0.5, to: 5, step: 0.5 }, numOfOrders: { from: 1, to: 10, step: 1 }, takeProfit: { from: 1, to: 2.9, step: 0.1 } } };
const YEAR = { ...BOT, days: 365 };
/** 99 rungs 0.2 % apart below 140: the crafted CSV's closes cross all of them on every candle. */
const LADDER = { ...BOT, numOfOrders: 99, interval: 0.2, orderSize: '0.1' };
/** The victim's small sweep: 2 combinations over 30 days of paper candles. */
const SMALL_SWEEP = { ...BOT, days: 30, ranges: { interval: { from: 1, to: 2, step: 1 }, numOfOrders: { from: 10, to: 10, step: 1 }, takeProfit: { from: 1, to: 1, step: 1 } } };

/** A CSV of one-minute candles just under 8 MB whose closes alternate across the 99-rung ladder. */
export function craftedCsv(maxBytes = 8 * 1024 * 1024 - 1024): string {
  const T = Date.UTC(2025, 0, 1) / 1000;
  const lines: string[] = ['time,open,high,low,close'];
  let size = lines[0].length + 1;
  let close = 140;
  for (let i = 0; ; i++) {
    const open = close;
    close = i % 2 === 0 ? 111 : 141;
    const line = `${T + i * 60},${open},141,111,${close}`;
    if (size + line.length + 1 > maxBytes) break;
    lines.push(line);
    size += line.length + 1;
  }
  return lines.join('\n');
}

export interface PhaseFigures {
  healthP99: number;
  healthMax: number;
  healthAsked: number;
  commandP99: number;
  commandP50: number;
  commands: number;
  /** The victim's small sweeps, request → done push, ms. */
  sweeps: number[];
  sweepMedian: number;
  sweepP90: number;
}

export interface FloodFigures {
  accounts: number;
  workers: string;
  parts: FloodParts;
  idle: PhaseFigures;
  flood: PhaseFigures;
  attacker: { uploads: number; uploadMsP50: number; uploadMsMax: number; accepted: number; refused429: number; errors: string[] };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function statusPush(socket: Socket, id: string, botstatus: boolean, timeoutMs = 30_000): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      socket.off('bot:status', on);
      reject(new Error(`no bot:status ${botstatus} for ${id} within ${timeoutMs} ms`));
    }, timeoutMs);
    const on = (p: { id: string; botstatus: boolean }) => {
      if (p.id === id && p.botstatus === botstatus) {
        clearTimeout(timer);
        socket.off('bot:status', on);
        resolve();
      }
    };
    socket.on('bot:status', on);
  });
}

function backtestDone(socket: Socket, id: string, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      socket.off('backtest:done', on);
      reject(new Error(`backtest ${id} not done within ${timeoutMs} ms`));
    }, timeoutMs);
    const on = (p: { id: string; status: string }) => {
      if (p.id === id) {
        clearTimeout(timer);
        socket.off('backtest:done', on);
        resolve(p.status);
      }
    };
    socket.on('backtest:done', on);
  });
}

async function user(url: string, name: string, key = false): Promise<{ c: LightClient; socket: Socket }> {
  const c = new LightClient(url);
  const me = await c.signUp(`${name}-${randomUUID().slice(0, 8)}@example.com`);
  if (key) {
    const res = await c.send('POST', '/api/api-credentials', { access: { exchange: 'Binance', apiKey: `flood-key-${name}`, keySecret: 'flood-secret-0123456789', passPhrase: '', userId: me.uid } });
    if (res.status !== 201 && res.status !== 200) throw new Error(`api key ${res.status}`);
  }
  return { c, socket: await c.socket() };
}

/** The victim's work for one phase: health probes, bot commands, small sweeps, until `stopAt`. */
async function victimPhase(url: string, victim: { c: LightClient; socket: Socket }, bots: string[], ms: number, sweepTimeoutMs: number): Promise<PhaseFigures> {
  const stopAt = performance.now() + ms;
  const health: number[] = [];
  const commands: number[] = [];
  const sweeps: number[] = [];
  const probe = new LightClient(url);
  const healthLoop = (async () => {
    while (performance.now() < stopAt) {
      const t0 = performance.now();
      const res = await probe.send('GET', '/api/health');
      health.push(performance.now() - t0);
      if (res.status !== 200) throw new Error(`health ${res.status}`);
      await sleep(25);
    }
  })();
  const timed = async (method: string, path: string, body: unknown, expected: number) => {
    const t0 = performance.now();
    const res = await victim.c.send(method, path, body);
    commands.push(performance.now() - t0);
    if (res.status !== expected) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  };
  const commandLoop = (async () => {
    let k = 0;
    while (performance.now() < stopAt) {
      const id = bots[k++ % bots.length];
      await timed('PUT', `/api/bots/${id}`, { ...spotBot, orderSize: k % 2 ? '0.01' : '0.02' }, 200);
      const running = statusPush(victim.socket, id, true);
      await timed('GET', `/api/startBot?id=${id}`, undefined, 202);
      await running;
      const stopped = statusPush(victim.socket, id, false);
      await timed('GET', `/api/stopBot?id=${id}&cancelAllOrders=true`, undefined, 202);
      await stopped;
      await sleep(20);
    }
  })();
  const sweepLoop = (async () => {
    // at least one sweep per phase, however long it takes
    do {
      const t0 = performance.now();
      const res = await victim.c.send('POST', '/api/backtests/sweep', SMALL_SWEEP);
      if (res.status !== 202) throw new Error(`victim sweep ${res.status} ${JSON.stringify(res.body)}`);
      const status = await backtestDone(victim.socket, res.body.id, sweepTimeoutMs);
      if (status !== 'done') throw new Error(`victim sweep ${status}`);
      sweeps.push(performance.now() - t0);
      await sleep(100);
    } while (performance.now() < stopAt);
  })();
  await Promise.all([healthLoop, commandLoop, sweepLoop]);
  probe.close();
  return {
    healthP99: percentile(health, 99),
    healthMax: Math.max(...health),
    healthAsked: health.length,
    commandP99: percentile(commands, 99),
    commandP50: percentile(commands, 50),
    commands: commands.length,
    sweeps,
    sweepMedian: percentile(sweeps, 50),
    sweepP90: percentile(sweeps, 90),
  };
}

/** One attacker account, flooding at the limits until `stop()` is called; then cancels all it asked. */
function attack(url: string, name: string, csv: string, stats: FloodFigures['attacker'], parts: FloodParts) {
  let stopped = false;
  const jobs = new Set<string>();
  const uploads: string[] = [];
  const uploadMs: number[] = [];
  const run = (async () => {
    const { c, socket } = await user(url, name);
    const uploadLoop = (async () => {
      while (!stopped && parts.uploads) {
        const t0 = performance.now();
        const res = await c.sendRaw('POST', '/api/backtests/candles', csv, 'text/csv');
        if (res.status === 201) {
          uploadMs.push(performance.now() - t0);
          uploads.push(res.body.candlesId);
          stats.uploads++;
        } else if (res.status === 409 && uploads.length > 0) {
          const del = await c.send('DELETE', `/api/backtests/candles/${uploads.shift()}`);
          if (del.status !== 204) stats.errors.push(`delete upload ${del.status}`);
        } else {
          stats.errors.push(`upload ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
          await sleep(500);
        }
      }
    })();
    socket.on('backtest:done', (p: { id: string }) => jobs.delete(p.id));
    const jobLoop = (async () => {
      for (let k = 0; !stopped && parts.jobs; k++) {
        const kind = k % 3;
        const res =
          kind === 0
            ? await c.send('POST', '/api/backtests', YEAR)
            : kind === 1
              ? await c.send('POST', '/api/backtests/sweep', CAP_SWEEP)
              : uploads.length > 0
                ? await c.send('POST', '/api/backtests', { ...LADDER, candles: uploads[uploads.length - 1] })
                : await c.send('POST', '/api/backtests', YEAR);
        if (res.status === 202) {
          stats.accepted++;
          jobs.add(res.body.id);
        } else if (res.status === 429) stats.refused429++;
        else if (!(res.status === 400 && kind === 2)) stats.errors.push(`job ${kind} ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`); // an upload deleted meanwhile: 400
        await sleep(100);
      }
    })();
    await Promise.all([uploadLoop, jobLoop]);
    for (const id of jobs) await c.send('DELETE', `/api/backtests/${id}`); // 204, or 409 when it just finished
    socket.close();
    c.close();
  })();
  return {
    stop: () => {
      stopped = true;
      return run;
    },
    uploadMs,
  };
}

/** What the attacker does (both unless a measurement isolates one; BENCH_FLOOD_PARTS=jobs or uploads). */
export interface FloodParts {
  jobs: boolean;
  uploads: boolean;
}

export interface FloodOptions {
  parts?: FloodParts;
  /** Attacker accounts (all one person's). */
  accounts: number;
  floodSeconds: number;
  idleSeconds: number;
  /** BACKTEST_WORKERS for the server ('' = its default). */
  workers?: string;
  /** How long one victim sweep may take before the run fails. */
  sweepTimeoutMs?: number;
}

/** Idle, then flood, on one server process: the victim's figures of both phases. */
export async function floodRun(options: FloodOptions): Promise<FloodFigures> {
  const dataDir = mkdtempSync(join(tmpdir(), 'gr-flood-'));
  const server = await spawnServer(dataDir, { LOG_LEVEL: 'error', WEB_DIST: join(dataDir, 'none'), ...(options.workers ? { BACKTEST_WORKERS: options.workers } : {}) });
  const csv = craftedCsv();
  try {
    const victim = await user(server.url, 'victim', true);
    const bots: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await victim.c.send('POST', '/api/bots', spotBot);
      if (res.status !== 201) throw new Error(`create bot ${res.status}`);
      bots.push(res.body.id);
    }
    const sweepTimeoutMs = options.sweepTimeoutMs ?? 120_000;
    // warm-up: the first sweep starts the pool's workers; the first commands start the runner's paths
    await victimPhase(server.url, victim, bots, 1500, sweepTimeoutMs);
    const idle = await victimPhase(server.url, victim, bots, options.idleSeconds * 1000, sweepTimeoutMs);
    const stats: FloodFigures['attacker'] = { uploads: 0, uploadMsP50: 0, uploadMsMax: 0, accepted: 0, refused429: 0, errors: [] };
    const attackers = Array.from({ length: options.accounts }, (_, i) => attack(server.url, `attacker${i}`, csv, stats, options.parts ?? { jobs: true, uploads: true }));
    await sleep(1000); // the flood is under way (jobs queued, first uploads in)
    const flood = await victimPhase(server.url, victim, bots, options.floodSeconds * 1000, sweepTimeoutMs);
    await Promise.all(attackers.map((a) => a.stop()));
    const uploadMs = attackers.flatMap((a) => a.uploadMs);
    stats.uploadMsP50 = percentile(uploadMs, 50);
    stats.uploadMsMax = uploadMs.length ? Math.max(...uploadMs) : NaN;
    victim.socket.close();
    victim.c.close();
    return { accounts: options.accounts, workers: options.workers || 'default', parts: options.parts ?? { jobs: true, uploads: true }, idle, flood, attacker: stats };
  } finally {
    await stop(server.proc);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export function floodFigures(r: FloodFigures): Figure[] {
  const who = `${r.accounts} attacker account${r.accounts === 1 ? '' : 's'}, BACKTEST_WORKERS ${r.workers}${r.parts.jobs && r.parts.uploads ? '' : `, ${r.parts.jobs ? 'jobs' : 'uploads'} only`}`;
  return [
    { name: `flood (${who}): /api/health p99 idle`, value: round(r.idle.healthP99, 1), unit: 'ms' },
    { name: `flood (${who}): /api/health p99 under flood (max ${round(r.flood.healthMax, 0)} ms, ${r.flood.healthAsked} asked)`, value: round(r.flood.healthP99, 1), unit: 'ms', aim: '≤ 250' },
    { name: `flood (${who}): victim bot command p99 idle (${r.idle.commands} commands)`, value: round(r.idle.commandP99, 1), unit: 'ms' },
    { name: `flood (${who}): victim bot command p99 under flood (${r.flood.commands} commands)`, value: round(r.flood.commandP99, 1), unit: 'ms' },
    { name: `flood (${who}): victim command p99, flood ÷ idle`, value: round(r.flood.commandP99 / r.idle.commandP99, 2), unit: '×', aim: '≤ 2' },
    { name: `flood (${who}): victim command median, flood ÷ idle (${round(r.flood.commandP50, 1)} ms ÷ ${round(r.idle.commandP50, 1)} ms)`, value: round(r.flood.commandP50 / r.idle.commandP50, 2), unit: '×' },
    { name: `flood (${who}): victim 2-combination sweep, median idle (${r.idle.sweeps.length} sweeps)`, value: round(r.idle.sweepMedian, 0), unit: 'ms' },
    { name: `flood (${who}): victim 2-combination sweep, median under flood (${r.flood.sweeps.length} sweeps, max ${round(Math.max(...r.flood.sweeps), 0)} ms)`, value: round(r.flood.sweepMedian, 0), unit: 'ms' },
    { name: `flood (${who}): victim sweep, flood ÷ idle (median)`, value: round(r.flood.sweepMedian / r.idle.sweepMedian, 2), unit: '×', aim: '≤ 2' },
    { name: `flood (${who}): victim 2-combination sweep, p90 idle (max ${round(Math.max(...r.idle.sweeps), 0)} ms)`, value: round(r.idle.sweepP90, 0), unit: 'ms' },
    { name: `flood (${who}): victim 2-combination sweep, p90 under flood`, value: round(r.flood.sweepP90, 0), unit: 'ms' },
    { name: `flood (${who}): victim sweep, flood ÷ idle (p90)`, value: round(r.flood.sweepP90 / r.idle.sweepP90, 2), unit: '×', aim: '≤ 2' },
    { name: `flood (${who}): attacker uploads (p50 ${round(r.attacker.uploadMsP50, 0)} ms, max ${round(r.attacker.uploadMsMax, 0)} ms), jobs accepted, 429s`, value: r.attacker.uploads, unit: `uploads, ${r.attacker.accepted} jobs, ${r.attacker.refused429} × 429${r.attacker.errors.length ? `, errors: ${r.attacker.errors.slice(0, 3).join('; ')}` : ''}` },
  ];
}

export async function floodBench(): Promise<Figure[]> {
  const floodSeconds = Number(process.env.BENCH_FLOOD_SECONDS ?? 25);
  const idleSeconds = Number(process.env.BENCH_FLOOD_IDLE_SECONDS ?? 10);
  const accounts = (process.env.BENCH_FLOOD_ACCOUNTS ?? '1,4').split(',').map(Number);
  const workers = (process.env.BENCH_FLOOD_WORKERS ?? '').split(',');
  const only = process.env.BENCH_FLOOD_PARTS;
  const parts = { jobs: !only || only.includes('jobs'), uploads: !only || only.includes('uploads') };
  const figures: Figure[] = [];
  for (const w of workers) {
    for (const a of accounts) {
      const r = await floodRun({ accounts: a, floodSeconds, idleSeconds, workers: w, parts });
      figures.push(...floodFigures(r));
    }
  }
  return figures;
}
