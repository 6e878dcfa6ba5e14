/**
 * The one given/when/then helper for decider specifications (test-only; imports no framework).
 *
 *   const spec = deciderSpec(botDecider);
 *   spec.given(created, started).when(stop).then(stopRequested);
 *   spec.given().when(stop).thenThrows(NotFoundError, /not found/);
 */
import type { Decider } from '../decider';

type ErrorClass = new (...args: any[]) => Error;

export function deciderSpec<C, E extends { type: string; data: unknown }, S>(decider: Decider<C, E, S>) {
  return {
    given(...history: E[]) {
      const state = history.reduce((s, e) => decider.evolve(s, e), decider.initialState);
      return {
        /** The folded state, for assertions on evolve. */
        state,
        when(command: C) {
          return {
            then(...expected: E[]): E[] {
              const actual = decider.decide(command, state);
              expect(actual).toEqual(expected);
              return actual;
            },
            thenThrows(kind: ErrorClass, message?: RegExp | string): void {
              let thrown: unknown;
              try {
                decider.decide(command, state);
              } catch (e) {
                thrown = e;
              }
              expect(thrown).toBeInstanceOf(kind);
              if (message !== undefined) expect((thrown as Error).message).toMatch(message);
            },
          };
        },
      };
    },
  };
}
