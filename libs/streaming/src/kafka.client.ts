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

/** Creates the topics that do not exist yet (tolerates another process creating them meanwhile). */
export async function ensureTopics(kafka: Kafka, topics: string[], partitions = 6, replicationFactor = -1): Promise<string[]> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    const existing = new Set(await admin.listTopics());
    const missing = topics.filter((t) => !existing.has(t));
    if (missing.length) {
      try {
        await admin.createTopics({
          waitForLeaders: true,
          topics: missing.map((topic) => ({ topic, numPartitions: partitions, replicationFactor })),
        });
      } catch (err) {
        const now = new Set(await admin.listTopics());
        if (missing.some((t) => !now.has(t))) throw err;
      }
    }
    return missing;
  } finally {
    await admin.disconnect();
  }
}
