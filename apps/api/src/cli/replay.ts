import 'reflect-metadata';
import { EventStore, RecordedEvent, StreamNotFoundError } from '@gridrocket/event-store';
import { botStateAt } from '@gridrocket/bots';
import { eventTime, parseAt } from '@gridrocket/bots';
import { loadConfig } from '@gridrocket/shared/runtime';
import { formatForTerminal, toStreamValue } from '@gridrocket/streaming';
import { createEventStore } from '../infrastructure.module';

/**
 * `npm run replay -- bot-<id> [--at <ISO time>] [--json]` prints a stream's
 * events (up to the time, when given) and, for a bot, its state folded up to
 * that moment: the same fold as GET /api/bots/{id}/state. Reads the configured
 * event store (DATA_DIR's SQLite file, or KURRENTDB_URL); changes nothing.
 */
export interface ReplayArgs {
  stream: string;
  at: Date | null;
  json: boolean;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function parseReplayArgs(argv: string[]): ReplayArgs {
  let stream: string | null = null;
  let at: Date | null = null;
  let json = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--json') json = true;
    else if (a === '--at' || a.startsWith('--at=')) {
      const v = a.includes('=') ? a.slice(4) : argv[++i];
      try {
        at = parseAt(v ?? 'missing');
      } catch {
        throw new Error(`--at needs an ISO-8601 time, e.g. 2025-01-31T12:00:00Z (got ${v ?? 'nothing'})`);
      }
    } else if (!a.startsWith('-') && !stream) stream = UUID.test(a) ? `bot-${a.toLowerCase()}` : a;
    else throw new Error(`Unknown argument ${a}`);
  }
  if (!stream) throw new Error('usage: npm run replay -- bot-<id> [--at <ISO time>] [--json]');
  return { stream, at, json };
}

export async function replay(store: EventStore, args: ReplayArgs, write: (line: string) => void): Promise<{ events: RecordedEvent[] }> {
  const events: RecordedEvent[] = [];
  let from = 0n;
  for (;;) {
    const page = await store.readStream(args.stream, { fromRevision: from, maxCount: 1000 });
    events.push(...page);
    if (page.length < 1000) break;
    from = page[page.length - 1].revision + 1n;
  }
  const limit = args.at?.getTime() ?? Infinity;
  const shown: RecordedEvent[] = [];
  for (const e of events) {
    if (eventTime(e) > limit) break;
    shown.push(e);
  }
  if (!args.json) write(`${args.stream}: ${shown.length} of ${events.length} events${args.at ? ` up to ${args.at.toISOString()}` : ''}`);
  for (const e of shown) write(formatForTerminal(toStreamValue(e), args.json));
  if (args.stream.startsWith('bot-')) {
    const state = botStateAt(args.stream.slice(4), events, args.at ?? new Date());
    if (args.json) write(JSON.stringify({ folded: state }));
    else {
      write(`\nState at ${state.at} (revision ${state.revision ?? '-'}, ${state.eventsApplied} events):`);
      write(JSON.stringify({ state: state.state, view: state.view, next: state.next }, null, 2));
    }
  }
  return { events: shown };
}

async function main() {
  const args = parseReplayArgs(process.argv.slice(2));
  const store = createEventStore(loadConfig());
  try {
    await replay(store, args, (line) => process.stdout.write(line + '\n'));
  } catch (err) {
    if (err instanceof StreamNotFoundError) throw new Error(`No stream ${args.stream} in this event store (DATA_DIR=${loadConfig().dataDir})`);
    throw err;
  } finally {
    await store.close();
  }
}

if (require.main === module) {
  main().catch((err) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  });
}
