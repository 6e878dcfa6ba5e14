import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { NewEvent, SqliteEventStore } from '@gridrocket/event-store';
import { spotBot } from '../test/support/http-client';
import { spawnServer, stop } from '../test/support/server-process';
import { LightClient } from './light-client';
import { statusPush } from './bench-support';
import { Figure, percentile, round } from './stats';

/** A grid bot that ran for weeks: start/stop cycles with profits in between. */
export function longBotEvents(botId: string, count: number): NewEvent[] {
  const meta = { userId: 'runner', correlationId: randomUUID(), causationId: null, occurredAt: new Date().toISOString(), schemaVersion: 1 };
  const out: NewEvent[] = [];
  for (let i = 1; out.length < count; i++) {
    const k = i % 20;
    if (k === 1) out.push({ id: randomUUID(), type: 'BotStartRequested', data: { botId }, metadata: meta });
    else if (k === 2) out.push({ id: randomUUID(), type: 'BotStarted', data: { botId, pid: 1 }, metadata: meta });
    else if (k === 18) out.push({ id: randomUUID(), type: 'BotStopRequested', data: { botId, cancelAllOrders: false }, metadata: meta });
    else if (k === 19) out.push({ id: randomUUID(), type: 'BotStopped', data: { botId, pid: -1 }, metadata: meta });
    else if (k !== 0) out.push({ id: randomUUID(), type: 'ProfitRealized', data: { botId, amount: 0.5, totalProfit: i / 2, cycle: i }, metadata: meta });
  }
  // it ends stopped: what follows the last stop is profit booked late, not a half-run cycle
  const lastStop = out.map((e) => e.type).lastIndexOf('BotStopped');
  for (let j = lastStop + 1; j < out.length; j++) out[j] = { id: randomUUID(), type: 'ProfitRealized', data: { botId, amount: 0.5, totalProfit: j / 2, cycle: j }, metadata: meta };
  return out;
}


/** GET with the browser's Accept-Encoding; the body's bytes as sent (not decoded). */
function getBytes(url: string, cookie: string, encoding: string): Promise<{ ms: number; bytes: number; status: number }> {
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { cookie, 'accept-encoding': encoding } }, (res) => {
      let bytes = 0;
      res.on('data', (c: Buffer) => (bytes += c.length));
      res.on('end', () => resolve({ ms: performance.now() - t0, bytes, status: res.statusCode ?? 0 }));
    });
    req.on('error', reject);
    req.end();
  });
}

/**
 * Issue 16 "cost grows with history": start/stop of a bot with 10,000 events against a new bot's, in
 * the same server (its own process) and run; and that bot's history, JSON and CSV, compressed.
 */
export async function longHistoryBench(options: { events: number; rounds: number }): Promise<Figure[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'gr-bench-long-'));
  const server = await spawnServer(dataDir, { LOG_LEVEL: 'error', WEB_DIST: join(dataDir, 'none') });
  try {
    const c = new LightClient(server.url);
    const { uid } = await c.signUp('long@example.com');
    // a bot starts only with an API key for its exchange (the paper exchange is the key's sandbox)
    await c.send('POST', '/api/api-credentials', { access: { exchange: 'Binance', apiKey: 'bench-key', keySecret: 'bench-secret-0123456789', passPhrase: '', userId: uid } });
    const socket = await c.socket();
    const longId = (await c.send('POST', '/api/bots', spotBot)).body.id as string;
    const newId = (await c.send('POST', '/api/bots', spotBot)).body.id as string;
    // The history arrives as another writer's appends on the shared WAL file (what weeks of running leave).
    const store = new SqliteEventStore(join(dataDir, 'events.sqlite'));
    const events = longBotEvents(longId, options.events - 1);
    await store.append(`bot-${longId}`, events, 0n); // one append: the runner must not see a half-written cycle
    await store.close();

    const timings = { long: [] as number[], fresh: [] as number[], longPush: [] as number[], freshPush: [] as number[] };
    const cycle = async (id: string, cmd: number[], push: number[]) => {
      for (const [path, status] of [[`/api/startBot?id=${id}`, true], [`/api/stopBot?id=${id}&cancelAllOrders=true`, false]] as const) {
        const heard = statusPush(socket, id, status);
        const t0 = performance.now();
        const res = await c.send('GET', path);
        const t1 = performance.now();
        if (res.status !== 202) throw new Error(`${path} ${res.status}`);
        cmd.push(t1 - t0);
        push.push((await heard) - t0);
      }
    };
    await cycle(longId, [], []); // the first command on the long bot folds it once (the server had not seen it)
    await cycle(newId, [], []);
    for (let i = 0; i < options.rounds; i++) {
      await cycle(longId, timings.long, timings.longPush);
      await cycle(newId, timings.fresh, timings.freshPush);
    }
    socket.close();

    const cookie = c.cookieHeader();
    const history: Record<string, { ms: number[]; bytes: number; plain: number; plainMs: number[]; encoding: string }> = {};
    const encoding = process.env.BENCH_ACCEPT_ENCODING ?? 'gzip, deflate, br';
    for (const format of ['json', 'csv']) {
      const url = `${server.url}/api/bots/${longId}/history?format=${format}`;
      const ms: number[] = [];
      const plainMs: number[] = [];
      let bytes = 0;
      let plain = 0;
      for (let i = 0; i < 20; i++) {
        const r = await getBytes(url, cookie, encoding);
        ms.push(r.ms);
        bytes = r.bytes;
        const p = await getBytes(url, cookie, 'identity');
        plainMs.push(p.ms);
        plain = p.bytes;
      }
      history[format] = { ms, bytes, plain, plainMs, encoding };
    }
    c.close();
    const p50 = (xs: number[]) => round(percentile(xs, 50), 2);
    const p99 = (xs: number[]) => round(percentile(xs, 99), 2);
    return [
      { name: `start/stop of a bot with ${options.events.toLocaleString('en')} events, p50 / p99`, value: p50(timings.long), unit: `ms (p99 ${p99(timings.long)})`, aim: '≤ 2 × a new bot' },
      { name: 'start/stop of a new bot (same run), p50 / p99', value: p50(timings.fresh), unit: `ms (p99 ${p99(timings.fresh)})` },
      { name: `push of that bot's start/stop, p50 / p99`, value: p50(timings.longPush), unit: `ms (p99 ${p99(timings.longPush)})` },
      { name: 'push of a new bot (same run), p50 / p99', value: p50(timings.freshPush), unit: `ms (p99 ${p99(timings.freshPush)})` },
      ...['json', 'csv'].flatMap((f) => [
        { name: `history of that bot, ${f.toUpperCase()}, compressed, p99`, value: p99(history[f].ms), unit: `ms (p50 ${p50(history[f].ms)}; Accept-Encoding: ${history[f].encoding})`, aim: '≤ 150' },
        { name: `history of that bot, ${f.toUpperCase()}, uncompressed (same run), p99`, value: p99(history[f].plainMs), unit: `ms (p50 ${p50(history[f].plainMs)})` },
        { name: `history of that bot, ${f.toUpperCase()}, bytes sent compressed / plain`, value: history[f].bytes, unit: `bytes (plain ${history[f].plain})` },
      ]),
    ];
  } finally {
    await stop(server.proc);
    rmSync(dataDir, { recursive: true, force: true });
  }
}
