/**
 * Test-only helpers the bots' specs share (not exported from index.ts): what a call threw, the field
 * messages of a ValidationError, and the state a decider reaches after deciding a command.
 */
import { ValidationError } from '@gridrocket/shared';

/** What `fn` threw, or null when it returned. */
export function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (err) {
    return err;
  }
  return null;
}

/** The field messages of the ValidationError `fn` threw ([] when it returned); any other error is thrown on. */
export function fieldErrors(fn: () => unknown) {
  const err = thrown(fn);
  if (err === null) return [];
  if (err instanceof ValidationError) return err.errors;
  throw err;
}

/** Decides, then folds what was decided: the state after the command. */
export function stateAfter<C, E, S>(decide: (command: C, state: S) => E[], evolve: (state: S, event: E) => S) {
  return (state: S, command: C): S => decide(command, state).reduce(evolve, state);
}
