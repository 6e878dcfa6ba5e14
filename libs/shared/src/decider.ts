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

/** How each event type folds into the state: `event` is that type's event. */
export type Evolvers<E extends { type: string; data: unknown }, S> = {
  [T in E['type']]?: (state: S, event: Extract<E, { type: T }>) => S;
};

/** An `evolve` that folds each event by its type's evolver; an event of a type without one leaves the state as it is. */
export function evolveByType<E extends { type: string; data: unknown }, S>(evolvers: Evolvers<E, S>): (state: S, event: E) => S {
  return (state, event) => {
    if (!Object.prototype.hasOwnProperty.call(evolvers, event.type)) return state;
    const evolve = evolvers[event.type as E['type']] as ((state: S, event: E) => S) | undefined;
    return evolve ? evolve(state, event) : state;
  };
}

/** A decider of its three parts. */
export function deciderOf<C, E extends { type: string; data: unknown }, S>(
  initialState: S,
  decide: (command: C, state: S) => E[],
  evolve: (state: S, event: E) => S,
): Decider<C, E, S> {
  return { initialState, decide, evolve };
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
