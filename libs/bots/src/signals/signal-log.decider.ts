import { Decider, NotFoundError } from '@gridrocket/shared';
import type { BotEvent } from '../domain/bot.events';
import { BOT_NOT_FOUND } from '../domain/bot.decider';
import { SignalAction, SignalAuth, SignalBotEvent, SignalRefusalReason } from './signal.events';
import { SIGNAL_ID_MEMORY_MS, SIGNAL_REFUSALS_PER_WINDOW, SIGNAL_REFUSAL_WINDOW_MS, replayRefusal } from './signal.rules';

/**
 * The signals of one bot, folded from the bot's own stream (`bot-<id>`): who owns it, which signal ids
 * were taken lately, and how many refusals were recorded in the current minute. Pure.
 */
export interface SignalLogState {
  kind: 'absent' | 'live' | 'deleted';
  userId: string | null;
  /** Signal id → when it was taken (server ms); forgotten SIGNAL_ID_MEMORY_MS later. A Map: an id may be `__proto__`. */
  seen: ReadonlyMap<string, number>;
  /** The digests of the signatures taken lately → when (issue 38: a signed request replayed under a new id). */
  signatures: ReadonlyMap<string, number>;
  refusalWindowStart: number;
  refusalsInWindow: number;
}

export type SignalLogCommand =
  | { type: 'TakeSignal'; botId: string; signalId: string; action: SignalAction; auth: SignalAuth; signedAt: number; at: number; signature?: string }
  | { type: 'RecordSignalOutcome'; botId: string; signalId: string; action: SignalAction; outcome: 'requested' | 'unchanged' | 'refused'; status: number; reason: string | null; position?: 'kept' | 'sold-first'; refusal?: 'position-held' }
  | { type: 'RecordSignalRefusal'; botId: string; reason: SignalRefusalReason; status: number; message: string; signalId: string | null; suppressed: number; at: number };

export type SignalLogEvent = SignalBotEvent | BotEvent;

export const initialSignalLog: SignalLogState = { kind: 'absent', userId: null, seen: new Map(), signatures: new Map(), refusalWindowStart: 0, refusalsInWindow: 0 };

/** Whether a refusal at `at` may still be recorded in this minute's window. */
export function refusalRecordable(state: SignalLogState, at: number): boolean {
  return at - state.refusalWindowStart >= SIGNAL_REFUSAL_WINDOW_MS || at < state.refusalWindowStart || state.refusalsInWindow < SIGNAL_REFUSALS_PER_WINDOW;
}

export function decideSignalLog(command: SignalLogCommand, state: SignalLogState): SignalBotEvent[] {
  if (state.kind !== 'live') {
    if (command.type === 'TakeSignal') throw new NotFoundError(BOT_NOT_FOUND);
    return []; // a bot deleted meanwhile: nothing more is written to its stream
  }
  switch (command.type) {
    case 'TakeSignal': {
      const taken = state.seen.get(command.signalId);
      if (taken !== undefined && command.at - taken < SIGNAL_ID_MEMORY_MS) throw replayRefusal(command.signalId);
      const signed = command.signature === undefined ? undefined : state.signatures.get(command.signature);
      if (signed !== undefined && command.at - signed < SIGNAL_ID_MEMORY_MS) throw replayRefusal(command.signalId, true);
      const { type: _t, ...data } = command;
      return [{ type: 'SignalReceived', data }];
    }
    case 'RecordSignalOutcome': {
      const { type: _t, ...data } = command;
      return [{ type: 'SignalHandled', data }];
    }
    case 'RecordSignalRefusal': {
      if (!refusalRecordable(state, command.at)) return []; // over the cap: the caller counts it
      const { type: _t, ...data } = command;
      return [{ type: 'SignalRefused', data }];
    }
  }
}

export function evolveSignalLog(state: SignalLogState, event: SignalLogEvent): SignalLogState {
  switch (event.type) {
    case 'BotCreated':
      return { ...initialSignalLog, kind: 'live', userId: event.data.userId };
    case 'BotDeleted':
      return { ...state, kind: 'deleted', seen: new Map(), signatures: new Map() };
    case 'SignalReceived': {
      const at = event.data.at;
      const seen = new Map<string, number>();
      for (const [id, t] of state.seen) if (at - t < SIGNAL_ID_MEMORY_MS) seen.set(id, t);
      seen.set(event.data.signalId, at);
      const signatures = new Map<string, number>();
      for (const [sig, t] of state.signatures) if (at - t < SIGNAL_ID_MEMORY_MS) signatures.set(sig, t);
      if (event.data.signature !== undefined) signatures.set(event.data.signature, at);
      return { ...state, seen, signatures };
    }
    case 'SignalRefused': {
      const at = event.data.at;
      const fresh = at - state.refusalWindowStart >= SIGNAL_REFUSAL_WINDOW_MS || at < state.refusalWindowStart;
      return fresh ? { ...state, refusalWindowStart: at, refusalsInWindow: 1 } : { ...state, refusalsInWindow: state.refusalsInWindow + 1 };
    }
    default:
      return state;
  }
}

export const signalLogDecider: Decider<SignalLogCommand, SignalLogEvent, SignalLogState> = {
  initialState: initialSignalLog,
  decide: decideSignalLog,
  evolve: evolveSignalLog,
};
