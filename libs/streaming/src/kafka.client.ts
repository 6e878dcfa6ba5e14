import { Kafka, logLevel } from 'kafkajs';

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

export function createKafka(settings: KafkaSettings): Kafka {
  return new Kafka({
    clientId: settings.clientId ?? 'gridrocket',
    brokers: settings.brokers,
    logLevel: logLevel.WARN,
    retry: { retries: 8, initialRetryTime: 200 },
  });
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
