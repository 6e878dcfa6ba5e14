/**
 * Issue 41, operator tooling: `npm run kafka:start` starts a broker that stopped or crashed again on its own
 * folder, ports and log, so its topics and events are kept (before, a restart after a crash deleted the log:
 * 81 % of the events never came back); `--fresh` starts an empty one; `kafka:stop` keeps the log unless
 * `--fresh`; `kafka:console` runs Kafka's console consumer (the kafka-tools jar is fetched with the broker).
 * Runs the real CLI (scripts/kafka/cli.js) on a home of its own (KAFKA_HOME) and free ports, with
 * a real broker; skips where Java or the jars are missing, as the Kafka suites do.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Kafka, logLevel } from 'kafkajs';

// eslint-disable-next-line @typescript-eslint/no-var-requires
const { brokerAvailability, freePort } = require('../scripts/kafka/broker');

const run = promisify(execFile);
const available = brokerAvailability() as { ok: boolean; reason?: string };

jest.setTimeout(240_000);

(available.ok ? describe : describe.skip)(`npm run kafka:start keeps the broker's log (${available.ok ? 'a broker of its own' : `skipped: ${available.reason}`})`, () => {
  const home = mkdtempSync(join(tmpdir(), 'gr-kafka-cli-'));
  let env: NodeJS.ProcessEnv;
  const cli = async (...args: string[]) => (await run(process.execPath, [join(__dirname, '..', 'scripts', 'kafka', 'cli.js'), ...args], { env, timeout: 180_000 })).stdout;
  const brokersOf = (out: string) => /^KAFKA_BROKERS=(.+)$/m.exec(out)![1].split(',');
  const pid = () => JSON.parse(readFileSync(join(home, 'broker.json'), 'utf8')).pid as number;

  /** The values of `topic` from its beginning, read until `expected` or 20 s. */
  async function values(brokers: string[], topic: string, expected: number): Promise<string[]> {
    const kafka = new Kafka({ brokers, clientId: 'kafka-cli-test', logLevel: logLevel.NOTHING });
    const admin = kafka.admin();
    await admin.connect();
    const topics = await admin.listTopics();
    await admin.disconnect();
    if (!topics.includes(topic)) return [];
    const consumer = kafka.consumer({ groupId: `read-${Date.now()}-${Math.random()}` });
    const seen: string[] = [];
    await consumer.connect();
    await consumer.subscribe({ topic, fromBeginning: true });
    await consumer.run({ eachMessage: async ({ message }) => void seen.push(String(message.value)) });
    for (let i = 0; i < 200 && seen.length < expected; i++) await new Promise((r) => setTimeout(r, 100));
    await consumer.disconnect();
    return seen;
  }

  beforeAll(async () => {
    // its own broker: not the one of this test run (KAFKA_BROKERS), which kafka:console would read first
    env = { ...process.env, KAFKA_BROKERS: '', KAFKA_HOME: home, KAFKA_PORT: String(await freePort()), KAFKA_CONTROLLER_PORT: String(await freePort()) };
  });
  afterAll(async () => {
    await cli('stop', '--fresh').catch(() => undefined);
    rmSync(home, { recursive: true, force: true });
  });

  it('a broker killed with kill -9 starts again with its events; a stop keeps them; --fresh starts empty', async () => {
    const brokers = brokersOf(await cli('start'));
    const kafka = new Kafka({ brokers, clientId: 'kafka-cli-test', logLevel: logLevel.NOTHING });
    const admin = kafka.admin();
    await admin.connect();
    await admin.createTopics({ topics: [{ topic: 'kept', numPartitions: 1 }], waitForLeaders: true });
    await admin.disconnect();
    const producer = kafka.producer();
    await producer.connect();
    await producer.send({ topic: 'kept', acks: -1, messages: Array.from({ length: 50 }, (_, i) => ({ value: `event-${i}` })) });
    await producer.disconnect();

    // the broker crashes
    process.kill(pid(), 'SIGKILL');
    const again = await cli('start');
    expect(again).toMatch(/started again on its log/);
    expect(brokersOf(again)).toEqual(brokers); // the same address: its clients find it again
    expect(await values(brokers, 'kept', 50)).toEqual(Array.from({ length: 50 }, (_, i) => `event-${i}`));
    // Kafka's own console consumer, fetched with the broker, reads them too (npm run kafka:console)
    const consoleOut = await cli('console', '--topic', 'kept', '--from-beginning', '--max-messages', '50', '--timeout-ms', '30000');
    expect(consoleOut.trim().split('\n')).toEqual(Array.from({ length: 50 }, (_, i) => `event-${i}`));

    // a clean stop keeps the log for the next start
    expect(await cli('stop')).toMatch(/its log is kept/);
    await cli('start');
    expect(await values(brokers, 'kept', 50)).toHaveLength(50);

    // --fresh: an empty broker
    await cli('stop');
    expect(await cli('start', '--fresh')).not.toMatch(/started again/);
    expect(await values(brokers, 'kept', 0)).toEqual([]);
  });
});
