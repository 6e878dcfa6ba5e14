import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Consumer } from 'kafkajs';
import { NewEvent, SqliteEventStore } from '@gridrocket/event-store';
import { allTopics, createKafka, defaultTopicMap, kafkaSettingsFromEnv } from '@gridrocket/streaming';
import { until } from '@gridrocket/shared/testing/until';
import { startTsChild } from './support/ts-child';

jest.setTimeout(120_000);

const STREAMS = 12;
const TOTAL = 1500;

interface Line {
  key: string;
  headers: Record<string, string>;
  value: { id: string; revision: number; position: number };
}

function ev(n: number): NewEvent {
  return {
    id: randomUUID(),
    type: n % 2 ? 'BotStarted' : 'BotStopped',
    data: { n },
    metadata: { userId: 'u', correlationId: `c-${n}`, causationId: null, occurredAt: new Date().toISOString(), schemaVersion: 1 },
  };
}

const startChild = (env: Record<string, string>) => startTsChild('libs/streaming/src/testing/forwarder-child.ts', env, 'forwarder');

const exited = (child: ChildProcess) => new Promise<void>((r) => (child.exitCode !== null || child.signalCode !== null ? r() : child.once('exit', () => r())));

interface Target {
  name: string;
  env(dir: string): Record<string, string>;
  read(): Promise<Line[]>;
  close(): Promise<void>;
}

function fileTarget(): Target {
  let out = '';
  return {
    name: 'file sink',
    env(dir) {
      out = join(dir, 'published.ndjson');
      return { SINK: 'file', OUT: out, DELAY_MS: '3', BATCH: '25' };
    },
    async read() {
      if (!existsSync(out)) return [];
      // a SIGKILL may cut the last line short: only whole lines count
      return readFileSync(out, 'utf8').split('\n').filter((l) => l.endsWith('}')).map((l) => JSON.parse(l) as Line);
    },
    async close() {},
  };
}

function kafkaTarget(): Target {
  const prefix = `crash-${randomUUID().slice(0, 8)}.`;
  const settings = kafkaSettingsFromEnv({ ...process.env, KAFKA_TOPIC_PREFIX: prefix, KAFKA_PARTITIONS: '3' })!;
  const kafka = createKafka(settings);
  const got: Line[] = [];
  let consumer: Consumer | null = null;
  return {
    name: 'kafka sink',
    env: () => ({ SINK: 'kafka', KAFKA_TOPIC_PREFIX: prefix, KAFKA_PARTITIONS: '3', BATCH: '25' }),
    async read() {
      if (!consumer) {
        consumer = kafka.consumer({ groupId: `${prefix}probe` });
        await consumer.connect();
        await consumer.subscribe({ topics: allTopics(defaultTopicMap(prefix)), fromBeginning: true });
        await consumer.run({
          eachMessage: async ({ message }) => {
            const headers: Record<string, string> = {};
            for (const [k, v] of Object.entries(message.headers ?? {})) headers[k] = String(v);
            got.push({ key: message.key!.toString(), headers, value: JSON.parse(message.value!.toString()) });
          },
        });
      }
      return [...got];
    },
    async close() {
      await consumer?.disconnect();
      const admin = kafka.admin();
      await admin.connect();
      await admin.deleteTopics({ topics: allTopics(defaultTopicMap(prefix)) }).catch(() => undefined);
      await admin.disconnect();
    },
  };
}

// Kafka: the broker the jest globalSetup started (or the one KAFKA_BROKERS names); skipped, with the reason, without one
const kafkaBrokers = (process.env.KAFKA_BROKERS ?? '').split(',').filter(Boolean);
const targets: (() => Target)[] = [fileTarget];
if (kafkaBrokers.length) targets.push(kafkaTarget);
else describe.skip(`forwarder crash (kafka sink): ${process.env.KAFKA_SKIP_REASON ?? 'KAFKA_BROKERS not set'}`, () => it('SIGKILLed mid-stream', () => undefined));

describe.each(targets.map((t) => [t().name, t]))('forwarder crash (%s)', (_name, makeTarget) => {
  it('SIGKILLed mid-stream and restarted, it skips no event (at-least-once, in order per stream)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gr-fwd-crash-'));
    const target = (makeTarget as () => Target)();
    const store = new SqliteEventStore(join(dir, 'events.sqlite'));
    const streams = Array.from({ length: STREAMS }, () => `bot-${randomUUID()}`);
    let appended = 0;
    const append = async (count: number) => {
      for (let i = 0; i < count; i++, appended++) await store.append(streams[appended % STREAMS], [ev(appended)], 'any');
    };
    try {
      await append(500);
      const env = { DATA: dir, ...target.env(dir) };
      const first = await startChild(env);
      // keep appending while the forwarder catches up, and kill it mid-stream
      const writer = (async () => {
        while (appended < 1000) {
          await append(10);
          await new Promise((r) => setTimeout(r, 2));
        }
      })();
      await until('200 lines forwarded before the kill', async () => (await target.read()).length >= 200, 30_000);
      first.kill('SIGKILL');
      await exited(first);
      await writer;
      const atCrash = (await target.read()).length;
      expect(atCrash).toBeLessThan(appended); // it really was mid-stream

      await append(TOTAL - appended); // written while no forwarder runs
      const second = await startChild(env);
      const ids = new Set((await store.readAll()).map((e) => e.id));
      expect(ids.size).toBe(TOTAL);
      await until('every event forwarded after the restart', async () => {
        const seen = new Set((await target.read()).map((l) => l.headers['event-id']));
        return [...ids].every((id) => seen.has(id));
      }, 60_000);
      second.kill('SIGTERM');
      await exited(second);

      const lines = await target.read();
      const seen = new Set(lines.map((l) => l.headers['event-id']));
      // no event skipped
      expect([...ids].filter((id) => !seen.has(id))).toEqual([]);
      // nothing invented, and each line carries its event's own id
      for (const l of lines) {
        expect(ids.has(l.headers['event-id'])).toBe(true);
        expect(l.value.id).toBe(l.headers['event-id']);
      }
      // duplicates only from the batch in flight at the crash (at-least-once)
      const duplicates = lines.length - seen.size;
      expect(duplicates).toBeLessThanOrEqual(2 * 25);
      // in order per stream, counting first deliveries
      const firsts = new Map<string, number[]>();
      const once = new Set<string>();
      for (const l of lines) {
        if (once.has(l.value.id)) continue;
        once.add(l.value.id);
        firsts.set(l.key, [...(firsts.get(l.key) ?? []), l.value.revision]);
      }
      for (const revisions of firsts.values()) expect(revisions).toEqual([...revisions].sort((a, b) => a - b));
      // a consumer that de-duplicates by event id sees each event exactly once, every stream complete and in order
      const deduplicated: Line[] = [];
      const taken = new Set<string>();
      for (const l of lines) if (!taken.has(l.headers['event-id'])) taken.add(l.headers['event-id']) && deduplicated.push(l);
      expect(deduplicated).toHaveLength(TOTAL);
      const stored = await store.readAll();
      for (const stream of streams) {
        const want = stored.filter((e) => e.streamId === stream).map((e) => e.id);
        expect(deduplicated.filter((l) => l.key === stream).map((l) => l.value.id)).toEqual(want);
      }
      console.log(`forwarder crash (${target.name}): ${lines.length} lines for ${TOTAL} events (${duplicates} duplicates), ${atCrash} before the kill`);
    } finally {
      await store.close();
      await target.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
