/**
 * A decider (Jérémie Chassaing's pattern): pure functions, no I/O.
 * `decide(command, state)` returns the events the command causes (or throws an
 * AppError); `evolve(state, event)` folds an event into the state.
 */
export interface Decider<C, E extends { type: string; data: unknown }, S> {
  initialState: S;
  decide(command: C, state: S): E[];
  evolve(state: S, event: E): S;
}

export function fold<E extends { type: string; data: unknown }, S>(decider: Pick<Decider<unknown, E, S>, 'initialState' | 'evolve'>, events: E[]): S {
  return events.reduce((s, e) => decider.evolve(s, e), decider.initialState);
}
