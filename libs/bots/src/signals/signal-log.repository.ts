import { EventStore, RecordedEvent, StreamNotFoundError, WrongExpectedVersionError } from '@gridrocket/event-store';
import { CommandContext, NotFoundError, toNewEvents } from '@gridrocket/shared';
import { BOT_NOT_FOUND } from '../domain/bot.decider';
import { botStream } from '../domain/bot.events';
import { SignalLogCommand, SignalLogEvent, SignalLogState, decideSignalLog, evolveSignalLog, initialSignalLog } from './signal-log.decider';
import { SIGNAL_ID_MEMORY_MS, SIGNAL_REFUSAL_WINDOW_MS } from './signal.rules';
import type { SignalBotEvent } from './signal.events';

const PAGE = 200;
/** Read this much further back than the memory needs: clocks of several processes differ a little. */
const SKEW_MS = 60_000;
const ATTEMPTS = 5;

/**
 * The signal log of a bot decided on the recent end of the bot's stream only. What the log decides on
 * (ids taken in the last 10 minutes, refusals of the last minute, whether the bot was deleted) lies in the
 * events of the last SIGNAL_ID_MEMORY_MS, so the stream is read backwards until an event older than that
 * (plus a minute of clock skew), not from its start: a long-running bot's stream holds many thousands of
 * trading events, and the bot decider's fold in memory (event-sourced.repository.ts) is left alone.
 * The append names the stream's revision read: a signal taken meanwhile by another request makes it
 * decide again (two copies of a signal racing: one is taken, the other is a replay).
 */
export async function decideOnSignalLog(store: EventStore, botId: string, command: SignalLogCommand, ctx: CommandContext, now: number): Promise<{ events: SignalBotEvent[]; position: bigint | null }> {
  const stream = botStream(botId);
  for (let attempt = 1; ; attempt++) {
    const tail = await recentEvents(store, stream, now);
    if (!tail) throw new NotFoundError(BOT_NOT_FOUND);
    const state = foldTail(tail.events);
    const events = decideSignalLog(command, state);
    if (events.length === 0) return { events, position: null };
    try {
      const r = await store.append(stream, toNewEvents(events, ctx), tail.revision);
      return { events, position: r.position };
    } catch (err) {
      if (!(err instanceof WrongExpectedVersionError) || attempt >= ATTEMPTS) throw err;
    }
  }
}

/** The log's state from the recent events (oldest first): the bot is live unless deleted among them or created with none before. */
export function foldTail(events: RecordedEvent[]): SignalLogState {
  const start: SignalLogState = events[0]?.type === 'BotCreated' ? initialSignalLog : { ...initialSignalLog, kind: 'live' };
  return events.reduce((s, e) => evolveSignalLog(s, { type: e.type, data: e.data } as SignalLogEvent), start);
}

/** The stream's events of the last SIGNAL_ID_MEMORY_MS (+ skew), oldest first, and its revision; null when it does not exist. */
async function recentEvents(store: EventStore, stream: string, now: number): Promise<{ events: RecordedEvent[]; revision: bigint } | null> {
  const since = now - Math.max(SIGNAL_ID_MEMORY_MS, SIGNAL_REFUSAL_WINDOW_MS) - SKEW_MS;
  const collected: RecordedEvent[] = [];
  let from: bigint | undefined;
  let revision: bigint | null = null;
  for (;;) {
    let page: RecordedEvent[];
    try {
      page = await store.readStream(stream, { direction: 'backwards', maxCount: PAGE, ...(from !== undefined ? { fromRevision: from } : {}) });
    } catch (err) {
      if (err instanceof StreamNotFoundError) return null;
      throw err;
    }
    if (page.length === 0) break;
    if (revision === null) revision = page[0].revision;
    let done = false;
    for (const e of page) {
      collected.push(e);
      const at = Date.parse(String(e.metadata?.occurredAt ?? e.created));
      if (e.type === 'BotCreated' || (Number.isFinite(at) && at < since)) {
        done = true;
        break;
      }
    }
    const last = page[page.length - 1].revision;
    if (done || page.length < PAGE || last === 0n) break;
    from = last - 1n;
  }
  if (revision === null) return null;
  return { events: collected.reverse(), revision };
}
