/**
 * Fleet benchmark of the grid runner: N paper bots in ONE process (one GridRunner, the embedded
 * SQLite event and read stores, the paper venue with a replayed price path), the feed ticking.
 * Figures: time to start the fleet (ladders placed and BotStarted recorded), RSS, and the
 * tick-to-orders latency: from the tick that fills a bot's order (venue.advanceTo) to that bot's
 * orders being reconciled on the exchange and its fills recorded in the event store (p50, p99),
 * measured from the tick that filled the order even when later ticks came meanwhile (the former
 * measure, from the latest tick, is also given: it under-reports reactions that outlast a tick).
 * FLEET_PROFILE=<file> writes a CPU profile of the ticking phase. FLEET_WAVE=<n> sets how many bots react to
 * fills at once (GridRunnerOptions.reactionWave, default 32; 0: all at once, as before issue 16's waves).
 *
 * Run alone: `npm run build:server && node -e "require('./dist/bench/fleet.bench').fleetBench({bots:10000,seconds:20}).then(console.table)"`
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Session } from 'node:inspector';
import { writeFileSync } from 'node:fs';
import { BotCommandRunner } from '@gridrocket/bots/nest';
import { SqliteEventStore } from '@gridrocket/event-store';
import { SqliteReadStore } from '@gridrocket/read-store';
import { PaperExchangeProvider, PaperVenue } from '@gridrocket/exchanges';
import { CsvReplayFeed } from '@gridrocket/exchanges';
import { benchRunner } from './bench-support';
import { Figure, percentile, round } from './stats';

export interface FleetBenchOptions {
  bots: number;
  /** How long the feed ticks. */
  seconds: number;
  /** Wall time between ticks (ms). */
  tickMs?: number;
  botsPerUser?: number;
}

const mb = (bytes: number) => round(bytes / 1024 / 1024, 0);

/** symbol, start price, amount step (paper.constants.ts). */
const SYMBOLS: Array<[string, number, number]> = [
  ['BTCUSDT', 95000, 0.00001], ['ETHUSDT', 3300, 0.0001], ['SOLUSDT', 140, 0.001], ['LTCUSDT', 90, 0.001], ['BCHUSDT', 480, 0.001],
  ['AVAXUSDT', 18, 0.01], ['LINKUSDT', 14, 0.01], ['ETCUSDT', 14, 0.01], ['KCSUSDT', 11, 0.01], ['ATOMUSDT', 3.2, 0.01],
];

export async function fleetBench(options: FleetBenchOptions): Promise<Figure[]> {
  const { bots, seconds } = options;
  const tickMs = options.tickMs ?? 50;
  const botsPerUser = options.botsPerUser ?? 100;
  const dir = mkdtempSync(join(tmpdir(), 'gr-fleet-'));
  // Bots are spread over SYMBOLS; the feed replays one row at a time, each row one symbol's price
  // (a sawtooth of ±0.15 % steps around its start price), so a tick wakes the bots of one symbol.
  const ticks = Math.ceil((seconds * 1000) / tickMs) + 10;
  const rows = ['ms,exchange,symbol,price', ...SYMBOLS.map(([sym, base]) => `1000,Binance,${sym},${(base * 1.01).toFixed(4)}`)];
  for (let i = 1; i <= ticks; i++) {
    const [sym, base] = SYMBOLS[i % SYMBOLS.length];
    const phase = Math.floor(i / SYMBOLS.length) % 30;
    const price = base * (1.01 - (phase < 15 ? phase : 30 - phase) * 0.0015);
    rows.push(`${1000 + i * 1000},Binance,${sym},${price.toFixed(4)}`);
  }
  // as the product opens it (PaperVenue.open): WAL checkpoints on a background thread
  const venue = new PaperVenue({ store: join(dir, 'paper.sqlite'), feed: new CsvReplayFeed(rows.join('\n')), startingUsdt: '100000', checkpointEveryMs: 200 });
  const provider = new PaperExchangeProvider(venue);
  // as the product runs it: commits on the event store's writer thread (FLEET_WRITER=inline: on the loop)
  const events = new SqliteEventStore(join(dir, 'events.sqlite'), 200, (process.env.FLEET_SYNC as any) ?? 'FULL', { writerThread: process.env.FLEET_WRITER !== 'inline' });
  const reads = new SqliteReadStore(join(dir, 'read.sqlite'));
  venue.advanceTo(1000);

  let lastTick = 0;
  let measuring = false;
  /** tick → bot converged, from the tick that filled the bot's order (even when later ticks came meanwhile). */
  const latencies: number[] = [];
  /** The former measure: from the latest tick, whichever filled the order (under-reports reactions that outlast a tick). */
  const sinceLatest: number[] = [];
  /** Bots with a fill not yet reacted to → time of the tick that filled it. */
  const filledAt = new Map<string, number>();
  const started = new Set<string>();
  const runner = benchRunner(events, reads, provider, {
    ...(process.env.FLEET_WAVE ? { reactionWave: Number(process.env.FLEET_WAVE) } : {}),
    onConverged: (botId) => {
      if (!measuring) {
        started.add(botId);
        return;
      }
      const now = performance.now();
      sinceLatest.push(now - lastTick);
      const at = filledAt.get(botId);
      if (at === undefined) return; // a converge no fill of a tick asked for (e.g. after its own cancel)
      filledAt.delete(botId);
      latencies.push(now - at);
    },
  });
  const rssBefore = process.memoryUsage().rss;
  await runner.start();

  // Create and start the fleet: 3 buys of about 6 USDT each per bot, entries spread 0…1.3 % under the start price.
  const cmd = new BotCommandRunner(events);
  const t0 = performance.now();
  const create = async (i: number) => {
    const id = randomUUID();
    const userId = `fleet-user-${Math.floor(i / botsPerUser)}`;
    const ctx = { userId, correlationId: randomUUID() };
    const [symbol, base, amountStep] = SYMBOLS[i % SYMBOLS.length];
    const entry = Number((base * (1 - 0.0007 * (Math.floor(i / SYMBOLS.length) % 20))).toPrecision(6));
    const orderSize = Math.ceil(6 / base / amountStep) * amountStep;
    await cmd.run({ type: 'CreateBot', botId: id, userId, botType: 'Spot', config: { exchange: 'Binance', symbol, numOfOrders: 3, orderSize: Number(orderSize.toFixed(8)), interval: Number((base * 0.001).toPrecision(4)), entryPrice: entry, takeProfit: 0.3, leverage: 1 } }, ctx);
    await cmd.run({ type: 'StartBot', botId: id, userId }, ctx);
  };
  for (let i = 0; i < bots; i += 500) await Promise.all(Array.from({ length: Math.min(500, bots - i) }, (_, k) => create(i + k)));
  for (let last = -1, still = 0; runner.runningBots().length < bots && still < 100; ) {
    await new Promise((r) => setTimeout(r, 50));
    const now = runner.runningBots().length;
    still = now === last ? still + 1 : 0;
    last = now;
  }
  await runner.idle();
  const startSeconds = (performance.now() - t0) / 1000;
  const openAfterStart = venue.openOrderCount();
  let rssPeak = process.memoryUsage().rss;
  const rssStarted = rssPeak;

  // Tick: each tick is one feed row; latency = tick → bot converged (fills recorded, orders placed).
  // Which bot a tick filled: the venue's order updates of every user's account (after the runner's own listener).
  for (let u = 0; u * botsPerUser < bots; u++) {
    venue.watchOrders(venue.account(`fleet-user-${u}`, 'Binance', 'spot'), (update) => {
      if (!measuring || !update.fill) return;
      const botId = runner.taskFor(update.fill.clientOrderId)?.botId;
      if (botId && !filledAt.has(botId)) filledAt.set(botId, lastTick);
    });
  }
  // FLEET_PROFILE=<file.cpuprofile>: a CPU profile of the ticking phase only (not the start).
  const profile = process.env.FLEET_PROFILE ? await startProfile() : null;
  const cpu0 = process.cpuUsage();
  const elu0 = performance.eventLoopUtilization();
  const fills0 = venue.store.allFills().length;
  measuring = true;
  const end = performance.now() + seconds * 1000;
  let n = 0;
  while (performance.now() < end) {
    lastTick = performance.now();
    venue.advanceTo(1000 + ++n * 1000);
    await new Promise((r) => setTimeout(r, tickMs));
    rssPeak = Math.max(rssPeak, process.memoryUsage.rss());
  }
  await runner.idle();
  measuring = false;
  const cpu = process.cpuUsage(cpu0);
  const elu = performance.eventLoopUtilization(elu0);
  if (profile) await profile(process.env.FLEET_PROFILE!);
  const failed = bots - runner.runningBots().length;
  const fills = venue.store.allFills().length;
  const cpuPerFill = (cpu.user + cpu.system) / 1000 / Math.max(1, fills - fills0);

  await runner.stop();
  await events.close();
  await reads.close();
  venue.close();
  rmSync(dir, { recursive: true, force: true });

  return [
    { name: `fleet: bots running in one process`, value: bots - failed, unit: 'bots' },
    { name: `fleet: start ${bots} bots (ladders placed, BotStarted)`, value: round(startSeconds, 1), unit: 's' },
    { name: 'fleet: open orders on the paper venue after start', value: openAfterStart, unit: 'orders' },
    { name: `fleet: RSS with ${bots} bots started`, value: mb(rssStarted), unit: 'MB' },
    { name: `fleet: peak RSS while ticking (${bots} bots)`, value: mb(rssPeak), unit: 'MB', aim: '< 1536 MB at 10,000 bots' },
    { name: 'fleet: RSS growth from empty runner', value: mb(rssPeak - rssBefore), unit: 'MB' },
    { name: `fleet: price ticks (one symbol each, ${tickMs} ms apart), fills`, value: n, unit: `ticks, ${fills} fills` },
    { name: 'fleet: reactions measured (bot converged after its fill)', value: latencies.length, unit: 'reactions' },
    { name: 'fleet: tick-to-orders latency p50', value: round(percentile(latencies, 50), 1), unit: 'ms' },
    { name: 'fleet: tick-to-orders latency p99', value: round(percentile(latencies, 99), 1), unit: 'ms', aim: '< 50 ms' },
    { name: 'fleet: CPU per fill while ticking (all threads) / event-loop utilisation', value: round(cpuPerFill, 3), unit: `ms / ${round(elu.utilization * 100, 0)} %` },
    { name: 'fleet: (former measure, from the latest tick) p50 / p99', value: round(percentile(sinceLatest, 50), 1), unit: `/ ${round(percentile(sinceLatest, 99), 1)} ms` },
  ];
}

/** Starts the V8 CPU profiler in this process; the returned function writes the profile and stops it. */
async function startProfile(): Promise<(file: string) => Promise<void>> {
  const session = new Session();
  session.connect();
  const post = (method: string, params?: object) =>
    new Promise<any>((resolve, reject) => session.post(method, params ?? {}, (err, res) => (err ? reject(err) : resolve(res))));
  await post('Profiler.enable');
  await post('Profiler.setSamplingInterval', { interval: 200 });
  await post('Profiler.start');
  return async (file) => {
    const { profile } = await post('Profiler.stop');
    writeFileSync(file, JSON.stringify(profile));
    session.disconnect();
  };
}
