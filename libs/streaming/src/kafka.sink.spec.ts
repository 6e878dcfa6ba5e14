import type { Consumer } from 'kafkajs';
import { randomUUID } from 'node:crypto';
import { forwarderContract, ReceivedMessage } from './event-sink.contract';
import { createKafka, parseBrokers } from './kafka.client';
import { KafkaSink } from './kafka.sink';
import { allTopics, defaultTopicMap, StreamValue } from './stream-message';

// The forwarder contract against a real Kafka whenever KAFKA_BROKERS is set
// (e.g. localhost:9092). Each run uses topics of its own (a random prefix).
// Without a broker (the development machine, CI) the suite is skipped.
const brokers = parseBrokers(process.env.KAFKA_BROKERS);
(brokers.length ? describe : describe.skip)(`Kafka sink (${brokers.length ? brokers.join(',') : `skipped: ${process.env.KAFKA_SKIP_REASON ?? 'KAFKA_BROKERS not set'}`})`, () => {
  jest.setTimeout(60_000);
  forwarderContract('kafka', async () => {
    const prefix = `test-${randomUUID().slice(0, 8)}.`;
    const topics = defaultTopicMap(prefix);
    const settings = { brokers, clientId: 'gridrocket-test', partitions: 3, topicPrefix: prefix };
    const kafka = createKafka(settings);
    const sinks: KafkaSink[] = [];
    const got: ReceivedMessage[] = [];
    let consumer: Consumer | null = null;
    const startConsumer = async () => {
      if (consumer) return;
      consumer = kafka.consumer({ groupId: `${prefix}probe`, allowAutoTopicCreation: false });
      await consumer.connect();
      await consumer.subscribe({ topics: allTopics(topics), fromBeginning: true });
      await consumer.run({
        eachMessage: async ({ topic, message }) => {
          const headers: Record<string, string> = {};
          for (const [k, v] of Object.entries(message.headers ?? {})) headers[k] = String(v);
          got.push({ topic, key: message.key!.toString(), headers, value: JSON.parse(message.value!.toString()) as StreamValue });
        },
      });
    };
    return {
      topics,
      newSink() {
        const s = new KafkaSink(settings, kafka);
        sinks.push(s);
        return s;
      },
      async received() {
        await startConsumer();
        return [...got]; // arrival order: in order per stream (one key, one partition), not across topics
      },
      async existingTopics() {
        const admin = kafka.admin();
        await admin.connect();
        try {
          return await admin.listTopics();
        } finally {
          await admin.disconnect();
        }
      },
      async close() {
        await (consumer as Consumer | null)?.disconnect();
        const admin = kafka.admin();
        await admin.connect();
        const existing = new Set(await admin.listTopics());
        const mine = allTopics(topics).filter((t) => existing.has(t));
        if (mine.length) await admin.deleteTopics({ topics: mine }).catch(() => undefined);
        await admin.disconnect();
      },
    };
  });
});
