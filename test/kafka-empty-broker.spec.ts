/*
 * Issue 41: a broker that comes back empty (its log lost, or a new cluster at the same address). Before, the
 * forwarder retried for ever ("This server does not host this topic-partition") and the runners never took
 * their bots back until the API and runners were restarted by hand. Now the forwarder creates its topics again
 * (the documented partitions) and goes on, and the runners never needed the broker (their bots are owned through
 * leases in the event store): a bot started before keeps running, one started after runs; within 60 s of the empty broker's return
 * the forwarder delivers the events appended since; health and /metrics say which history is missing, and
 * `npm run republish` (the built command) sends the whole log again, counted on the topics by event-id.
 * A broker of this suite's own (scripts/kafka/broker.js): stopped, its log deleted, started again empty on the
 * same ports.
 */
import { randomUUID } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { EVENT_STORE, EventStore } from '@gridrocket/event-store';
import { allTopics, createKafka, defaultTopicMap, type ForwarderDelivery } from '@gridrocket/streaming';
import { until } from '@gridrocket/shared/testing/until';
import { ownBrokerAvailability, probeEvent, useOwnBrokerApp } from './support/own-broker';
import { Client } from './support/http-client';

const availability = ownBrokerAvailability();

const ev = (n: number) => probeEvent('EmptyBrokerProbe', 'empty', n);

(availability.ok ? describe : describe.skip)(`a broker that comes back empty (own broker${availability.ok ? '' : `: skipped, ${availability.reason}`})`, () => {
  jest.setTimeout(360_000);
  const prefix = `empty-${randomUUID().slice(0, 8)}.`;
  const own = useOwnBrokerApp(prefix, { METRICS_PUBLIC: 'true' });

  /** The event ids on the topics now, read from the beginning by a fresh group. */
  async function idsOnKafka(expected: Set<string>, timeoutMs: number): Promise<Set<string>> {
    const kafka = createKafka({ brokers: own.broker.brokers }, { level: 'silent' });
    const topics = allTopics(defaultTopicMap(prefix));
    // the forwarder creates them (again) before it publishes
    await until('the topics on the broker', async () => {
      const admin = kafka.admin();
      await admin.connect();
      try {
        const there = await admin.listTopics();
        return topics.every((t) => there.includes(t));
      } finally {
        await admin.disconnect();
      }
    }, timeoutMs, 500);
    const consumer = kafka.consumer({ groupId: `check-${randomUUID()}` });
    const seen = new Set<string>();
    await consumer.connect();
    await consumer.subscribe({ topics, fromBeginning: true });
    await consumer.run({ eachMessage: async ({ message }) => void seen.add(String(message.headers?.['event-id'] ?? '')) });
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline && [...expected].some((id) => !seen.has(id))) await new Promise((r) => setTimeout(r, 250));
    await consumer.disconnect();
    return seen;
  }

  it('the forwarder delivers again within 60 s of the empty broker\'s return, says what is missing, and republish brings the topics to the full log', async () => {
    const { app, broker } = own;
    const events = app.app.get<EventStore>(EVENT_STORE);
    const before = Array.from({ length: 20 }, (_, i) => ev(i));
    for (const e of before) await events.append(`probe-${randomUUID()}`, [e], 'any');
    const delivered = await idsOnKafka(new Set(before.map((e) => e.id)), 60_000);
    expect(before.filter((e) => !delivered.has(e.id))).toEqual([]);
    const health = async () => (await fetch(`${app.url}/api/health`)).json() as Promise<{ forwarder: ForwarderDelivery | null }>;
    expect((await health()).forwarder?.missingHistory).toBeNull();

    // a bot trading before: its runner (the API's, leases in the event store) owns it, whatever the broker does
    const c = new Client(app.url);
    const { uid } = await c.signUp(`empty-broker-${randomUUID().slice(0, 6)}@example.com`);
    await c.addKey(uid, 'Binance');
    const startBot = async () => {
      const created = await c.post('/api/bots', { userId: uid, exchange: 'Binance', botType: 'Spot', symbol: 'BTCUSDT', numOfOrders: 2, orderSize: '0.001', interval: 500, entryPrice: 60000, takeProfit: 1, status: false, pid: -1 });
      expect(created.status).toBe(201);
      expect((await c.get(`/api/startBot?id=${created.body.id}&userId=${uid}`)).status).toBe(202);
      await until('the bot run by its runner', async () => ((await c.get(`/api/bots/${created.body.id}/history`)).body as Array<{ type: string }>).some((e) => e.type === 'OrderPlaced'), 60_000, 500);
      return created.body.id as string;
    };
    await startBot();

    // the broker comes back empty: its log is gone
    await broker.stop();
    rmSync(join(broker.dir, 'data'), { recursive: true, force: true });
    broker.formatted = false;
    await broker.start();
    const back = Date.now();

    // events appended after it are delivered to topics created again, with the documented partitions
    const after = Array.from({ length: 20 }, (_, i) => ev(100 + i));
    for (const e of after) await events.append(`probe-${randomUUID()}`, [e], 'any');
    const again = await idsOnKafka(new Set(after.map((e) => e.id)), 60_000);
    expect(after.filter((e) => !again.has(e.id))).toEqual([]);
    console.log(`empty broker: delivering again ${((Date.now() - back) / 1000).toFixed(1)} s after its return`);
    // every bot owned: one started now is run, and the runners' view says both trade
    await startBot();
    const runners = await until('both bots running, as the API\'s health says', async () => {
      const r = ((await (await fetch(`${app.url}/api/health`)).json()) as { runners: { runningBots: number } | null }).runners;
      return r?.runningBots === 2 ? r : null;
    }, 60_000, 500);
    expect(runners).toMatchObject({ ownership: 'leases', trading: true, unowned: [], pausedBots: { ownership: 0 } });
    expect(Date.now() - back).toBeLessThan(120_000); // the 60 s of the issue, with room for a loaded machine
    const kafka = createKafka({ brokers: broker.brokers }, { level: 'silent' });
    const admin = kafka.admin();
    await admin.connect();
    const meta = await admin.fetchTopicMetadata({ topics: allTopics(defaultTopicMap(prefix)) });
    await admin.disconnect();
    expect(meta.topics.map((t) => t.partitions.length)).toEqual(meta.topics.map(() => 3)); // the documented partitions
    // the events sent before are not there; health and /metrics say so, with the command that sends them again
    expect(before.filter((e) => again.has(e.id))).toEqual([]);
    const gap = (await health()).forwarder?.missingHistory;
    expect(gap).toMatchObject({ republish: expect.stringMatching(/^npm run republish -- --to \d+$/) });
    expect(gap!.topics.length).toBeGreaterThan(0);
    const metrics = await (await fetch(`${app.url}/metrics`)).text();
    expect(metrics).toMatch(/gridrocket_forwarder_topics_recreated_total\{topic="[^"]+"\} 1/);

    // the operator's republish (the built command, beside the running server): the whole log on Kafka again
    const log = await events.readAll();
    const run = spawnSync(process.execPath, [join(__dirname, '../dist/apps/api/src/cli/republish.js')], {
      env: { ...process.env, DATA_DIR: app.dataDir, KAFKA_BROKERS: broker.brokers.join(','), KAFKA_TOPIC_PREFIX: prefix, LOG_LEVEL: 'warn' },
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(run.stderr).toMatch(/republishing \[/); // the progress bar
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(new RegExp(`^Republished ${log.length} events \\(positions 1 to ${log[log.length - 1].position}\\)`));
    const full = await idsOnKafka(new Set(log.map((e) => e.id)), 60_000);
    expect(log.filter((e) => !full.has(e.id)).map((e) => e.type)).toEqual([]); // every event of the log, by event-id
  });
});
