/**
 * The suites that run the app on a Kafka broker of their own (scripts/kafka/broker.js), to kill it, stop it
 * or empty it (test/forwarder-outage.spec.ts, test/kafka-empty-broker.spec.ts): whether a broker can run here,
 * the probe events they append, and the app on the broker with its own topic prefix and three partitions,
 * set up before the suite and put away after it (the environment as it was).
 */
import { randomUUID } from 'node:crypto';
import type { NewEvent } from '@gridrocket/event-store';
import { startTestApp } from './test-app';
import type { TestApp } from './trader-app';

/** A broker of scripts/kafka/broker.js. */
export interface OwnBroker {
  brokers: string[];
  dir: string;
  formatted: boolean;
  start(): Promise<unknown>;
  stop(): Promise<void>;
  kill(signal: string): void;
  destroy(): Promise<void>;
}

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { KafkaBroker, brokerAvailability } = require('../../scripts/kafka/broker') as {
  KafkaBroker: { start(): Promise<OwnBroker> };
  brokerAvailability(): { ok: boolean; reason?: string };
};

/** Whether a broker can run here (not with KAFKA_TESTS=off), and why not. */
export const ownBrokerAvailability = (): { ok: boolean; reason?: string } => (process.env.KAFKA_TESTS === 'off' ? { ok: false, reason: 'KAFKA_TESTS=off' } : brokerAvailability());

/** The probe event number `n` of `type`, its correlation id `${tag}-${n}`. */
export function probeEvent(type: string, tag: string, n: number): NewEvent {
  return {
    id: randomUUID(),
    type,
    data: { n },
    metadata: { userId: 'u', correlationId: `${tag}-${n}`, causationId: null, occurredAt: new Date().toISOString(), schemaVersion: 1 },
  };
}

/**
 * Before the suite: the broker started, KAFKA_TOPIC_PREFIX=`prefix` and KAFKA_PARTITIONS=3, and the app on it
 * with `env`. After it: `beforeClose`, the app closed, the broker destroyed, both variables as they were.
 */
export function useOwnBrokerApp(prefix: string, env: Record<string, string>, { beforeClose }: { beforeClose?: () => Promise<void> } = {}): { readonly broker: OwnBroker; readonly app: TestApp } {
  let broker: OwnBroker;
  let app: TestApp;
  const saved = { prefix: process.env.KAFKA_TOPIC_PREFIX, partitions: process.env.KAFKA_PARTITIONS };

  beforeAll(async () => {
    broker = await KafkaBroker.start();
    process.env.KAFKA_TOPIC_PREFIX = prefix;
    process.env.KAFKA_PARTITIONS = '3';
    app = await startTestApp({ KAFKA_BROKERS: broker.brokers.join(','), ...env });
  }, 180_000);

  afterAll(async () => {
    await beforeClose?.();
    await app?.close();
    await broker?.destroy();
    if (saved.prefix === undefined) delete process.env.KAFKA_TOPIC_PREFIX;
    else process.env.KAFKA_TOPIC_PREFIX = saved.prefix;
    if (saved.partitions === undefined) delete process.env.KAFKA_PARTITIONS;
    else process.env.KAFKA_PARTITIONS = saved.partitions;
  });

  return {
    get broker() {
      return broker;
    },
    get app() {
      return app;
    },
  };
}
