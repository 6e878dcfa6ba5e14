import { AllotmentEvent, AllotmentState, QuotaExceededError, allotmentDecider, decideAllotment, fold, reclaimCandidates } from '@gridrocket/shared';

const given = (...events: AllotmentEvent[]): AllotmentState => fold(allotmentDecider, events);
const taken = (id: string, at = '2026-01-01T00:00:00.000Z'): AllotmentEvent => ({ type: 'QuotaSlotTaken', data: { kind: 'bots', id, at } });
const now = '2026-01-01T00:10:00.000Z';
const take = (id: string, limit: number, seed?: string[]) => ({ type: 'TakeSlot' as const, kind: 'bots' as const, id, limit, now, seed });

describe('allotment decider (a user\'s slots of QUOTA_BOTS / QUOTA_KEYS)', () => {
  it('given a free slot, when a create takes it, then QuotaSlotTaken', () => {
    expect(decideAllotment(take('b3', 3), given(taken('b1'), taken('b2')))).toEqual([{ type: 'QuotaSlotTaken', data: { kind: 'bots', id: 'b3', at: now } }]);
  });

  it('given every slot held, when a create asks, then 409 naming the limit', () => {
    const full = given(taken('b1'), taken('b2'), taken('b3'));
    expect(() => decideAllotment(take('b4', 3), full)).toThrow(QuotaExceededError);
    expect(() => decideAllotment(take('b4', 3), full)).toThrow('Limit reached: at most 3 bots per user. Delete a bot you no longer need before creating another.');
  });

  it('given the id holds its slot already (a retried create), then nothing, even at the limit', () => {
    expect(decideAllotment(take('b2', 2), given(taken('b1'), taken('b2')))).toEqual([]);
  });

  it('given a freed slot, then it can be taken again', () => {
    const state = given(taken('b1'), taken('b2'), { type: 'QuotaSlotFreed', data: { kind: 'bots', id: 'b1', reason: 'deleted' } });
    expect(decideAllotment(take('b9', 2), state).map((e) => e.type)).toEqual(['QuotaSlotTaken']);
  });

  it('given no allotment yet, the ids held before are seeded and count', () => {
    expect(decideAllotment(take('new', 3, ['old1', 'old2', 'old2']), allotmentDecider.initialState)).toEqual([
      { type: 'QuotaSeeded', data: { kind: 'bots', ids: ['old1', 'old2'] } },
      { type: 'QuotaSlotTaken', data: { kind: 'bots', id: 'new', at: now } },
    ]);
    expect(() => decideAllotment(take('new', 2, ['old1', 'old2']), allotmentDecider.initialState)).toThrow(QuotaExceededError);
    // an allotment that exists ignores a seed (it was read when the stream did not exist yet)
    expect(decideAllotment(take('b2', 2, ['x', 'y']), given(taken('b1'))).map((e) => e.type)).toEqual(['QuotaSlotTaken']);
  });

  it('frees only the slots held', () => {
    expect(decideAllotment({ type: 'FreeSlots', kind: 'bots', ids: ['b1', 'nope', 'b1'], reason: 'deleted' }, given(taken('b1')))).toEqual([
      { type: 'QuotaSlotFreed', data: { kind: 'bots', id: 'b1', reason: 'deleted' } },
    ]);
    expect(decideAllotment({ type: 'FreeSlots', kind: 'bots', ids: ['b1'], reason: 'deleted' }, given())).toEqual([]);
  });

  it('reclaims only seeded slots and slots older than the grace period', () => {
    const state = given({ type: 'QuotaSeeded', data: { kind: 'bots', ids: ['old'] } }, taken('stale', '2026-01-01T00:00:00.000Z'), taken('young', '2026-01-01T00:09:30.000Z'));
    expect(reclaimCandidates(state, now, 60_000).sort()).toEqual(['old', 'stale']);
  });
});
