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
import { Figure } from './stats';

/**
 * `npm run bench`: the figures BENCHMARKS.md records. Sizes can be reduced
 * for a quick look: BENCH_CYCLES, BENCH_WORKERS, BENCH_REBUILD_EVENTS, BENCH_FLEET_BOTS,
 * BENCH_FLEET_SECONDS, BENCH_LONG_EVENTS, BENCH_RESTART_EVENTS, and those of streaming.bench.ts.
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
  ];
  const only = process.env.BENCH_ONLY; // e.g. BENCH_ONLY=Backtest (or BENCH_ONLY=rebuild) runs just the sections whose title contains it
  if (only) sections.splice(0, sections.length, ...sections.filter(([title]) => title.toLowerCase().includes(only.toLowerCase())));
  for (const [title, run] of sections) {
    console.log(`\n## ${title}`);
    for (const f of await run()) {
      figures.push(f);
      console.log(`${f.name.padEnd(70)} ${String(f.value).padStart(12)} ${f.unit}${f.aim ? `   (aim ${f.aim})` : ''}`);
    }
  }
  const out = join(process.cwd(), 'bench', 'out');
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, 'results.json'), JSON.stringify({ at: new Date().toISOString(), node: process.version, figures }, null, 2));
  process.exit(0);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
