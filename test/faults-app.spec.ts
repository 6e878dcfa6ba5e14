/**
 * Issue 12, "Done when" 1: the whole app on the embedded adapters wrapped in fault injectors, for a
 * 60-second run (FAULTS_DURATION_MS) of bot lifecycles and trading on the paper exchange, under a
 * seeded schedule (FAULTS_SEED): every subscription dropped every ~3 s, 5 % of read-store commits
 * rejected, appends timing out (written or not), publishes refused or their acks lost.
 * Then: nothing stalled (every consumer live, lag 0; every request answered), nothing lost or applied
 * twice (each exchange fill recorded once, each acknowledged command in the log), the read model
 * equals a replay of the log, and the forwarder's output holds every event at least once, in stream
 * order. It prints what it did.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteEventStore } from '@gridrocket/event-store';
import { FaultSchedule } from '@gridrocket/event-store/testing/fault-schedule';
import { FaultyEventStore } from '@gridrocket/event-store/testing/faulty.event-store';
import { Projector, SqliteReadStore } from '@gridrocket/read-store';
import { FaultyReadStore } from '@gridrocket/read-store/testing/faulty.read-store';
import { EVENT_SINK, Forwarder, InProcessSink, StreamMessage } from '@gridrocket/streaming';
import { FaultySink } from '@gridrocket/streaming/testing/faulty.sink';
import { loadConfig } from '@gridrocket/shared/runtime';
import { until } from '@gridrocket/shared/testing/until';
import { EXCHANGE_PROVIDER } from '@gridrocket/credentials';
import type { ExchangeProvider } from '@gridrocket/exchanges';
import { engineBotId } from '@gridrocket/trading';
import { isOwnClientOrderId } from '@gridrocket/trading/grid';
import { startApp, RunningApp } from '../apps/api/src/bootstrap';
import { Client, spotBot } from './support/http-client';

const DURATION = Number(process.env.FAULTS_DURATION_MS ?? 60_000);
const SEED = Number(process.env.FAULTS_SEED ?? 42);
jest.setTimeout(DURATION + 240_000);

/** Prices that swing around 60 000 (±1.5 %) every few seconds, so that grids fill and take profit. */
function pricesCsv(): string {
  const rows = ['ms,exchange,symbol,price'];
  for (let ms = 0; ms <= DURATION + 120_000; ms += 250) {
    const p = 60000 + 900 * Math.sin(ms / 2300) + 400 * Math.sin(ms / 700);
    for (const exchange of ['Binance', 'Kucoin']) rows.push(`${ms},${exchange},BTCUSDT,${p.toFixed(2)}`);
  }
  return rows.join('\n');
}

describe(`the whole app under injected faults (${DURATION / 1000} s, seed ${SEED})`, () => {
  let dir: string;
  let app: RunningApp;
  const schedule = new FaultSchedule(SEED);
  const published: StreamMessage[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'gr-faults-'));
    writeFileSync(join(dir, 'prices.csv'), pricesCsv());
    schedule.off(); // the set-up runs without faults
    const config = loadConfig({ DATA_DIR: join(dir, 'data'), PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: process.env.FAULTS_LOG_LEVEL ?? 'silent', WEB_DIST: join(dir, 'no-web'), PAPER_PRICES: join(dir, 'prices.csv'), METRICS_PUBLIC: 'true' });
    app = await startApp(config, {
      adapters: {
        eventStore: (s) => new FaultyEventStore(s, schedule, { dropSubscriptionsEveryMs: 3_000, appendTimeoutRate: 0.03, appendTimeoutMs: 150, failAppendRate: 0.02 }),
        readStore: (s) => new FaultyReadStore(s, schedule, { rejectCommitRate: 0.05 }),
        sink: (s) => new FaultySink(s, schedule, { failPublishRate: 0.05, lostAckRate: 0.03 }),
      },
    });
    const sink = (app.app.get(EVENT_SINK) as FaultySink).inner as InProcessSink;
    void (async () => {
      for await (const m of sink.tail({ fromBeginning: true })) published.push(m);
    })();
  });
  let stopSampling = async () => undefined as void;
  afterAll(async () => {
    await stopSampling();
    await app?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('stalls nothing, loses nothing, applies nothing twice; the read model equals a replay; the stream holds every event in order', async () => {
    // six traders: three with a bot running all along, all six taking turns at short lifecycles
    // (a paper account starts with 10 000 USDT; stopped bots keep the coins they bought)
    const users = await Promise.all(
      [0, 1, 2, 3, 4, 5].map(async (i) => {
        const c = new Client(app.url);
        const u = await c.signUp(`trader${i}@example.com`);
        await c.addKey(u.uid); // a bot starts only with a key for its exchange (paper mode too)
        return { c, uid: u.uid };
      }),
    );
    schedule.on();
    const started = Date.now();
    const stats = { refusedForFunds: 0, requests: 0, retried: 0, created: 0, started: 0, stopped: 0, deleted: 0, slowest: 0, healthRetrying: 0, healthSamples: 0 };
    const acknowledged = new Set<string>();

    /** A request; a 5xx (an infrastructure fault the server could not hide) is retried, as a client would. */
    const call = async (fn: () => Promise<{ status: number; body: any; text: string }>, ok: number[]) => {
      for (let attempt = 1; ; attempt++) {
        const t0 = Date.now();
        const res = await fn();
        stats.requests++;
        stats.slowest = Math.max(stats.slowest, Date.now() - t0);
        if (ok.includes(res.status)) return res;
        if (res.status >= 500 && attempt < 10) {
          stats.retried++;
          await new Promise((r) => setTimeout(r, 100 * attempt));
          continue;
        }
        throw new Error(`unexpected ${res.status}: ${res.text}`);
      }
    };
    const until409Free = async (fn: () => Promise<{ status: number; body: any; text: string }>, ok: number[]) => {
      // a start/stop/delete can meet the previous step still in progress (409): wait and ask again
      const deadline = Date.now() + 30_000;
      for (;;) {
        const res = await call(fn, [...ok, 409]);
        if (res.status !== 409) return res;
        if (Date.now() > deadline) throw new Error(`still 409 after 30 s: ${res.text}`);
        await new Promise((r) => setTimeout(r, 200));
      }
    };
    const statusOf = async (u: (typeof users)[0], id: string) => {
      const list = (await call(() => u.c.get(`/api/bots/${u.uid}`), [200])).body as { id: string; botstatus: boolean; state: string; lasterror: string | null }[];
      const bot = list.find((b) => b.id === id);
      if (bot?.state === 'failed') throw new Error(`bot ${id} failed: ${bot.lasterror}`); // say why at once, rather than time out
      return bot;
    };

    /** What a stuck bot's history, list entry and the consumers say (the failure message carries it). */
    const diagnose = async (u: (typeof users)[0], id: string) => {
      const raw = new SqliteEventStore(join(dir, 'data', 'events.sqlite'), 50);
      const history = (await raw.readStream(`bot-${id}`).catch(() => [])).map((e) => `${e.revision}:${e.type}@${e.position}`);
      const head = await raw.headPosition();
      await raw.close();
      const list = (await u.c.get(`/api/bots/${u.uid}`)).body?.find?.((b: { id: string }) => b.id === id);
      const health = (await u.c.get('/api/health')).body;
      return `history ${history.join(' ')}; head ${head}; list ${JSON.stringify(list)}; consumers ${JSON.stringify(health?.consumers)}`;
    };

    const lifecycle = async (u: (typeof users)[0], n: number) => {
      // entries around a price that swings ±1,300: above it by more than 0.5 % needs the trader's confirmation (issue 29)
      const entry = 60000 + ((n % 3) - 1) * 300;
      const created = await call(() => u.c.post('/api/bots', { ...spotBot, numOfOrders: 2, interval: 250, entryPrice: entry, userId: u.uid, confirmAboveMarket: true }), [201]);
      const id = created.body.id as string;
      acknowledged.add(id);
      stats.created++;
      await until409Free(() => u.c.get(`/api/startBot?userId=${u.uid}&id=${id}&symbol=BTCUSDT&exchange=Binance&botType=Spot`), [202]);
      stats.started++;
      let refused = false;
      await until(
        `bot ${id} running`,
        async () => {
          const bot = await statusOf(u, id);
          // the venue's answer, not a fault: the user's funds are held by orders and bought coins
          refused = bot?.state === 'stopped' && /Insufficient balance/.test(bot.lasterror ?? '');
          return refused || bot?.state === 'running';
        },
        60_000,
      ).catch(async (err) => {
        throw new Error(`${err.message}; ${await diagnose(u, id)}`);
      });
      if (refused) {
        stats.refusedForFunds++;
        await new Promise((r) => setTimeout(r, 1_000));
        return;
      }
      await new Promise((r) => setTimeout(r, 2_000 + (n % 4) * 1_500)); // trades meanwhile
      // (one in six stops without cancel-all: its orders stay on the book, holding some of the user's funds)
      await until409Free(() => u.c.get(`/api/stopBot?userId=${u.uid}&id=${id}&pid=${process.pid}&cancelAllOrders=${n % 6 !== 1}&exchange=Binance&symbol=BTCUSDT&botType=Spot`), [202]);
      stats.stopped++;
      await until(`bot ${id} stopped`, async () => (await statusOf(u, id))?.state === 'stopped', 60_000).catch(async (err) => {
        throw new Error(`${err.message}; ${await diagnose(u, id)}`);
      });
      if (n % 3 === 0) {
        await until409Free(() => u.c.delete(`/api/bots/${id}`), [204]);
        stats.deleted++;
      }
    };

    // health is sampled all along: a consumer may retry, it must not stay stuck
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        try {
          const h = await users[0].c.get('/api/health');
          stats.healthSamples++;
          if ((h.body?.consumers ?? []).some((c: { state: string }) => c.state === 'retrying')) stats.healthRetrying++;
        } catch {
          // the app is closing (a failed run): stop sampling
          return;
        }
        await new Promise((r) => setTimeout(r, 500));
      }
    })();
    stopSampling = async () => {
      sampling = false;
      await sampler;
    };

    // one long-running bot per user trades through the whole run; lifecycles come and go beside it
    const longRunning: string[] = [];
    for (const u of users.slice(0, 3)) {
      const res = await call(() => u.c.post('/api/bots', { ...spotBot, numOfOrders: 3, interval: 200, entryPrice: 60000, userId: u.uid, confirmAboveMarket: true }), [201]);
      acknowledged.add(res.body.id);
      stats.created++;
      await until409Free(() => u.c.get(`/api/startBot?userId=${u.uid}&id=${res.body.id}&symbol=BTCUSDT&exchange=Binance&botType=Spot`), [202]);
      stats.started++;
      longRunning.push(res.body.id);
    }
    await Promise.all(
      [0, 1, 2].map(async (i) => {
        for (let n = i; Date.now() - started < DURATION; n += 3) await lifecycle(users[i + 3 * (Math.floor(n / 3) % 2)], n);
      }),
    );
    const faultsInjected = schedule.summary();
    schedule.off();
    await stopSampling();

    // ---- settle: every consumer live and caught up, within a bound (nothing stalled)
    const projector = app.app.get(Projector);
    const forwarder = app.app.get(Forwarder);
    const raw = new SqliteEventStore(join(dir, 'data', 'events.sqlite'), 50);
    const head = async () => raw.headPosition();
    await until('projections caught up', async () => projector.position >= (await head()), 60_000);
    await until('forwarder caught up', async () => forwarder.position >= (await head()), 60_000);
    await until('every consumer live', async () => {
      const h = await users[0].c.get('/api/health');
      if (h.status === 200 && h.body.status === 'ok' && h.body.consumers.every((c: { state: string; lag: string }) => c.state === 'live' && c.lag === '0')) return true;
      // what the failure message shows: each consumer's state and lag
      throw new Error(`health ${h.status} ${h.body?.status}: ${JSON.stringify(h.body?.consumers?.map((c: { name: string; state: string; lag: string }) => [c.name, c.state, c.lag]))}`);
    }, 60_000);
    const health = (await users[0].c.get('/api/health')).body;
    const log = await raw.readAll();

    // ---- nothing lost: every acknowledged creation is in the log; every exchange fill recorded once
    const created = new Set(log.filter((e) => e.type === 'BotCreated').map((e) => e.streamId.slice('bot-'.length)));
    for (const id of acknowledged) expect(created.has(id)).toBe(true);
    const byBot = new Map<string, typeof log>();
    for (const e of log) if (e.streamId.startsWith('bot-')) byBot.set(e.streamId, [...(byBot.get(e.streamId) ?? []), e]);
    let fills = 0;
    let placed = 0;
    for (const [, stream] of byBot) {
      const fillIds = stream.filter((e) => e.type === 'OrderFilled' || e.type === 'TakeProfitFilled').map((e) => (e.data as { fillId: string }).fillId);
      expect(new Set(fillIds).size).toBe(fillIds.length); // applied once
      fills += fillIds.length;
      const placedIds = stream.filter((e) => e.type === 'OrderPlaced' || e.type === 'TakeProfitPlaced').map((e) => (e.data as { clientOrderId: string }).clientOrderId);
      expect(new Set(placedIds).size).toBe(placedIds.length);
      placed += placedIds.length;
      const revisions = stream.map((e) => Number(e.revision));
      expect(revisions).toEqual(revisions.map((_, i) => i));
    }
    // the bots still running: every fill the venue holds for their orders is recorded, and nothing else
    const exchanges = app.app.get<ExchangeProvider>(EXCHANGE_PROVIDER);
    for (const [i, botId] of longRunning.entries()) {
      const port = await exchanges.for({ userId: users[i].uid, exchange: 'Binance', market: 'spot' });
      const run = Number(byBot.get(`bot-${botId}`)!.find((e) => e.type === 'BotStartRequested')!.revision);
      // (from the very start: the paper venue stamps fills made before its CSV clock has ticked with -1)
      const own = async () => (await port.recentFills('BTCUSDT', Number.MIN_SAFE_INTEGER)).filter((f) => isOwnClientOrderId(engineBotId(botId, run), f.clientOrderId)).map((f) => f.fillId);
      const recorded = async () =>
        (await raw.readStream(`bot-${botId}`)).filter((e) => e.type === 'OrderFilled' || e.type === 'TakeProfitFilled').map((e) => (e.data as { fillId: string }).fillId);
      const onVenue = await own();
      await until(`fills of ${botId} recorded`, async () => {
        const r = new Set(await recorded());
        return onVenue.every((f) => r.has(f));
      }, 30_000);
      const after = new Set(await own());
      const phantom = (await recorded()).filter((f) => !after.has(f));
      if (phantom.length) {
        const all = await port.recentFills('BTCUSDT', Number.MIN_SAFE_INTEGER);
        const stream = (await raw.readStream(`bot-${botId}`)).filter((e) => phantom.includes((e.data as { fillId?: string }).fillId ?? ''));
        console.log(`phantom fills of ${botId} (run ${run}): ${JSON.stringify(stream.map((e) => e.data))}; venue has ${JSON.stringify(all.filter((f) => phantom.includes(f.fillId)))}`);
      }
      expect(phantom).toEqual([]);
    }

    // ---- the read model equals a replay of the log
    const replayStore = new SqliteReadStore(join(dir, 'replay.sqlite'));
    const replay = new Projector(raw, replayStore, [...projector.registered]);
    await replay.rebuild();
    const liveReads = new SqliteReadStore(join(dir, 'data', 'read.sqlite'));
    let docs = 0;
    for (const p of projector.registered) {
      const live = (await liveReads.find<{ id: string }>(p.collection, {}, { orderBy: { field: 'id' } })).sort((a, b) => a.id.localeCompare(b.id));
      const again = (await replayStore.find<{ id: string }>(p.collection, {}, { orderBy: { field: 'id' } })).sort((a, b) => a.id.localeCompare(b.id));
      expect({ collection: p.collection, docs: live }).toEqual({ collection: p.collection, docs: again });
      docs += live.length;
    }

    // ---- the forwarder's output: every event at least once, in stream order
    await until('tail caught up', async () => new Set(published.map((m) => m.headers['event-id'])).size >= log.length, 30_000);
    const firstSeen = new Map<string, number>();
    published.forEach((m, i) => {
      if (!firstSeen.has(m.headers['event-id'])) firstSeen.set(m.headers['event-id'], i);
    });
    for (const e of log) expect(firstSeen.has(e.id)).toBe(true);
    const lastRevision = new Map<string, number>();
    const seenOnce = new Set<string>();
    for (const m of published) {
      const id = m.headers['event-id'];
      if (seenOnce.has(id)) continue; // a resend (at-least-once)
      seenOnce.add(id);
      const rev = (JSON.parse(m.value) as { revision: number }).revision;
      expect(rev).toBe((lastRevision.get(m.key) ?? -1) + 1); // each stream in order, none skipped
      lastRevision.set(m.key, rev);
    }

    const report = {
      seconds: Math.round((Date.now() - started) / 1000),
      faultsInjected,
      http: stats,
      events: log.length,
      bots: byBot.size,
      ordersPlaced: placed,
      fillsRecorded: fills,
      readModelDocs: docs,
      published: published.length,
      duplicatesPublished: published.length - seenOnce.size,
      consumers: health.consumers.map((c: { name: string; failures: number }) => `${c.name}: ${c.failures} failures`),
    };
    console.log(`faults-app: ${JSON.stringify(report, null, 2)}`);
    // the state was reported while it lasted, and is reported in /metrics too
    expect(stats.healthRetrying).toBeGreaterThan(0);
    const metrics = await (await fetch(`${app.url}/metrics`)).text();
    expect(metrics).toMatch(/gridrocket_consumer_state\{consumer="projections",kind="projector",state="live"\} 1/);
    expect(Number(/gridrocket_consumer_failures_total\{consumer="projections",kind="projector"\} (\d+)/.exec(metrics)?.[1] ?? 0)).toBeGreaterThan(0);
    expect(faultsInjected['subscription.drop'] ?? 0).toBeGreaterThan(DURATION >= 30_000 ? 5 : 0);
    expect(faultsInjected['commit.reject'] ?? 0).toBeGreaterThan(0);
    expect(faultsInjected['append.timeout'] ?? 0).toBeGreaterThan(0);
    expect(fills).toBeGreaterThan(0); // it really traded
    expect(stats.stopped).toBeGreaterThan(DURATION >= 30_000 ? 10 : 2);
    expect(stats.refusedForFunds).toBeLessThan(stats.started / 3); // the workload traded, it did not spin on refusals
    await replayStore.close();
    await liveReads.close();
    await raw.close();
  });
});
