import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { botStateAt } from '@gridrocket/bots';
import { NewEvent, RecordedEvent, SqliteEventStore } from '@gridrocket/event-store';
import { SqliteReadStore } from '@gridrocket/read-store';
import { EventSink, Forwarder, InProcessSink, KafkaSink, defaultTopicMap, kafkaSettingsFromEnv } from '@gridrocket/streaming';
import { Figure, percentile, round } from './stats';

export interface StreamingBenchOptions {
  /** Events appended at a steady rate while the forwarder runs live. */
  liveEvents?: number;
  /** Appends per second during the live run. */
  rate?: number;
  /** Backlog the forwarder catches up on. */
  backlog?: number;
  /** Bots and events per bot replayed (read + fold, as GET /state and `npm run replay` do). */
  replayBots?: number;
  eventsPerBot?: number;
}

const meta = (n: number) => ({ userId: 'bench', correlationId: `c-${n}`, causationId: null, occurredAt: new Date().toISOString(), schemaVersion: 1 });

function botEvents(botId: string, count: number): NewEvent[] {
  const out: NewEvent[] = [
    { id: randomUUID(), type: 'BotCreated', data: { botId, userId: 'bench', botType: 'Spot', exchange: 'Binance', symbol: 'BTCUSDT', numOfOrders: 5, orderSize: 0.01, interval: 100, entryPrice: 60000, takeProfit: 1, leverage: 1 }, metadata: meta(0) },
  ];
  let total = 0;
  for (let i = 1; out.length < count; i++) {
    if (i % 25 === 1) out.push({ id: randomUUID(), type: 'BotStartRequested', data: { botId }, metadata: meta(i) });
    else if (i % 25 === 2) out.push({ id: randomUUID(), type: 'BotStarted', data: { botId, pid: 1 }, metadata: meta(i) });
    else if (i % 25 === 23) out.push({ id: randomUUID(), type: 'BotStopRequested', data: { botId, cancelAllOrders: false }, metadata: meta(i) });
    else if (i % 25 === 24) out.push({ id: randomUUID(), type: 'BotStopped', data: { botId, pid: -1 }, metadata: meta(i) });
    else {
      total += 0.5;
      out.push({ id: randomUUID(), type: 'ProfitRealized', data: { botId, amount: 0.5, totalProfit: total, cycle: i }, metadata: meta(i) });
    }
  }
  return out;
}

/** The sink of the run: Kafka when KAFKA_BROKERS is set, else the in-process stream; timestamps every ack. */
function timedSink(acked: Map<string, number>, prefix: string): EventSink {
  const kafka = kafkaSettingsFromEnv();
  const real: EventSink = kafka ? new KafkaSink({ ...kafka, topicPrefix: prefix }) : new InProcessSink(1000);
  return {
    kind: real.kind,
    start: (t) => real.start(t),
    close: () => real.close(),
    async publish(messages) {
      await real.publish(messages);
      const now = performance.now();
      for (const m of messages) if (!acked.has(m.headers['event-id'])) acked.set(m.headers['event-id'], now);
    },
  };
}

/**
 * Figures for BENCHMARKS.md: the forwarder's lag (append acknowledged → stream
 * acknowledged) at a steady load, its catch-up rate, and the replay rate of
 * bot histories (read the stream + fold, as state-at-time and the replay CLI do).
 */
export async function streamingBench(options: StreamingBenchOptions = {}): Promise<Figure[]> {
  const liveEvents = options.liveEvents ?? Number(process.env.BENCH_FORWARDER_EVENTS ?? 10_000);
  const rate = options.rate ?? Number(process.env.BENCH_FORWARDER_RATE ?? 2_000);
  const backlog = options.backlog ?? Number(process.env.BENCH_FORWARDER_BACKLOG ?? 50_000);
  const replayBots = options.replayBots ?? Number(process.env.BENCH_REPLAY_BOTS ?? 1_000);
  const eventsPerBot = options.eventsPerBot ?? Number(process.env.BENCH_REPLAY_EVENTS_PER_BOT ?? 100);
  const dir = mkdtempSync(join(tmpdir(), 'gr-bench-stream-'));
  const figures: Figure[] = [];
  const prefix = `bench-${randomUUID().slice(0, 8)}.`;
  const events = new SqliteEventStore(join(dir, 'events.sqlite'), 20);
  const reads = new SqliteReadStore(join(dir, 'read.sqlite'));
  try {
    const sinkKind = kafkaSettingsFromEnv() ? 'Kafka' : 'in-process';
    // 1. Live: appends at a steady rate over 100 bot streams; lag per event.
    const acked = new Map<string, number>();
    const appendedAt = new Map<string, number>();
    const live = new Forwarder({ events, reads, sink: timedSink(acked, prefix), name: 'bench-live', topics: defaultTopicMap(prefix) });
    await live.start();
    const streams = Array.from({ length: 100 }, () => `bot-${randomUUID()}`);
    const started = performance.now();
    for (let n = 0; n < liveEvents; n++) {
      const due = started + (n * 1000) / rate;
      const wait = due - performance.now();
      if (wait > 1) await new Promise((r) => setTimeout(r, wait));
      const e: NewEvent = { id: randomUUID(), type: 'ProfitRealized', data: { n }, metadata: meta(n) };
      await events.append(streams[n % streams.length], [e], 'any');
      appendedAt.set(e.id, performance.now());
    }
    await live.waitFor(await events.headPosition(), 60_000);
    await live.stop();
    const lags = [...appendedAt].map(([id, at]) => (acked.get(id) ?? NaN) - at).filter(Number.isFinite);
    figures.push(
      { name: `forwarder lag p50 (${sinkKind}, ${rate} events/s over 100 streams)`, value: round(percentile(lags, 50), 2), unit: 'ms' },
      { name: `forwarder lag p99 (${sinkKind}, ${rate} events/s over 100 streams)`, value: round(percentile(lags, 99), 2), unit: 'ms', aim: '< 250 ms' },
    );

    // 2. Catch-up: a backlog forwarded from a checkpoint.
    const batch: NewEvent[] = [];
    for (let n = 0; n < backlog; n++) {
      batch.push({ id: randomUUID(), type: 'ProfitRealized', data: { n }, metadata: meta(n) });
      if (batch.length === 500) await events.append(streams[n % streams.length], batch.splice(0), 'any');
    }
    if (batch.length) await events.append(streams[0], batch.splice(0), 'any');
    const catchUp = new Forwarder({ events, reads, sink: timedSink(new Map(), prefix), name: 'bench-live', topics: defaultTopicMap(prefix), batchSize: 1000 });
    const t0 = performance.now();
    await catchUp.start();
    await catchUp.waitFor(await events.headPosition(), 300_000);
    const seconds = (performance.now() - t0) / 1000;
    await catchUp.stop();
    figures.push({ name: `forwarder catch-up (${sinkKind}, ${backlog} events backlog)`, value: Math.round(backlog / seconds), unit: 'events/s' });

    // 3. Replay: read + fold bot histories.
    const bots = Array.from({ length: replayBots }, () => randomUUID());
    for (const b of bots) await events.append(`bot-${b}`, botEvents(b, eventsPerBot), 'no_stream');
    const t1 = performance.now();
    let folded = 0;
    for (const b of bots) {
      const history: RecordedEvent[] = await events.readStream(`bot-${b}`);
      const s = botStateAt(b, history, new Date());
      folded += s.eventsApplied;
    }
    const replaySeconds = (performance.now() - t1) / 1000;
    figures.push({ name: `replay rate (read + fold, ${replayBots} bots × ${eventsPerBot} events, SQLite)`, value: Math.round(folded / replaySeconds), unit: 'events/s', aim: '> 100000 events/s' });

    const long = randomUUID();
    const longCount = eventsPerBot * 100;
    const longEvents = botEvents(long, longCount);
    for (let i = 0; i < longEvents.length; i += 1000) await events.append(`bot-${long}`, longEvents.slice(i, i + 1000), 'any');
    const t2 = performance.now();
    const one = botStateAt(long, await events.readStream(`bot-${long}`), new Date());
    figures.push({ name: `state-at-time of one bot with ${one.eventsApplied} events`, value: round(performance.now() - t2, 1), unit: 'ms' });
    return figures;
  } finally {
    await events.close();
    await reads.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (require.main === module) {
  streamingBench()
    .then((figures) => {
      for (const f of figures) console.log(`${f.name.padEnd(70)} ${String(f.value).padStart(12)} ${f.unit}`);
      process.exit(0);
    })
    .catch((err) => {
      console.error(err);
      process.exit(1);
    });
}
