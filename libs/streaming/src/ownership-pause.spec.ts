/**
 * On a real broker: a runner's ownership member is paused (SIGSTOP) right after it sent a heartbeat,
 * past its session timeout; meanwhile the other member takes all partitions. When it resumes, the
 * heartbeat's answer (sent by the coordinator before the session expired, buffered by the OS) is
 * read first. The lease runs from when that heartbeat was sent, so the resumed member claims no bot
 * at once, and none until the group assigns it partitions again (kafka.ownership.ts). Renewed from
 * when the answer was handled, it would claim its old partitions for a heartbeat interval or more,
 * while the other member runs them.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { Kafka, logLevel } from 'kafkajs';
import { KafkaOwnership } from './kafka.ownership';

const brokers = (process.env.KAFKA_BROKERS ?? '').split(',').filter(Boolean);
const SESSION_MS = 6_000;
const HEARTBEAT_MS = 500;
const PARTITIONS = 6;

type Line = { kind: string; at: number; [k: string]: unknown };

/** The member in its own process, and the JSON lines it says. */
function startChild(topic: string, groupId: string) {
  const root = resolve(__dirname, '../../..');
  const proc = spawn(process.execPath, ['-r', join(__dirname, 'testing/ts-register.js'), join(__dirname, 'testing/paused-member.child.ts')], {
    cwd: root,
    env: { ...process.env, KAFKA_BROKERS: brokers.join(','), TOPIC: topic, GROUP: groupId, PARTITIONS: String(PARTITIONS), SESSION_MS: String(SESSION_MS), HEARTBEAT_MS: String(HEARTBEAT_MS), REPORT_AFTER_MS: '4000' },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines: Line[] = [];
  const waiters: { test: (l: Line) => boolean; done: (l: Line) => void }[] = [];
  createInterface({ input: proc.stdout! }).on('line', (text) => {
    let line: Line;
    try {
      line = JSON.parse(text) as Line;
    } catch {
      return;
    }
    lines.push(line);
    for (const w of waiters.splice(0)) (w.test(line) ? w.done(line) : waiters.push(w));
  });
  const next = (test: (l: Line) => boolean, ms: number, what: string) =>
    new Promise<Line>((res, rej) => {
      const found = lines.find(test);
      if (found) return res(found);
      const timer = setTimeout(() => rej(new Error(`the child did not say: ${what} (it said ${JSON.stringify(lines.slice(-5))})`)), ms);
      waiters.push({ test, done: (l) => (clearTimeout(timer), res(l)) });
    });
  return { proc, lines, next, send: (line: string) => proc.stdin!.write(`${line}\n`) };
}

const wait = async (ok: () => boolean, ms: number) => {
  for (const end = Date.now() + ms; !ok() && Date.now() < end; ) await new Promise((r) => setTimeout(r, 20));
  return ok();
};

(brokers.length ? describe : describe.skip)(`Kafka ownership of a paused member (${brokers.length ? brokers.join(',') : `skipped: ${process.env.KAFKA_SKIP_REASON ?? 'KAFKA_BROKERS not set'}`})`, () => {
  jest.setTimeout(90_000);

  it('a member paused past its session after sending a heartbeat claims nothing on resume, until it is assigned again', async () => {
    const topic = `test-${randomUUID().slice(0, 8)}.bot-ownership`;
    const groupId = `${topic}.group`;
    const kafka = new Kafka({ clientId: 'ownership-pause-spec', brokers, logLevel: logLevel.NOTHING }); // B's rebalances are expected
    const b = new KafkaOwnership({ kafka, topic, groupId, partitions: PARTITIONS, consumerConfig: { sessionTimeout: SESSION_MS, rebalanceTimeout: SESSION_MS, heartbeatInterval: HEARTBEAT_MS } });
    let child: ReturnType<typeof startChild> | null = null;
    try {
      await b.start({ onAssigned: async () => undefined, onRevoked: async () => undefined });
      expect(await wait(() => b.owned().length === PARTITIONS, 30_000)).toBe(true);
      const a = startChild(topic, groupId);
      child = a;
      await a.next((l) => l.kind === 'ready', 30_000, 'ready');
      // the group settles with both members: A owns (and claims) a share
      await a.next((l) => l.kind === 'owned' && (l.owns as number) > 0, 30_000, 'it owns partitions');
      expect(await wait(() => b.owned().length > 0 && b.owned().length < PARTITIONS, 30_000)).toBe(true);
      await new Promise((r) => setTimeout(r, 2 * HEARTBEAT_MS)); // a stable generation: heartbeats answered without error

      a.send('arm');
      const pausing = await a.next((l) => l.kind === 'pausing', 10_000, 'pausing');
      expect(pausing.flushed).toBe(true); // the heartbeat left before the pause: its answer is buffered
      expect(pausing.owns).toBeGreaterThan(0);
      // A is stopped; its session expires and B is given every partition
      expect(await wait(() => b.owned().length === PARTITIONS, 30_000)).toBe(true);
      a.proc.kill('SIGCONT');
      await a.next((l) => l.kind === 'resumed', 10_000, 'resumed');
      const report = await a.next((l) => l.kind === 'report', 20_000, 'report');
      // the buffered answer was read after the resume (the case under test), and it renewed nothing
      expect(report.heartbeatsAfterResume).toBeGreaterThanOrEqual(1);
      expect(report.ownsAtResume).toBe(0);
      expect({ claims: report.claims, claimCount: report.claimCount }).toEqual({ claims: [], claimCount: 0 });
      expect(report.samples).toBeGreaterThan(100);
    } finally {
      if (child) {
        const exited = new Promise((r) => child!.proc.once('exit', r));
        child.proc.kill('SIGCONT');
        child.send('stop');
        const timer = setTimeout(() => child!.proc.kill('SIGKILL'), 10_000);
        await exited;
        clearTimeout(timer);
      }
      await b.stop();
      const admin = kafka.admin();
      await admin.connect();
      await admin.deleteTopics({ topics: [topic] }).catch(() => undefined);
      await admin.disconnect();
    }
  });
});
