/**
 * The runner's view of a bot: its stream folded by the bot decider (the one fold of a bot stream),
 * plus the metadata of the events that cause the runner's work (the start and stop requests).
 */
import type { EventStore, RecordedEvent } from '@gridrocket/event-store';
import { StreamNotFoundError } from '@gridrocket/event-store';
import { botDecider, type LiveBot } from '@gridrocket/bots';
import type { BotEvent } from '@gridrocket/bots';

export interface BotRun {
  bot: LiveBot;
  /** The BotStartRequested that began the current run. */
  runEvent: RecordedEvent;
  /** The BotStopRequested of this run, when one came: what the stop's work is caused by. */
  stopEvent: RecordedEvent | null;
}

/** Reads and folds a bot's stream; null when the bot is absent, deleted, or was never started. */
export async function readBotRun(store: EventStore, botId: string): Promise<BotRun | null> {
  let events: RecordedEvent[];
  try {
    events = await store.readStream(`bot-${botId}`);
  } catch (err) {
    if (err instanceof StreamNotFoundError) return null;
    throw err;
  }
  return foldBotRun(events);
}

export function foldBotRun(events: RecordedEvent[]): BotRun | null {
  const state = events.reduce((s, e) => botDecider.evolve(s, { type: e.type, data: e.data } as BotEvent), botDecider.initialState);
  if (state.kind !== 'live' || state.run < 0) return null;
  const runEvent = events.find((e) => Number(e.revision) === state.run);
  if (!runEvent) return null;
  let stopEvent: RecordedEvent | null = null;
  for (const e of events) if (e.type === 'BotStopRequested' && Number(e.revision) > state.run) stopEvent = e;
  return { bot: state, runEvent, stopEvent };
}
