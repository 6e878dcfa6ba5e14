/**
 * The runner's view of a bot: its stream folded by the bot decider (the one fold of a bot stream),
 * plus the metadata of the events that cause the runner's work (the start and stop requests).
 */
import type { EventStore, RecordedEvent } from '@gridrocket/event-store';
import { StreamNotFoundError } from '@gridrocket/event-store';
import { botDecider, type LiveBot } from '@gridrocket/bots';
import { loadState } from '@gridrocket/shared/runtime';

export interface BotRun {
  bot: LiveBot;
  /** The BotStartRequested that began the current run. */
  runEvent: RecordedEvent;
  /** The BotStopRequested of this run, when one came: what the stop's work is caused by. */
  stopEvent: RecordedEvent | null;
}

/** How many of the latest events are looked through first for the stop request (then 8× more each time). */
const STOP_LOOKBACK = 32;

/**
 * The bot's state (the folded state kept in memory, caught up with the store) and the two events of
 * its current run the runner's work is caused by, each read by itself: neither a long history nor a
 * long run is re-read (issue 16; a bot that ran for weeks has tens of thousands of events in its run).
 * Null when the bot is absent, deleted, stopped, or was never started.
 *
 * `trigger`: the event of the bot's stream being reacted to. Every later event of the stream is reacted
 * to as well, so a state that has folded the trigger is enough (no read when the fold in memory has),
 * and the trigger is not read again when it is the run's start request or the latest stop request.
 * `runEvent`: the start request of the run a task here already runs (not read again either).
 */
export async function readBotRun(store: EventStore, botId: string, trigger?: RecordedEvent, known: { runEvent?: RecordedEvent | null } = {}): Promise<BotRun | null> {
  const streamId = `bot-${botId}`;
  const folded = await loadState(store, streamId, botDecider, { atLeast: trigger?.revision });
  const state = folded?.state;
  // a stopped bot needs nothing more (the runner treats it as absent: lets a task go, does nothing)
  if (!folded || !state || state.kind !== 'live' || state.run < 0 || state.status === 'stopped') return null;
  const runRevision = BigInt(state.run);
  try {
    const given = [trigger, known.runEvent].find((e) => e?.revision === runRevision && e.type === 'BotStartRequested');
    const [runEvent] = given ? [given] : await store.readStream(streamId, { fromRevision: runRevision, maxCount: 1 });
    if (!runEvent || runEvent.revision !== runRevision) return null;
    // only a stopping bot has a stop request in its run, and only what the state has folded counts (a
    // stop request appended since is the next sync's work): the latest one up to the folded revision
    const stopEvent =
      state.status !== 'stopping'
        ? null
        : trigger?.type === 'BotStopRequested' && trigger.revision === folded.revision
          ? trigger
          : await latestStopRequest(store, streamId, runRevision, folded.revision);
    return { bot: state, runEvent, stopEvent };
  } catch (err) {
    if (err instanceof StreamNotFoundError) return null;
    throw err;
  }
}

/** The latest BotStopRequested after the run's start, up to `upTo`: pages read backwards, each larger. */
async function latestStopRequest(store: EventStore, streamId: string, runRevision: bigint, upTo: bigint): Promise<RecordedEvent | null> {
  let from = upTo;
  for (let page = STOP_LOOKBACK; from > runRevision; page *= 8) {
    const events = await store.readStream(streamId, { fromRevision: from, direction: 'backwards', maxCount: Math.min(page, Number(from - runRevision)) });
    const found = events.find((e) => e.type === 'BotStopRequested'); // newest first
    if (found) return found;
    if (events.length === 0) return null;
    from = events[events.length - 1].revision - 1n;
  }
  return null;
}
