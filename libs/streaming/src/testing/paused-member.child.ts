/*
 * One member of a runners' ownership group in its own process, for ownership-pause.spec.ts. On
 * "arm" (a line on stdin) it stops itself with SIGSTOP right after its next Heartbeat request is
 * written to the socket: the coordinator receives it and answers at once, the answer waits in the
 * OS's buffer, and the event loop stands still until the test sends SIGCONT — a paused process
 * (GC, a blocked loop, SIGSTOP) at the worst moment. After resuming it samples owns() on every
 * heartbeat, every group join and every 2 ms, and reports (a JSON line on stdout) whether it ever
 * claimed a bot before the group assigned it partitions again.
 *
 * Env: KAFKA_BROKERS, TOPIC, GROUP, PARTITIONS, SESSION_MS, HEARTBEAT_MS, REPORT_AFTER_MS.
 * Run: node -r libs/streaming/src/testing/ts-register.js libs/streaming/src/testing/paused-member.child.ts
 */
import * as net from 'node:net';
import { writeSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { Kafka, logLevel, type Consumer, type ISocketFactory } from 'kafkajs';
import { KafkaOwnership, kafkaPartitionOf } from '../kafka.ownership';

/** Kafka's api key of Heartbeat: the int16 after a request's int32 size. */
const HEARTBEAT_API_KEY = 12;
const env = process.env;
const partitions = Number(env.PARTITIONS ?? 6);
const session = Number(env.SESSION_MS ?? 6000);
const heartbeat = Number(env.HEARTBEAT_MS ?? 500);
const reportAfter = Number(env.REPORT_AFTER_MS ?? 4000);

const say = (msg: Record<string, unknown>) => writeSync(1, `${JSON.stringify({ at: Date.now(), ...msg })}\n`);

let armed = false;
let resumedAt: number | null = null;
let reassigned = false;
let heartbeatsAfterResume = 0;
let samples = 0;
const claims: { where: string; owns: number; msAfterResume: number }[] = [];
let ownsAtResume = -1;
let ownership: KafkaOwnership;
/** A bot id in each partition: owns() of these says what this member claims. */
const probes = Array.from({ length: partitions }, (_, p) => {
  for (;;) {
    const id = randomUUID();
    if (kafkaPartitionOf(id, partitions) === p) return id;
  }
});
const owning = () => probes.filter((id) => ownership.owns(id)).length;

function sample(where: string): void {
  if (resumedAt === null || reassigned) return;
  samples++;
  const owns = owning();
  if (owns > 0) claims.push({ where, owns, msAfterResume: Math.round(performance.now() - resumedAt) });
}

function resumed(): void {
  resumedAt = performance.now();
  ownsAtResume = owning();
  say({ kind: 'resumed', ownsAtResume });
  const timer = setInterval(() => sample('timer'), 2);
  setTimeout(() => {
    clearInterval(timer);
    say({ kind: 'report', ownsAtResume, heartbeatsAfterResume, reassigned, samples, claims: claims.slice(0, 5), claimCount: claims.length });
  }, reportAfter);
}

/** kafkajs's own socket factory (network/socketFactory.js), with the pause after a Heartbeat's write. */
const socketFactory: ISocketFactory = ({ host, port, onConnect }) => {
  const socket = net.connect({ host, port }, onConnect);
  socket.setKeepAlive(true, 60_000);
  const write = socket.write.bind(socket) as (...args: unknown[]) => boolean;
  socket.write = ((...args: unknown[]) => {
    const ok = write(...args);
    const chunk = args[0];
    if (armed && Buffer.isBuffer(chunk) && chunk.length >= 6 && chunk.readInt16BE(4) === HEARTBEAT_API_KEY) {
      armed = false;
      // the request is with the kernel (libuv writes at once to a connected socket with an empty queue)
      say({ kind: 'pausing', flushed: socket.writableLength === 0, owns: owning() });
      process.kill(process.pid, 'SIGSTOP');
      resumed(); // SIGCONT: the loop runs on from here; the heartbeat's answer is read next
    }
    return ok;
  }) as typeof socket.write;
  return socket;
};

async function main() {
  const kafka = new Kafka({ clientId: 'paused-member', brokers: (env.KAFKA_BROKERS ?? '').split(','), logLevel: logLevel.NOTHING, socketFactory });
  ownership = new KafkaOwnership({
    kafka,
    topic: env.TOPIC!,
    groupId: env.GROUP!,
    partitions,
    consumerConfig: { sessionTimeout: session, rebalanceTimeout: session, heartbeatInterval: heartbeat },
    onError: (e) => say({ kind: 'error', message: e.message }),
    createConsumer: (config) => {
      const consumer: Consumer = kafka.consumer(config);
      // registered before the adapter's own listeners: a microtask samples after they have run
      consumer.on(consumer.events.HEARTBEAT, () => {
        if (resumedAt !== null) heartbeatsAfterResume++;
        queueMicrotask(() => sample('heartbeat'));
      });
      consumer.on(consumer.events.GROUP_JOIN, (e) => {
        const assigned = ((e.payload.memberAssignment ?? {}) as Record<string, number[]>)[env.TOPIC!] ?? [];
        if (resumedAt !== null && !reassigned) {
          sample('before-join');
          if (assigned.length > 0) reassigned = true;
          say({ kind: 'joined', assigned });
        }
      });
      consumer.on(consumer.events.REBALANCING, () => queueMicrotask(() => sample('rebalancing')));
      return consumer;
    },
  });
  await ownership.start({ onAssigned: async () => undefined, onRevoked: async () => undefined });
  let last = -1;
  setInterval(() => {
    const n = ownership.owned().length;
    if (n !== last && resumedAt === null) say({ kind: 'owned', owned: ownership.owned(), owns: owning() });
    last = n;
  }, 50);
  say({ kind: 'ready' });
  process.stdin.setEncoding('utf8');
  process.stdin.on('data', (data: string) => {
    for (const line of data.split('\n')) {
      if (line === 'arm') armed = true;
      if (line === 'stop') void ownership.stop().finally(() => process.exit(0));
    }
  });
}

main().catch((err) => {
  say({ kind: 'error', message: (err as Error).message });
  process.exit(1);
});
