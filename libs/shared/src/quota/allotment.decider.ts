import { Decider } from '../decider';
import { QuotaExceededError } from './quota';

/**
 * A user's allotment of one countable quota (bots, API keys), event-sourced in `quota-<uid>-<kind>`:
 * the ids that hold a slot. A create takes its slot here, appended with the revision it decided on,
 * before it writes the thing it creates; so two creates at once cannot both take the last slot (the
 * second append conflicts and decides again on the fresh allotment). A delete frees the slot.
 * Pure: the caller gives the time, the limit, and (for a user whose allotment has no stream yet, made
 * before allotments existed) the ids the user already holds.
 */
export type AllottedKind = 'bots' | 'keys';

export type AllotmentEvent =
  /** The ids held before the allotment's stream existed (the read model's, at its first use). */
  | { type: 'QuotaSeeded'; data: { kind: AllottedKind; ids: string[] } }
  | { type: 'QuotaSlotTaken'; data: { kind: AllottedKind; id: string; at: string } }
  | { type: 'QuotaSlotFreed'; data: { kind: AllottedKind; id: string; reason: SlotFreedReason } };

/** deleted: the thing was deleted; failed: its create failed; reclaimed: found gone when the limit was reached. */
export type SlotFreedReason = 'deleted' | 'failed' | 'reclaimed';

export interface AllotmentState {
  exists: boolean;
  /** id → when its slot was taken (ISO), or '' for a seeded id. */
  slots: Map<string, string>;
}

export type AllotmentCommand =
  | { type: 'TakeSlot'; kind: AllottedKind; id: string; limit: number; now: string; seed?: readonly string[] }
  | { type: 'FreeSlots'; kind: AllottedKind; ids: readonly string[]; reason: SlotFreedReason };

export const initialAllotmentState: AllotmentState = { exists: false, slots: new Map() };

export const allotmentStream = (userId: string, kind: AllottedKind) => `quota-${userId}-${kind}`;

export function decideAllotment(command: AllotmentCommand, state: AllotmentState): AllotmentEvent[] {
  switch (command.type) {
    case 'TakeSlot': {
      if (state.slots.has(command.id)) return []; // a retry of the same create holds its slot already
      const events: AllotmentEvent[] = [];
      let held = state.slots.size;
      if (!state.exists && command.seed) {
        const ids = [...new Set(command.seed)].filter((id) => id !== command.id);
        if (ids.length > 0) events.push({ type: 'QuotaSeeded', data: { kind: command.kind, ids } });
        held = ids.length;
      }
      if (held >= command.limit) throw new QuotaExceededError(command.kind, command.limit);
      events.push({ type: 'QuotaSlotTaken', data: { kind: command.kind, id: command.id, at: command.now } });
      return events;
    }
    case 'FreeSlots':
      return [...new Set(command.ids)]
        .filter((id) => state.slots.has(id))
        .map((id) => ({ type: 'QuotaSlotFreed' as const, data: { kind: command.kind, id, reason: command.reason } }));
  }
}

export function evolveAllotment(state: AllotmentState, event: AllotmentEvent): AllotmentState {
  const slots = new Map(state.slots);
  switch (event.type) {
    case 'QuotaSeeded':
      for (const id of event.data.ids) if (!slots.has(id)) slots.set(id, '');
      break;
    case 'QuotaSlotTaken':
      slots.set(event.data.id, event.data.at);
      break;
    case 'QuotaSlotFreed':
      slots.delete(event.data.id);
      break;
    default:
      return state;
  }
  return { exists: true, slots };
}

/**
 * Ids whose slot may be reclaimed if what they stand for is gone: seeded ones, and ones taken at least
 * `graceMs` before `now` (a younger slot may belong to a create still under way).
 */
export function reclaimCandidates(state: AllotmentState, now: string, graceMs: number): string[] {
  const t = Date.parse(now);
  return [...state.slots].filter(([, at]) => at === '' || t - Date.parse(at) >= graceMs).map(([id]) => id);
}

export const allotmentDecider: Decider<AllotmentCommand, AllotmentEvent, AllotmentState> = {
  initialState: initialAllotmentState,
  decide: decideAllotment,
  evolve: evolveAllotment,
};
