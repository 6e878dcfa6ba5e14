import { deciderOf, evolveByType, fold } from './decider';

type CounterEvent = { type: 'Added'; data: { n: number } } | { type: 'Reset'; data: Record<string, never> } | { type: 'Noted'; data: { text: string } };

describe('evolveByType', () => {
  const evolve = evolveByType<CounterEvent, number>({
    Added: (state, event) => state + event.data.n,
    Reset: () => 0,
  });

  it('folds each event by the evolver of its type', () => {
    expect(evolve(2, { type: 'Added', data: { n: 3 } })).toBe(5);
    expect(evolve(2, { type: 'Reset', data: {} })).toBe(0);
  });

  it('leaves the state as it is for a type without an evolver, one of an older version, or a name on every object', () => {
    expect(evolve(2, { type: 'Noted', data: { text: 'x' } })).toBe(2);
    expect(evolve(2, { type: 'Removed', data: {} } as unknown as CounterEvent)).toBe(2);
    expect(evolve(2, { type: 'toString', data: {} } as unknown as CounterEvent)).toBe(2);
  });

  it('makes a decider with deciderOf that folds as its parts do', () => {
    const decider = deciderOf<{ n: number }, CounterEvent, number>(1, (command) => [{ type: 'Added', data: { n: command.n } }], evolve);
    expect(fold(decider, [...decider.decide({ n: 4 }, 1), { type: 'Noted', data: { text: 'y' } }])).toBe(5);
  });
});
