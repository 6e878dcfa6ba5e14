/**
 * ensureTopics at start-up: a topic just created can answer UNKNOWN_TOPIC_OR_PARTITION for a moment
 * (a CI run lost a server start to it); that is retried until the broker serves the topic, while an
 * error that is not retriable is thrown at once. The admin below throws kafkajs's own errors.
 */
import type { Kafka, KafkaJSProtocolError } from 'kafkajs';
import { ensureTopics } from './kafka.client';
import { stubKafkaAdmin } from './testing/stub-kafka-admin';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { createErrorFromCode } = require('kafkajs/src/protocol/error') as { createErrorFromCode(code: number): KafkaJSProtocolError };

function adminThat(metadataFailures: number, code = 3) {
  const topics = new Set<string>();
  let asked = 0;
  const kafka = {
    admin: stubKafkaAdmin(topics, () => {
      if (++asked <= metadataFailures) throw createErrorFromCode(code);
      return { topics: [] };
    }),
  } as unknown as Kafka;
  return { kafka, asked: () => asked };
}

describe('ensureTopics', () => {
  it('retries a just-created topic\'s UNKNOWN_TOPIC_OR_PARTITION until the broker serves it', async () => {
    const { kafka, asked } = adminThat(2);
    await expect(ensureTopics(kafka, ['gridrocket.bots'], 6, 1, 10_000)).resolves.toEqual(['gridrocket.bots']);
    expect(asked()).toBe(3);
  });

  it('throws an error that is not retriable at once (TOPIC_AUTHORIZATION_FAILED)', async () => {
    const { kafka, asked } = adminThat(5, 29);
    await expect(ensureTopics(kafka, ['gridrocket.bots'], 6, 1, 10_000)).rejects.toMatchObject({ type: 'TOPIC_AUTHORIZATION_FAILED' });
    expect(asked()).toBe(1);
  });
});
