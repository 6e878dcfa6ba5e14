import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { loadConfig } from '@gridrocket/shared/runtime';
import {
  StreamValue,
  allTopics,
  createKafka,
  defaultTopicMap,
  formatForTerminal,
  kafkaSettingsFromEnv,
  toStreamValue,
} from '@gridrocket/streaming';
import { createEventStore } from '../infrastructure.module';

/**
 * `npm run tail -- [--from-beginning] [--type BotStarted[,BotStopped]] [--json]`
 * prints events live: from Kafka when KAFKA_BROKERS is set, else from the
 * embedded event store in DATA_DIR (the running app's own file). Secrets never
 * show: the lines are the same scrubbed values the forwarder publishes.
 */
export interface TailArgs {
  fromBeginning: boolean;
  types: string[];
  json: boolean;
}

export function parseTailArgs(argv: string[]): TailArgs {
  const args: TailArgs = { fromBeginning: false, types: [], json: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--from-beginning') args.fromBeginning = true;
    else if (a === '--json') args.json = true;
    else if (a === '--type' || a.startsWith('--type=')) {
      const v = a.includes('=') ? a.slice(a.indexOf('=') + 1) : argv[++i];
      if (!v) throw new Error('--type needs an event type, e.g. --type BotStarted');
      args.types.push(...v.split(',').map((t) => t.trim()).filter(Boolean));
    } else if (a === '--help' || a === '-h') {
      throw new Error('usage: npm run tail -- [--from-beginning] [--type BotStarted[,BotStopped]] [--json]');
    } else throw new Error(`Unknown argument ${a}`);
  }
  return args;
}

export interface TailHandle {
  source: string;
  /** Stops tailing and releases the connection. */
  stop(): Promise<void>;
  done: Promise<void>;
}

export async function startTail(args: TailArgs, env: NodeJS.ProcessEnv, write: (line: string) => void): Promise<TailHandle> {
  const print = (v: StreamValue) => write(formatForTerminal(v, args.json));
  const kafkaSettings = kafkaSettingsFromEnv(env);
  if (kafkaSettings) {
    // kafkajs's lines on stderr: stdout is the events alone (npm run --silent tail -- --json | jq)
    const kafka = createKafka({ ...kafkaSettings, clientId: 'gridrocket-tail' }, { destination: process.stderr });
    const groupId = `gridrocket-tail-${randomUUID()}`;
    const consumer = kafka.consumer({ groupId, allowAutoTopicCreation: false });
    await consumer.connect();
    await consumer.subscribe({ topics: allTopics(defaultTopicMap(kafkaSettings.topicPrefix ?? '')), fromBeginning: args.fromBeginning });
    let resolveDone!: () => void;
    const done = new Promise<void>((r) => (resolveDone = r));
    await consumer.run({
      eachMessage: async ({ message }) => {
        const type = message.headers?.['event-type']?.toString();
        if (args.types.length && (!type || !args.types.includes(type))) return;
        if (!message.value) return;
        print(JSON.parse(message.value.toString()) as StreamValue);
      },
    });
    return {
      source: `kafka ${kafkaSettings.brokers.join(',')}`,
      done,
      async stop() {
        await consumer.disconnect();
        const admin = kafka.admin();
        await admin.connect();
        await admin.deleteGroups([groupId]).catch(() => undefined);
        await admin.disconnect();
        resolveDone();
      },
    };
  }
  const config = loadConfig(env);
  const store = createEventStore(config);
  const sub = store.subscribeToAll({
    fromPosition: args.fromBeginning ? 'start' : 'end',
    filter: args.types.length ? { eventTypes: args.types } : undefined,
  });
  const done = (async () => {
    for await (const e of sub) print(toStreamValue(e));
  })();
  return {
    source: `${store.kind} event store in ${config.dataDir}`,
    done,
    async stop() {
      await sub.close();
      await done.catch(() => undefined);
      await store.close();
    },
  };
}

async function main() {
  const args = parseTailArgs(process.argv.slice(2));
  const handle = await startTail(args, process.env, (line) => process.stdout.write(line + '\n'));
  process.stderr.write(`tailing ${handle.source}${args.types.length ? ` (types: ${args.types.join(', ')})` : ''}; Ctrl-C to stop\n`);
  const stop = () => void handle.stop().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  await handle.done;
}

if (require.main === module) {
  main().catch((err) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  });
}
