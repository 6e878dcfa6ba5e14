import 'reflect-metadata';
import { Presets, SingleBar } from 'cli-progress';
import { loadConfig } from '@gridrocket/shared/runtime';
import { KafkaSink, SINK_CLIENT, createKafka, defaultTopicMap, kafkaSettingsFromEnv, republish } from '@gridrocket/streaming';
import { createEventStore } from '../infrastructure.module';

/**
 * `npm run republish -- [--from <position>] [--to <position>] [--batch <n>]`: sends the event log (or the range
 * of positions, both inclusive) to the Kafka cluster of KAFKA_BROKERS again, for a cluster that came back empty
 * or was replaced (the forwarder goes on from its checkpoint and never re-sends what it had sent). Each message
 * is the forwarder's (topic, key, value, `event-id` header) plus `republished: true`: consumers that
 * de-duplicate by `event-id` see each event once however often it is sent. Runs beside the server (it only
 * reads the log). A progress bar on stderr; the summary on stdout.
 */
export interface RepublishArgs {
  from?: bigint;
  to?: bigint;
  batch?: number;
}

const USAGE = 'usage: npm run republish -- [--from <position>] [--to <position>] [--batch <events per batch, 1-5000>]';

export function parseRepublishArgs(argv: string[]): RepublishArgs {
  const args: RepublishArgs = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const [name, inline] = a.includes('=') ? [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)] : [a, undefined];
    if (name === '--help' || name === '-h') throw new Error(USAGE);
    if (name !== '--from' && name !== '--to' && name !== '--batch') throw new Error(`Unknown argument ${a}\n${USAGE}`);
    const value = inline ?? argv[++i];
    if (value === undefined || !/^\d+$/.test(value)) throw new Error(`${name} needs a whole number (got ${value ?? 'nothing'})\n${USAGE}`);
    if (name === '--batch') {
      const n = Number(value);
      if (n < 1 || n > 5000) throw new Error(`--batch is from 1 to 5000 events (got ${value})`);
      args.batch = n;
    } else if (name === '--from') {
      args.from = BigInt(value);
      if (args.from < 1n) throw new Error('--from is a position of the log: 1 or more');
    } else args.to = BigInt(value);
  }
  if (args.from !== undefined && args.to !== undefined && args.to < args.from) throw new Error(`--to (${args.to}) is before --from (${args.from})`);
  return args;
}

async function main() {
  const args = parseRepublishArgs(process.argv.slice(2));
  const settings = kafkaSettingsFromEnv(process.env);
  if (!settings) throw new Error('republish sends the event log to Kafka: set KAFKA_BROKERS (and KAFKA_TOPIC_PREFIX if the server uses one)');
  const config = loadConfig(process.env);
  const events = createEventStore(config);
  const head = await events.headPosition();
  const from = args.from ?? 1n;
  const to = args.to !== undefined && args.to < head ? args.to : head;
  if (head === 0n || to < from) {
    process.stdout.write(`Nothing to republish: the log's head is at position ${head}${args.from !== undefined ? `, --from ${from}` : ''}\n`);
    await events.close();
    return;
  }
  // kafkajs's lines on stderr at warn and above: stdout is the summary alone
  const kafkaSettings = { ...settings, clientId: 'gridrocket-republish' };
  const sink = new KafkaSink(kafkaSettings, createKafka(kafkaSettings, { destination: process.stderr }, SINK_CLIENT));
  const bar = new SingleBar(
    { format: 'republishing [{bar}] {percentage}% | position {position} of {last} | {sent} events | {eta_formatted} left', hideCursor: true, stream: process.stderr, noTTYOutput: true, notTTYSchedule: 2000, etaBuffer: 20 },
    Presets.shades_classic,
  );
  const span = Number(to - from + 1n);
  bar.start(span, 0, { position: String(from), last: String(to), sent: 0 });
  const started = Date.now();
  try {
    const result = await republish({
      events,
      sink,
      topics: defaultTopicMap(settings.topicPrefix ?? ''),
      from,
      to,
      batchSize: args.batch,
      onProgress: (p) => bar.update(Number(p.position - from + 1n), { position: String(p.position), sent: p.sent }),
      onRetry: (err, attempt) => process.stderr.write(`\nbatch refused (attempt ${attempt}), trying again: ${err.message}\n`),
    });
    bar.update(span, { position: String(to), sent: result.sent });
    bar.stop();
    const seconds = (Date.now() - started) / 1000;
    process.stdout.write(
      `Republished ${result.sent} events (positions ${from} to ${to}) to ${result.topics.join(', ')} on ${settings.brokers.join(',')} in ${seconds.toFixed(1)} s\n`,
    );
  } finally {
    bar.stop();
    await events.close();
  }
}

if (require.main === module) {
  main().catch((err) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  });
}
