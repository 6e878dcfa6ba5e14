/**
 * The shared exchange rate limit: one budget per user and exchange, whatever the number of runners.
 * An exchange's limits are per account (and IP): N runners with a bucket each would send N times the
 * venue's limit for one user. The budget lives in a store every runner reaches (SQLite file on one
 * host, MongoDB across hosts); each call reserves its slot atomically there.
 *
 * The algorithm is GCRA (the generic cell rate algorithm, a token bucket kept as one number per key:
 * the theoretical arrival time `tat`): `capacity` calls at once, then `perSecond`.
 */
export interface RateLimitStore {
  readonly kind: string;
  /** Reserves the next slot of `key`; resolves with how long the caller must wait before its call (ms). */
  reserve(key: string, capacity: number, perSecond: number): Promise<number>;
  close(): Promise<void>;
}

export const RATE_LIMIT_STORE = Symbol('RATE_LIMIT_STORE');

/** One GCRA step, pure: the new arrival time and the wait of the call that reserved it. */
export function gcraReserve(tat: number, now: number, capacity: number, perSecond: number): { tat: number; waitMs: number } {
  const interval = 1000 / perSecond;
  const tolerance = interval * (Math.max(1, capacity) - 1);
  const base = Math.max(tat, now);
  return { tat: base + interval, waitMs: Math.max(0, base - tolerance - now) };
}

/** What the runner asks for: a bucket per key with `take()`, backed by the shared store. */
export class SharedRateLimiters {
  constructor(
    private readonly store: RateLimitStore,
    private readonly capacity: number,
    private readonly perSecond: number,
    private readonly onError: (err: Error) => void = () => undefined,
  ) {}

  for(key: string): { take(): Promise<void> } {
    return {
      take: async () => {
        let wait: number;
        try {
          wait = await this.store.reserve(key, this.capacity, this.perSecond);
        } catch (err) {
          // the shared store is away: pace this runner alone at the full rate rather than stop trading
          this.onError(err as Error);
          wait = 1000 / this.perSecond;
        }
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      },
    };
  }
}
