/**
 * The runner's view of a bot: its stream folded by the bot decider (the one fold of a bot stream),
 * plus the metadata of the events that cause the runner's work (the start and stop requests).
 */
import type { EventStore, RecordedEvent } from '@gridrocket/event-store';
import { StreamNotFoundError } from '@gridrocket/event-store';
import { botDecider, type LiveBot } from '@gridrocket/bots';
import type { BotEvent } from '@gridrocket/bots';
import { loadState } from '@gridrocket/shared/runtime';

export interface BotRun {
  bot: LiveBot;
  /** The BotStartRequested that began the current run. */
  runEvent: RecordedEvent;
  /** The BotStopRequested of this run, when one came: what the stop's work is caused by. */
  stopEvent: RecordedEvent | null;
}

/**
 * The bot's state (the folded state kept in memory, caught up with the store) and the events of its
 * current run only: a bot with a long history is not re-read (issue 16). Null when the bot is absent,
 * deleted, stopped, or was never started.
 */
export async function readBotRun(store: EventStore, botId: string): Promise<BotRun | null> {
  const folded = await loadState(store, `bot-${botId}`, botDecider);
  const state = folded?.state;
  // a stopped bot needs nothing more (the runner treats it as absent: lets a task go, does nothing)
  if (!folded || !state || state.kind !== 'live' || state.run < 0 || state.status === 'stopped') return null;
  let events: RecordedEvent[];
  try {
    events = await store.readStream(`bot-${botId}`, { fromRevision: BigInt(state.run) });
  } catch (err) {
    if (err instanceof StreamNotFoundError) return null;
    throw err;
  }
  const runEvent = events[0];
  if (!runEvent || Number(runEvent.revision) !== state.run) return null;
  let stopEvent: RecordedEvent | null = null;
  // only what the state has folded: a stop request appended since is the next sync's work
  for (const e of events) if (e.type === 'BotStopRequested' && e.revision > runEvent.revision && e.revision <= folded.revision) stopEvent = e;
  return { bot: state, runEvent, stopEvent };
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
