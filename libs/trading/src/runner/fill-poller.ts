/**
 * Polls an account's fills for one symbol (ports without push, e.g. ccxt), shared by the bots there.
 * The cursor starts at the earliest time a bot of the poller may still miss a fill (never 0) and
 * moves with the exchange's time: to the newest fill seen, and — when a poll brings nothing new on a
 * venue whose clock is the wall clock — to now minus a safety margin, so that a quiet bot never asks
 * a venue for a window that keeps growing (the adapters walk the venue's windows from the cursor).
 */
import { isExchangeError, type ExchangePort, type Fill as ExchangeFill, type Order } from '@gridrocket/exchanges';

/** Fills are asked for this far before the last one known (clock skew, late trade records). */
export const FILL_OVERLAP_MS = 60_000;

/** What a poller needs from its bots and its runner. */
export interface PolledBot {
  readonly botId: string;
  readonly released: boolean;
  /** Exchange time (ms) from which this bot may have missed fills. */
  readonly fillsSinceMs: number;
  readonly open: Map<string, Order>;
  readonly closed: Map<string, { clientOrderId: string }>;
  acceptFill(fill: ExchangeFill): void;
}

export interface PollerHost<T extends PolledBot> {
  call<R>(task: T, fn: () => Promise<R>, retries?: number): Promise<R>;
  taskFor(clientOrderId: string): T | undefined;
  kick(task: T): void;
  /** A market price of the task's symbol (risk controls, issue 14). */
  onPrice?(task: T, price: number): void;
  /** The venue refused the account's key on a poll (issue 29): the task cannot trade any more. */
  onKeyRefused?(task: T, err: Error): void;
  /** Issue 40: the venue liquidated the position of the task's symbol (a fill of its own `autoclose-` order). */
  onLiquidation?(task: T, fill: import('@gridrocket/exchanges').Fill): void;
  /** The account's venue stream went down or came back (issue 39): these bots poll meanwhile. */
  onStreamState?(tasks: T[], state: import('@gridrocket/exchanges').StreamState): void;
}

/** The venue refuses the key (revoked, wrong IP, permissions) or there is none any more. */
export const isKeyRefusal = (err: unknown) => isExchangeError(err) && (err.code === 'BAD_API_KEY' || err.code === 'MISSING_CREDENTIAL');

/**
 * Polls in a row whose key was refused in a way that may be temporary (KeyRefusedError: Binance's
 * -2015 on a key that worked before) before the bots are told: a short ban passes, a revoked key fails.
 */
export const KEY_REFUSALS_TO_FAIL = 5;

export class FillPoller<T extends PolledBot> {
  readonly tasks = new Set<T>();
  private cursor: number | null = null;
  private seen = new Map<string, number>();
  private timer: NodeJS.Timeout | null = null;
  private inFlight = false;
  private again = false;
  private polls = 0;
  private stopped = false;
  /** Polls in a row refused for the key (see KEY_REFUSALS_TO_FAIL). */
  private keyRefusals = 0;
  /** False while the account's stream is live (issue 39): no timer, no price-woken polls. */
  private active = true;

  constructor(
    private readonly host: PollerHost<T>,
    readonly port: ExchangePort,
    readonly symbol: string,
    private readonly pollMs: number,
    /** The venue's clock when it is the wall clock (live, testnet); null on paper (the feed's time). */
    private readonly clock: (() => number) | null,
  ) {}

  /** The time the next poll asks from (for tests and metrics). */
  get since(): number | null {
    return this.cursor;
  }

  add(task: T) {
    this.tasks.add(task);
    const from = Math.max(1, task.fillsSinceMs - FILL_OVERLAP_MS);
    this.cursor = this.cursor === null ? from : Math.min(this.cursor, from);
    this.startTimer();
  }

  private startTimer() {
    if (!this.timer && !this.stopped && this.active) {
      this.timer = setInterval(() => this.trigger(), this.pollMs);
      this.timer.unref?.();
    }
  }

  /**
   * Issue 39: while the account's user-data stream is live the poller rests (the stream brings the
   * fills, the watchdog reconciles); when it goes down the poller polls again at its period; when it
   * comes back, one last poll finds what the gap missed, then it rests.
   */
  setActive(active: boolean) {
    if (this.stopped || active === this.active) return;
    if (active) {
      this.active = true;
      this.startTimer();
      this.trigger();
    } else {
      this.trigger(); // the gap's fills
      this.active = false;
      if (this.timer) clearInterval(this.timer);
      this.timer = null;
    }
  }

  /** Polling now (no live stream), for the bot page and tests. */
  get polling(): boolean {
    return this.active && !this.stopped;
  }

  remove(task: T): boolean {
    this.tasks.delete(task);
    if (this.tasks.size === 0) this.stop();
    return this.tasks.size === 0;
  }

  stop() {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  trigger() {
    if (this.stopped || !this.active) return;
    if (this.inFlight) {
      this.again = true;
      return;
    }
    this.inFlight = true;
    void this.poll()
      .then(() => {
        this.keyRefusals = 0;
      })
      .catch((err) => {
        // A transient failure is polled again; a refused key would be refused for ever, behind a
        // "Running" bot (issue 29): its bots are told, and fail with the reason.
        if (!isKeyRefusal(err)) return;
        if ((err as { retryable?: boolean }).retryable && ++this.keyRefusals < KEY_REFUSALS_TO_FAIL) return;
        for (const task of [...this.tasks]) this.host.onKeyRefused?.(task, err as Error);
      })
      .finally(() => {
        this.inFlight = false;
        if (this.again) {
          this.again = false;
          this.trigger();
        }
      });
  }

  async poll(): Promise<void> {
    const first = this.tasks.values().next().value as T | undefined;
    if (!first || this.cursor === null) return;
    const since = this.cursor;
    const askedAt = this.clock?.() ?? null;
    const fills = await this.host.call(first, () => this.port.recentFills(this.symbol, since), 1);
    let max = since;
    const touched = new Set<T>();
    for (const f of fills) {
      if (f.timestamp > max) max = f.timestamp;
      if (this.seen.has(f.fillId)) continue;
      this.seen.set(f.fillId, f.timestamp);
      const task = this.host.taskFor(f.clientOrderId);
      if (task && this.tasks.has(task)) {
        task.acceptFill(f);
        touched.add(task);
      }
    }
    // Fills newer than the cursor are found again by the overlap; a quiet venue moves it with time.
    const byTime = askedAt !== null ? askedAt - FILL_OVERLAP_MS : -Infinity;
    this.cursor = Math.max(since, Math.min(max, Number.MAX_SAFE_INTEGER), byTime);
    for (const [id, ts] of this.seen) if (ts < this.cursor - FILL_OVERLAP_MS) this.seen.delete(id);
    // Now and then: orders that left the book without a fill we saw (cancelled outside, or a fill
    // still on its way) are marked closed; the task then looks them up before doing anything else.
    if (++this.polls % 10 === 0) {
      const open = await this.host.call(first, () => this.port.openOrders(this.symbol), 1);
      const ids = new Set(open.map((o) => o.clientOrderId));
      for (const task of this.tasks) {
        for (const id of task.open.keys()) {
          if (!ids.has(id)) {
            task.open.delete(id);
            task.closed.set(id, { clientOrderId: id });
            touched.add(task);
          }
        }
      }
    }
    for (const task of touched) this.host.kick(task);
  }
}
