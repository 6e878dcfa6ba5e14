/**
 * `npm run tail` against the real Kafka broker (issue 27): the built server forwards its events to
 * Kafka, the tail CLI (the built dist/apps/api/src/cli/tail.js that `npm run tail` runs) consumes
 * them, and an operator sees the event of a command on the terminal within a second of sending it.
 * Runs on the broker of `npm test` (KAFKA_BROKERS, or the one test/support/kafka-global-setup.js
 * started); skips with the reason where no broker can run.
 */
import { ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { until } from '@gridrocket/shared/testing/until';
import { Client } from './support/http-client';
import { spawnServer, stop } from './support/server-process';

const brokers = (process.env.KAFKA_BROKERS ?? '').split(',').filter(Boolean);
const TAIL = join(__dirname, '../dist/apps/api/src/cli/tail.js');

(brokers.length ? describe : describe.skip)(
  `npm run tail from Kafka (${brokers.length ? brokers.join(',') : `skipped: ${process.env.KAFKA_SKIP_REASON ?? 'KAFKA_BROKERS not set'}`})`,
  () => {
    jest.setTimeout(120_000);
    const prefix = `tail-${randomUUID().slice(0, 8)}.`;
    const env = { KAFKA_BROKERS: brokers.join(','), KAFKA_TOPIC_PREFIX: prefix, KAFKA_PARTITIONS: '3', RUNNER_GROUP: `${prefix}runners` };
    let dir: string;
    let server: ChildProcess;
    let url: string;
    let tail: ChildProcess;
    const lines: { at: number; line: string }[] = [];
    let stderr = '';

    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'gr-tail-kafka-'));
      ({ proc: server, url } = await spawnServer(dir, env, { startTimeoutMs: 60_000 }));
      tail = spawn(process.execPath, [TAIL, '--json'], { env: { ...process.env, ...env, DATA_DIR: dir }, stdio: ['ignore', 'pipe', 'pipe'] });
      let buffered = '';
      tail.stdout!.on('data', (chunk: Buffer) => {
        buffered += chunk.toString();
        let i: number;
        while ((i = buffered.indexOf('\n')) >= 0) {
          lines.push({ at: Date.now(), line: buffered.slice(0, i) });
          buffered = buffered.slice(i + 1);
        }
      });
      tail.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
      await until('the tail to say it reads from Kafka', () => /tailing kafka /.test(stderr), 30_000);
    });
    afterAll(async () => {
      if (tail) await stop(tail);
      if (server) await stop(server);
      rmSync(dir, { recursive: true, force: true });
    });

    it('shows the event of a command within a second of the command, read from the broker', async () => {
      // The tail starts at the end of the topics: its group must have its partitions before it sees
      // anything. Register until the first event shows up (at most 30 s), then measure.
      let n = 0;
      const register = async () => {
        const email = `tail-${++n}-${randomUUID().slice(0, 6)}@example.com`;
        const sent = Date.now();
        const user = await new Client(url).signUp(email);
        return { uid: user.uid, sent };
      };
      // the user's own stream: its registration mail (a mail-delivery stream naming the same user) travels on
      // another topic and may come first (a CI run matched it so)
      const streamOf = (line: string): unknown => {
        try {
          return (JSON.parse(line) as { streamId?: unknown }).streamId;
        } catch {
          return undefined;
        }
      };
      const seen = (uid: string) => lines.find((l) => streamOf(l.line) === `user-${uid}`);
      await until(
        'a first registration on the tail',
        async () => {
          const { uid } = await register();
          return until(`user ${uid} on the tail`, () => seen(uid), 3_000).catch(() => false);
        },
        30_000,
        0,
      );
      const latencies: number[] = [];
      for (let i = 0; i < 5; i++) {
        const { uid, sent } = await register();
        const line = await until(`user ${uid} on the tail`, () => seen(uid), 10_000);
        const value = JSON.parse(line.line) as { streamId: string; type: string };
        expect(value).toMatchObject({ streamId: `user-${uid}`, type: 'UserRegistered' });
        latencies.push(line.at - sent);
      }
      // eslint-disable-next-line no-console
      console.log(`tail from Kafka: command -> line on the terminal ${latencies.join(', ')} ms`);
      expect(Math.max(...latencies)).toBeLessThan(1_000);
      // the line came from Kafka, not from the embedded store: the tail said so and the topic holds it
      expect(stderr).toContain(`tailing kafka ${brokers.join(',')}`);
    });
  },
);
