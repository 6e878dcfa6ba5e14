import { Kafka, logLevel, type LogEntry, type RetryOptions } from 'kafkajs';
import type { DestinationStream, Logger } from 'pino';
import { createLogger } from './pino-logger';

export interface KafkaSettings {
  brokers: string[];
  clientId?: string;
  /** Partitions of the topics the forwarder creates. */
  partitions?: number;
  /** -1: the broker's default. */
  replicationFactor?: number;
  /** Prepended to every topic name (tests, several deployments on one cluster). */
  topicPrefix?: string;
}

export function parseBrokers(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((b) => b.trim())
    .filter(Boolean);
}

export function kafkaSettingsFromEnv(env: NodeJS.ProcessEnv = process.env): KafkaSettings | null {
  const brokers = parseBrokers(env.KAFKA_BROKERS);
  if (!brokers.length) return null;
  return {
    brokers,
    clientId: env.KAFKA_CLIENT_ID ?? 'gridrocket',
    partitions: env.KAFKA_PARTITIONS ? Number(env.KAFKA_PARTITIONS) : 6,
    replicationFactor: env.KAFKA_REPLICATION_FACTOR ? Number(env.KAFKA_REPLICATION_FACTOR) : -1,
    topicPrefix: env.KAFKA_TOPIC_PREFIX ?? '',
  };
}

/** kafkajs's client-wide retry (metadata, connections) for everything but the forwarder's sink (kafka.sink.ts SINK_CLIENT). */
export const CLIENT_RETRY: RetryOptions = { retries: 8, initialRetryTime: 200 };

/** How a client waits on the broker: kafkajs's own defaults unless a caller (the sink) needs shorter. */
export interface KafkaTimeouts {
  retry?: RetryOptions;
  /** ms a request waits for its answer (kafkajs default 30 s). */
  requestTimeout?: number;
}

export function createKafka(settings: KafkaSettings, log: { level?: string; destination?: DestinationStream } = {}, timeouts: KafkaTimeouts = {}): Kafka {
  const logger = createLogger({ level: log.level ?? process.env.LOG_LEVEL, destination: log.destination }).child({ context: 'kafkajs' });
  return new Kafka({
    clientId: settings.clientId ?? 'gridrocket',
    brokers: settings.brokers,
    logLevel: kafkaLogLevelOf(logger.level),
    logCreator: kafkaLogCreator(logger),
    retry: timeouts.retry ?? CLIENT_RETRY,
    ...(timeouts.requestTimeout ? { requestTimeout: timeouts.requestTimeout } : {}),
  });
}

/**
 * kafkajs's level for the app's (LOG_LEVEL): it drops below it before formatting anything. kafkajs's own INFO
 * lines (a consumer joined its group, a producer started) are detail for the app: written at `debug`.
 */
export function kafkaLogLevelOf(level: string): logLevel {
  if (level === 'silent') return logLevel.NOTHING;
  if (level === 'fatal' || level === 'error') return logLevel.ERROR;
  if (level === 'warn' || level === 'info') return logLevel.WARN;
  return logLevel.DEBUG;
}

/** A line kafkajs writes while it reconnects to a broker that is away: the outage, not a fault of ours. */
const RECONNECTING = /KafkaJSConnectionError|KafkaJSNumberOfRetriesExceeded|KafkaJSRequestTimeoutError|ECONNREFUSED|ECONNRESET|ETIMEDOUT|EHOSTUNREACH|Connection error|Connection timeout|Failed to connect|does not host this topic-partition|not the leader|Closed connection|coordinator is not available|coordinator is loading|not the correct coordinator|no leader for this topic-partition|leader is not available/i;

/** The same line kafkajs repeats is written once per this period, with how many times it came meanwhile. */
export const KAFKA_LOG_REPEAT_MS = 30_000;

/**
 * kafkajs's log lines as the app's JSON lines (issue 41: kafkajs wrote its own ERROR lines into the API log,
 * 1,843 in one outage): each at the app's level, with its namespace and fields; what it logs while a broker
 * is away (connection refused, retries exhausted, a topic-partition not hosted yet) is a warning, not an
 * error, since the outage is reported by health and metrics (gridrocket_forwarder_*) and the forwarder retries
 * (also the group coordinator or a leader not available for a moment, which kafkajs retries); its INFO is debug;
 * the same line again within KAFKA_LOG_REPEAT_MS is counted, not written, and the next one says how many.
 */
export function kafkaLogCreator(logger: Logger, now: () => number = Date.now) {
  const seen = new Map<string, { at: number; repeated: number }>();
  return (_level: logLevel) =>
    ({ namespace, level, log }: LogEntry) => {
      const { message, timestamp: _t, logger: _l, ...fields } = log as LogEntry['log'] & { timestamp?: string; logger?: string };
      const text = `${namespace ? `${namespace}: ` : ''}${message}`;
      const reconnecting = RECONNECTING.test(`${message} ${String((fields as { error?: unknown }).error ?? '')}`);
      const pinoLevel = level === logLevel.ERROR ? (reconnecting ? 'warn' : 'error') : level === logLevel.WARN ? 'warn' : 'debug';
      const key = `${pinoLevel}\u0001${text}\u0001${String((fields as { error?: unknown }).error ?? '')}`;
      const t = now();
      const last = seen.get(key);
      if (last && t - last.at < KAFKA_LOG_REPEAT_MS) {
        last.repeated++;
        return;
      }
      seen.set(key, { at: t, repeated: 0 });
      if (seen.size > 1000) seen.delete(seen.keys().next().value as string);
      logger[pinoLevel]({ ...fields, kafkajs: namespace, ...(last?.repeated ? { repeated: last.repeated } : {}) }, text);
    };
}

/**
 * Creates the topics that do not exist yet (tolerates another process creating them meanwhile) and
 * waits until the broker serves their metadata. A topic just created can answer
 * UNKNOWN_TOPIC_OR_PARTITION for a moment (KRaft propagates it to the broker's metadata cache
 * asynchronously; kafkajs marks the error `retriable`, but `createTopics({waitForLeaders})` retries only
 * LEADER_NOT_AVAILABLE): such errors are retried with back-off for up to `patienceMs`, not thrown at
 * start-up (a CI run under load lost a server start to one).
 */
export async function ensureTopics(kafka: Kafka, topics: string[], partitions = 6, replicationFactor = -1, patienceMs = 30_000): Promise<string[]> {
  const admin = kafka.admin();
  await admin.connect();
  const deadline = Date.now() + patienceMs;
  let created: string[] | null = null;
  try {
    for (let attempt = 1; ; attempt++) {
      try {
        const existing = new Set(await admin.listTopics());
        const missing = topics.filter((t) => !existing.has(t));
        created ??= missing;
        if (missing.length) {
          await admin
            .createTopics({ waitForLeaders: true, topics: missing.map((topic) => ({ topic, numPartitions: partitions, replicationFactor })) })
            .catch((err) => {
              if ((err as { type?: string }).type !== 'TOPIC_ALREADY_EXISTS') throw err; // another process made it
            });
        }
        await admin.fetchTopicMetadata({ topics }); // every topic known, with its partitions' leaders
        return created;
      } catch (err) {
        const retriable = (err as { retriable?: boolean }).retriable === true || /does not host this topic-partition|leader/i.test((err as Error).message);
        if (!retriable || Date.now() > deadline) throw err;
        await new Promise((r) => setTimeout(r, Math.min(2_000, 100 * 2 ** attempt)));
      }
    }
  } finally {
    await admin.disconnect();
  }
}
