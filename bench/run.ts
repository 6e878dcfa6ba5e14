import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { lifecycleBench } from './lifecycle.bench';
import { rebuildBench } from './rebuild.bench';
import { streamingBench } from './streaming.bench';
import { fleetBench } from './fleet.bench';
import { longHistoryBench } from './long-history.bench';
import { restartBench } from './restart.bench';
import { backtestBench } from './backtest.bench';
import { floodBench } from './flood.bench';
import { venueBench } from './venue.bench';
import { kafkaBench } from './kafka.bench';
import { Figure } from './stats';

/**
 * `npm run bench`: the figures BENCHMARKS.md records. Sizes can be reduced
 * for a quick look: BENCH_CYCLES, BENCH_WORKERS, BENCH_REBUILD_EVENTS, BENCH_FLEET_BOTS,
 * BENCH_FLEET_SECONDS, BENCH_LONG_EVENTS, BENCH_RESTART_EVENTS, and those of streaming.bench.ts, flood.bench.ts, venue.bench.ts and kafka.bench.ts.
 * Each section runs in a fresh process of its own (this script again, same node flags), as the product's
 * processes do: a section never measures in a heap the sections before it filled (the fleet's
 * tick-to-orders p99 was 94.7 ms after the others in one process, 42.1 ms alone, same build).
 */
async function main() {
  const cycles = Number(process.env.BENCH_CYCLES ?? 2000);
  const workers = Number(process.env.BENCH_WORKERS ?? 32);
  const rebuildEvents = Number(process.env.BENCH_REBUILD_EVENTS ?? 1_000_000);
  const fleetBots = Number(process.env.BENCH_FLEET_BOTS ?? 10_000);
  const fleetSeconds = Number(process.env.BENCH_FLEET_SECONDS ?? 20);
  const longEvents = Number(process.env.BENCH_LONG_EVENTS ?? 10_000);
  const restartEvents = Number(process.env.BENCH_RESTART_EVENTS ?? 1_000_000);
  console.log(`GridRocket benchmarks — node ${process.version}, ${cpus().length} × ${cpus()[0]?.model}, ${Math.round(totalmem() / 2 ** 30)} GiB, node flags: ${[...process.execArgv, process.env.NODE_OPTIONS ?? ''].join(' ').trim() || 'none'} (npm run bench: those of npm start)`);
  const figures: Figure[] = [];
  const sections: [string, () => Promise<Figure[]>][] = [
    ['Embedded stack (bot lifecycle)', () => lifecycleBench({ cycles, workers })],
    ['Projection rebuild', () => rebuildBench({ events: rebuildEvents })],
    ['Long histories (a bot with many events)', () => longHistoryBench({ events: longEvents, rounds: 20 })],
    ['Restart and first start on a large log', () => restartBench({ events: restartEvents })],
    ['Streams and audit (forwarder, replay)', () => streamingBench()],
    ['Runner fleet (paper bots in one process)', () => fleetBench({ bots: fleetBots, seconds: fleetSeconds })],
    ['Backtest (issue 15)', () => backtestBench()],
    ['Flood: one user floods backtests, another is served (issue 28)', () => floodBench()],
    ['Venue weight and fill latency (issue 39)', () => venueBench()],
    ['Kafka from outside: event latency and an outage (issue 41)', () => kafkaBench()],
  ];
  const only = process.env.BENCH_ONLY; // e.g. BENCH_ONLY=Backtest (or BENCH_ONLY=rebuild) runs just the sections whose title contains it
  if (only) sections.splice(0, sections.length, ...sections.filter(([title]) => title.toLowerCase().includes(only.toLowerCase())));
  const child = process.env.BENCH_SECTION;
  if (child !== undefined) {
    // a child: run one section and hand its figures to the parent
    const figures = await sections.find(([title]) => title === child)![1]();
    console.log(`${FIGURES} ${JSON.stringify(figures)}`);
    process.exit(0);
  }
  for (const [title] of sections) {
    console.log(`\n## ${title}`);
    for (const f of await inChild(title)) {
      figures.push(f);
      console.log(`${f.name.padEnd(70)} ${String(f.value).padStart(12)} ${f.unit}${f.aim ? `   (aim ${f.aim})` : ''}`);
    }
  }
  const out = join(process.cwd(), 'bench', 'out');
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, 'results.json'), JSON.stringify({ at: new Date().toISOString(), node: process.version, figures }, null, 2));
  process.exit(0);
}

const FIGURES = '@@bench-figures';

/** Runs one section in a fresh node process (same script, same node flags); resolves with its figures. */
function inChild(title: string): Promise<Figure[]> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, [...process.execArgv, __filename], { env: { ...process.env, BENCH_SECTION: title }, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    proc.stdout.on('data', (d: Buffer) => (out += d.toString()));
    proc.on('error', reject);
    proc.on('exit', (code) => {
      const line = out.split('\n').find((l) => l.startsWith(FIGURES));
      if (code !== 0 || !line) return reject(new Error(`bench section "${title}" failed (exit ${code}):\n${out.slice(-2000)}`));
      // what the section printed besides its figures (progress, notes) is passed on
      process.stdout.write(out.split('\n').filter((l) => l && !l.startsWith(FIGURES) && !l.startsWith('GridRocket benchmarks')).map((l) => `${l}\n`).join(''));
      resolve(JSON.parse(line.slice(FIGURES.length + 1)) as Figure[]);
    });
  });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
