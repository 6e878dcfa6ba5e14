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

/** The state of a fact recorded once (a mail sent, an alert delivered): whether its stream has it. */
export interface RecordedOnce {
  recorded: boolean;
}

/**
 * A decider that records its command's data once, as one `eventType` event: recording it again (another
 * process, an event handled again) changes nothing.
 */
export function recordOnceDecider<C extends { data: unknown }, E extends { type: string; data: C['data'] }>(eventType: E['type']): Decider<C, E, RecordedOnce> {
  return {
    initialState: { recorded: false },
    decide: (command, state) => (state.recorded ? [] : [{ type: eventType, data: command.data } as E]),
    evolve: (state, event) => (event.type === eventType ? { recorded: true } : state),
  };
}
