import Database from 'better-sqlite3';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { botListProjection } from '@gridrocket/bots';
import { SqliteEventStore } from '@gridrocket/event-store';
import { Projector, SqliteReadStore } from '@gridrocket/read-store';
import { seedBotLog } from './seed';
import { Figure, round } from './stats';

/** Projection rebuild of `total` bot events (bots of 10 events each), from an event store seeded directly. */
async function rebuild(total: number): Promise<Figure[]> {
  const dir = mkdtempSync(join(tmpdir(), 'gr-rebuild-'));
  try {
    await seedBotLog(join(dir, 'events.sqlite'), total, { allStopped: false });
    const events = new SqliteEventStore(join(dir, 'events.sqlite'));
    const reads = new SqliteReadStore(join(dir, 'read.sqlite'));
    const projector = new Projector(events, reads, [botListProjection]);
    const t0 = performance.now();
    const count = await projector.rebuild();
    const seconds = (performance.now() - t0) / 1000;
    await events.close();
    await reads.close();
    return [{ name: `projection rebuild of ${count.toLocaleString('en')} events`, value: round(count / seconds, 0), unit: 'events/s', aim: '≥ 250000' }];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Raw better-sqlite3 on the same machine and run, for comparison. */
function rawSqlite(rows: number): Figure[] {
  const dir = mkdtempSync(join(tmpdir(), 'gr-raw-'));
  try {
    const db = new Database(join(dir, 'raw.sqlite'));
    db.pragma('journal_mode = WAL');
    db.exec('CREATE TABLE t (position INTEGER PRIMARY KEY, stream TEXT, data TEXT)');
    const insert = db.prepare('INSERT INTO t (stream, data) VALUES (?, ?)');
    const payload = JSON.stringify({ botId: randomUUID(), exchange: 'Binance', symbol: 'BTCUSDT', entryPrice: 60000 });
    const t0 = performance.now();
    db.transaction(() => {
      for (let i = 0; i < rows; i++) insert.run(`bot-${i % 100000}`, payload);
    })();
    const t1 = performance.now();
    let n = 0;
    for (const row of db.prepare('SELECT * FROM t').iterate()) if (row) n++;
    const t2 = performance.now();
    const fsyncs = 500;
    db.pragma('synchronous = FULL');
    const t3 = performance.now();
    for (let i = 0; i < fsyncs; i++) insert.run('durable', payload);
    const t4 = performance.now();
    db.close();
    return [
      { name: 'raw better-sqlite3 insert (one transaction)', value: round(rows / ((t1 - t0) / 1000), 0), unit: 'rows/s' },
      { name: 'raw better-sqlite3 scan', value: round(n / ((t2 - t1) / 1000), 0), unit: 'rows/s' },
      { name: 'raw better-sqlite3 durable commits (WAL, synchronous=FULL)', value: round(fsyncs / ((t4 - t3) / 1000), 0), unit: 'commits/s' },
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The rebuild and, in the same run, the raw scan it is compared with. */
export async function rebuildBench(options: { events: number }): Promise<Figure[]> {
  const built = await rebuild(options.events);
  const raw = rawSqlite(options.events);
  const scan = raw.find((f) => f.name === 'raw better-sqlite3 scan')!.value;
  return [...built, ...raw, { name: 'projection rebuild ÷ raw scan (same run)', value: round((100 * built[0].value) / scan, 1), unit: '%', aim: '≥ 25' }];
}
