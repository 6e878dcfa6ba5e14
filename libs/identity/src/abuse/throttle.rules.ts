/**
 * Pure rules of the auth rate limits (no I/O; the stores in auth.throttle.ts keep their state in the
 * read store so every replica sees the same counts).
 */

/** A fixed-window budget: `count` points spent since `windowStart` (ms). */
export interface WindowDoc {
  id: string;
  count: number;
  windowStart: number;
}

/** Failed sign-ins of one account from one client, and until when that client must wait (ms). */
export interface FailureDoc {
  id: string;
  failures: number;
  lastFailureAt: number;
  blockedUntil: number;
}

export interface LoginDelayPolicy {
  /** Failures allowed before any delay. */
  freeFailures: number;
  /** First delay, doubled on each further failure. */
  firstDelaySeconds: number;
  /** Longest delay; also how long failures are remembered after the last one. */
  maxDelaySeconds: number;
}

/** Spends one point: the window restarts once it has passed. */
export function spendPoint(doc: WindowDoc | null, id: string, now: number, windowMs: number): WindowDoc {
  if (!doc || now - doc.windowStart >= windowMs) return { id, count: 1, windowStart: now };
  return { ...doc, count: doc.count + 1 };
}

/** Milliseconds until the budget has a point again (0: it has one now). */
export function budgetWaitMs(doc: WindowDoc | null, now: number, points: number, windowMs: number): number {
  if (!doc || now - doc.windowStart >= windowMs || doc.count < points) return 0;
  return doc.windowStart + windowMs - now;
}

/** The delay after the n-th failure: none for the free ones, then first, 2×first, 4×first … up to the cap. */
export function delayAfterFailures(failures: number, p: LoginDelayPolicy): number {
  if (failures < p.freeFailures) return 0;
  const doublings = Math.min(30, failures - p.freeFailures);
  return Math.min(p.maxDelaySeconds, p.firstDelaySeconds * 2 ** doublings);
}

/** Records one more failure; failures older than the cap are forgotten first. */
export function recordFailure(doc: FailureDoc | null, id: string, now: number, p: LoginDelayPolicy): FailureDoc {
  const stale = !doc || now - doc.lastFailureAt >= p.maxDelaySeconds * 1000;
  const failures = (stale ? 0 : doc!.failures) + 1;
  return { id, failures, lastFailureAt: now, blockedUntil: now + delayAfterFailures(failures, p) * 1000 };
}

/** Milliseconds this client must still wait before it may try this account again. */
export function loginWaitMs(doc: FailureDoc | null, now: number): number {
  return doc ? Math.max(0, doc.blockedUntil - now) : 0;
}

/**
 * An attempt to sign in, counted before the password is checked (so a flood of guesses is refused before
 * the hash runs, and concurrent guesses cannot all pass one check): refused while the client must wait,
 * else recorded as a failure until it succeeds (a success clears the document).
 */
export function reserveAttempt(doc: FailureDoc | null, id: string, now: number, p: LoginDelayPolicy): { wait: number; next: FailureDoc | undefined } {
  const wait = loginWaitMs(doc, now);
  return wait > 0 ? { wait, next: undefined } : { wait: 0, next: recordFailure(doc, id, now, p) };
}

/** Gives back a point spent in the current window (a login that succeeded); undefined: nothing to give back. */
export function refundPoint(doc: WindowDoc | null, now: number, windowMs: number): WindowDoc | undefined {
  if (!doc || now - doc.windowStart >= windowMs || doc.count <= 0) return undefined;
  return { ...doc, count: doc.count - 1 };
}
