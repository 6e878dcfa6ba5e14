/**
 * One request budget per venue for the whole install (issue 39): the venue's own counter, read from every
 * answer, decides when the next call may go, so that the install never spends more than `share`
 * (default 50 %) of the venue's limit, and a 429 or 418 stops every call to the venue, from every runner,
 * until its Retry-After. The counters and limits, with their sources (docs/exchanges.md "Rate limits"):
 * - Binance: `X-MBX-USED-WEIGHT-1M`, the IP's weight in the current minute, against REQUEST_WEIGHT 6,000
 *   (spot) or 2,400 (USDⓈ-M) a minute (exchangeInfo `rateLimits`).
 * - KuCoin: `gw-ratelimit-limit`, `gw-ratelimit-remaining` and `gw-ratelimit-reset` (ms until the pool
 *   refills) of the account's resource pool ("Rate Limit", https://www.kucoin.com/docs-new/rate-limit): one
 *   account's, so not the install's figure (`countsInstall` false); its 429s pause the install.
 * Every runner of the install reads and writes one figure per venue in a shared store (the read store's
 * `venue_budgets`, beside the per-user buckets: libs/read-store venue-figure.store.ts), each change one
 * atomic update with a pure function below: a call reserves its turn (an estimated weight while in flight,
 * so that calls released together at a window's start cannot overshoot), an answer's counter is merged
 * (the window's highest count), a 429/418 pauses every runner's calls (the later pause wins). Without a
 * store (tests, one process) the figure is this process's.
 */
import { VENUE_REGISTRY, type CcxtId, type Venue } from './venues/registry';
export interface BudgetState {
  /** The limit the venue counts against (weight or resource units) and what is used of it now. */
  limit: number;
  used: number;
  /** Weight of the install's calls in flight (reserved before each call, given back after its answer). */
  reserved: number;
  /** When the venue's window ends (ms, wall clock). */
  resetAt: number;
  /** Calls wait until then (a 429 or 418 with Retry-After); 0: no pause. */
  pausedUntil: number;
  /** The venue's answer that paused the calls (429: too much weight, 418: the IP is banned); 0: none. */
  pauseStatus: number;
  /** When that answer came (ms). */
  pausedAt: number;
}

/** The install's figures, one per venue, each changed by one atomic read-modify-write (the read store's VenueFigureStore). */
export interface VenueBudgetStore {
  update(venue: string, fn: (current: BudgetState | undefined) => BudgetState): Promise<BudgetState>;
}

/** A store of one figure per venue with an atomic read-modify-write (the read store's VenueFigureStore). */
export interface VenueFigures {
  update<T>(venue: string, fn: (current: T | undefined) => T): Promise<T>;
}

/** The install's budgets kept in a figure store. */
export function sharedBudgets(figures: VenueFigures): VenueBudgetStore {
  return { update: (venue, fn) => figures.update<BudgetState>(venue, fn) };
}

/** A pause as the runners hear it: which venue, why, and until when. */
export interface VenuePause {
  venue: string;
  status: number;
  at: number;
  until: number;
}

// The changes of a figure, pure: each runner applies them to the shared figure in one atomic update.

/** The figure at `t`: a window that has passed is a fresh one (nothing used, nothing in flight counted). */
export function rollBudget(s: BudgetState, t: number, windowMs: number): BudgetState {
  return t < s.resetAt ? s : { ...s, used: 0, reserved: 0, resetAt: t - (t % windowMs) + windowMs };
}

/** The venue's counter read from an answer: within one window the higher count wins (answers arrive out of order). */
export function countSeen(s: BudgetState, used: number, limit: number, resetAt: number): BudgetState {
  if (resetAt < s.resetAt) return s; // an answer of a window that has passed
  if (resetAt === s.resetAt) return { ...s, used: Math.max(s.used, used), limit };
  return { ...s, used, limit, resetAt, reserved: 0 };
}

/** A 429/418: every call waits until `until` (the later pause wins). */
export function pauseSeen(s: BudgetState, until: number, status: number, at: number): BudgetState {
  return until > s.pausedUntil ? { ...s, pausedUntil: until, pauseStatus: status, pausedAt: at } : s;
}

/**
 * One call's turn (pure): granted when no pause holds and the window's use, with the calls in flight and
 * this one (`weight`, an estimate), stays within `cap` (the install's share of the limit); then reserved.
 */
export function reserveBudget(s: BudgetState, weight: number, cap: number, t: number): { granted: boolean; state: BudgetState } {
  if (t < s.pausedUntil) return { granted: false, state: s };
  if (s.used + s.reserved + weight > cap && s.used + s.reserved > 0) return { granted: false, state: s };
  return { granted: true, state: { ...s, reserved: s.reserved + weight } };
}

export class VenueBudget {
  private state: BudgetState;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly pauseListeners = new Set<(p: VenuePause) => void>();

  constructor(
    readonly venue: string,
    limit: number,
    /** The window of the venue's counter (Binance: the minute). */
    private readonly windowMs: number,
    readonly share = 0.5,
    private readonly now: () => number = Date.now,
    sleep?: (ms: number) => Promise<void>,
    /** The install's shared figure; absent: this process's only. */
    private readonly store?: VenueBudgetStore,
    /** The store was not reachable (the budget goes on with this process's figure). */
    private readonly onStoreError: (err: Error) => void = () => undefined,
    /** What one call is counted as while in flight (the venue's typical call weight; the answer gives the truth). */
    readonly callWeight = 10,
    /**
     * Whether the venue's counter on its answers is the install's (Binance: the IP's weight). KuCoin's
     * `gw-ratelimit-*` count one account's pool, and the answer does not say which pool: merged into one
     * figure per venue they would let one account's busy pool hold every other account's calls. Where false,
     * only the venue's 429s pause the install.
     */
    private readonly countsInstall = true,
  ) {
    this.state = { limit, used: 0, reserved: 0, resetAt: 0, pausedUntil: 0, pauseStatus: 0, pausedAt: 0 };
    this.sleep = sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms).unref?.()));
  }

  /** What is known now (metrics, health). */
  snapshot(): BudgetState & { usedShare: number } {
    const t = this.now();
    const used = t >= this.state.resetAt ? 0 : this.state.used;
    return { ...this.state, used, usedShare: this.state.limit > 0 ? used / this.state.limit : 0 };
  }

  /** Hears every pause of the venue: one this process met, or one another runner recorded in the store. */
  onPause(listener: (p: VenuePause) => void): () => void {
    this.pauseListeners.add(listener);
    return () => this.pauseListeners.delete(listener);
  }

  /** Reads the install's figure (an idle process hears another runner's pause). */
  async sync(): Promise<void> {
    await this.change((s) => s);
  }

  /**
   * Waits until a call may go (no pause; the window's use and the calls in flight under the share of the
   * limit) and reserves its turn: call the answer when the call's answer has been read (`observe`).
   */
  async take(): Promise<() => void> {
    for (let i = 0; i < 100_000; i++) {
      const t = this.now();
      let granted = false;
      const s = await this.change((cur) => {
        // two calls' estimates kept in hand: a call may weigh more than its estimate (an account read 20), and
        // one granted at a window's end may reach the venue in the next
        const r = reserveBudget(rollBudget(cur, t, this.windowMs), this.callWeight, cur.limit * this.share - 2 * this.callWeight, t);
        granted = r.granted;
        return r.state;
      });
      if (granted) {
        let done = false;
        return () => {
          if (done) return;
          done = true;
          void this.change((cur) => ({ ...cur, reserved: Math.max(0, cur.reserved - this.callWeight) }));
        };
      }
      // paused: until the pause ends; the window used up: until it ends; else calls in flight: a moment
      const wait = t < s.pausedUntil ? s.pausedUntil - t : s.used + 3 * this.callWeight > s.limit * this.share ? Math.max(10, s.resetAt - t + 50) : 20;
      await this.sleep(Math.min(wait, 1000));
    }
    return () => undefined;
  }

  /** Reads the venue's counters from an answer's headers (lower-case names, as Node gives them). */
  observe(headers: Record<string, unknown> | undefined): void {
    if (!headers) return;
    const h = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
    const t = this.now();
    const weight = Number(h['x-mbx-used-weight-1m']);
    if (Number.isFinite(weight)) {
      const resetAt = t - (t % this.windowMs) + this.windowMs;
      void this.change((cur) => countSeen(cur, weight, cur.limit, resetAt));
      return;
    }
    if (!this.countsInstall) return;
    const remaining = Number(h['gw-ratelimit-remaining']);
    const limit = Number(h['gw-ratelimit-limit']);
    const reset = Number(h['gw-ratelimit-reset']);
    if (Number.isFinite(remaining) && Number.isFinite(limit) && limit > 0) {
      // KuCoin's pool refills `reset` ms from now: one window per refill time, to the second
      const resetAt = Math.ceil((t + (Number.isFinite(reset) ? reset : this.windowMs)) / 1000) * 1000;
      void this.change((cur) => countSeen(cur, limit - remaining, limit, resetAt));
    }
  }

  /** The venue said 429 or 418 (`status`): every call of every runner waits `retryAfterMs`. */
  pause(retryAfterMs: number, status = 429): void {
    const t = this.now();
    void this.change((cur) => pauseSeen(cur, t + Math.max(0, retryAfterMs), status, t));
  }

  /**
   * Applies `fn` to the install's figure (atomically in the store, else to this process's), keeps the result
   * and tells the listeners of a pause that is new here. The store away: this process's figure.
   */
  private async change(fn: (s: BudgetState) => BudgetState): Promise<BudgetState> {
    let next: BudgetState;
    if (this.store) {
      try {
        const local = this.state;
        next = await this.store.update(this.venue, (cur) => fn(cur ? { ...local, ...cur, reserved: cur.reserved ?? 0 } : local));
      } catch (err) {
        this.onStoreError(err as Error);
        next = fn(this.state);
      }
    } else next = fn(this.state);
    const before = this.state.pausedUntil;
    this.state = next;
    if (next.pausedUntil > before && next.pausedUntil > this.now()) {
      const p: VenuePause = { venue: this.venue, status: next.pauseStatus, at: next.pausedAt, until: next.pausedUntil };
      for (const l of this.pauseListeners) {
        try {
          l(p);
        } catch (err) {
          // a listener's throw must not fail the budget's update (a rejected, unawaited change ends the process)
          this.onStoreError(err as Error);
        }
      }
    }
    return next;
  }
}

/** The venues' limits and windows by ccxt id (docs/exchanges.md "Rate limits"; each venue's folder `rest.limits`). */
export const VENUE_LIMITS: Readonly<Record<CcxtId, { limit: number; windowMs: number; callWeight?: number; perAccount?: boolean }>> = Object.fromEntries(
  VENUE_REGISTRY.map((v) => [v.ccxt.id, v.rest.limits]),
) as Record<CcxtId, Venue['rest']['limits']>;
