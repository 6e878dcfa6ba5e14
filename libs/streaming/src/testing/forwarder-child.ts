/*
 * A forwarder alone in its own process, for the crash test: the test kills it
 * with SIGKILL mid-stream and starts it again. SINK=file appends every
 * published message as a JSON line to OUT (written before the checkpoint
 * moves, as a broker's ack would be); SINK=kafka publishes to Kafka
 * (KAFKA_BROKERS, KAFKA_TOPIC_PREFIX).
 */
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { SqliteEventStore } from '@gridrocket/event-store';
import { SqliteReadStore } from '@gridrocket/read-store';
import type { EventSink } from '../event-sink.port';
import { Forwarder } from '../forwarder';
import { kafkaSettingsFromEnv } from '../kafka.client';
import { KafkaSink } from '../kafka.sink';
import { defaultTopicMap, StreamMessage } from '../stream-message';

class FileSink implements EventSink {
  readonly kind = 'file';
  constructor(private readonly file: string, private readonly delayMs: number) {}
  async start(): Promise<void> {}
  async publish(messages: StreamMessage[]): Promise<void> {
    for (const m of messages) {
      appendFileSync(this.file, JSON.stringify({ topic: m.topic, key: m.key, headers: m.headers, value: JSON.parse(m.value) }) + '\n');
    }
    if (this.delayMs) await new Promise((r) => setTimeout(r, this.delayMs));
  }
  async close(): Promise<void> {}
}

async function main() {
  const dir = process.env.DATA!;
  const events = new SqliteEventStore(join(dir, 'events.sqlite'), 20);
  const reads = new SqliteReadStore(join(dir, 'read.sqlite'));
  const kafka = process.env.SINK === 'kafka' ? kafkaSettingsFromEnv() : null;
  const sink: EventSink = kafka ? new KafkaSink(kafka) : new FileSink(process.env.OUT!, Number(process.env.DELAY_MS ?? 2));
  const forwarder = new Forwarder({
    events,
    reads,
    sink,
    name: 'forwarder-crash-test',
    topics: defaultTopicMap(kafka?.topicPrefix ?? ''),
    batchSize: Number(process.env.BATCH ?? 25),
  });
  await forwarder.start();
  process.stdout.write(`ready ${forwarder.position}\n`);
  process.on('SIGTERM', () => {
    void forwarder.stop().then(() => process.exit(0));
  });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
