import type { NextFunction, Request, Response } from 'express';
import { ValidationError } from '../errors';

/** How deep a JSON body may nest (objects and arrays). The product's bodies need 3. */
export const MAX_BODY_DEPTH = 32;

export const BODY_TOO_DEEP = `The body is nested too deeply: at most ${MAX_BODY_DEPTH} levels of objects and arrays`;

/**
 * Whether a parsed JSON value nests objects and arrays deeper than `max` levels. Iterative, so a body
 * nested thousands of levels deep is measured without recursion (and stops at the first level too many).
 */
export function nestedDeeperThan(value: unknown, max: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth + 1 > max) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v)) {
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
    }
  }
  return false;
}

/**
 * After the JSON parser: a body nested deeper than MAX_BODY_DEPTH is 400 with a field message before
 * any route sees it (issue 28: a body nested 5,000 levels overflowed the stack of the Idempotency-Key
 * fingerprint, a 500; any other recursive walk of a body would have done the same).
 */
export function bodyDepthLimit(max = MAX_BODY_DEPTH) {
  return (req: Request, _res: Response, next: NextFunction) => {
    if (nestedDeeperThan(req.body, max)) return next(new ValidationError([{ field: 'body', message: BODY_TOO_DEEP }], BODY_TOO_DEEP));
    next();
  };
}
