/**
 * The watchdog's reads of an account, shared by its bots within one round (issue 39): a round of N
 * bots on one account asks the venue for its open orders, balances and positions once, not N times,
 * using the venue's all-symbols read where the adapter says it is cheaper (ExchangePort.openOrdersOf).
 * A read is kept `ttlMs` (less than the watchdog's period: the next round reads afresh); a failed one is
 * not kept. Keys carry the account; the task's owned, rate-limited call does the asking.
 */
export class AccountReads {
  private readonly memo = new Map<string, { at: number; value: Promise<unknown> }>();

  constructor(
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  get<T>(key: string, load: () => Promise<T>): Promise<T> {
    const t = this.now();
    const hit = this.memo.get(key);
    if (hit && t - hit.at < this.ttlMs) return hit.value as Promise<T>;
    const value = load();
    this.memo.set(key, { at: t, value });
    value.catch(() => {
      if (this.memo.get(key)?.value === value) this.memo.delete(key);
    });
    // old entries go (a round's keys are read within it)
    if (this.memo.size > 1000) for (const [k, v] of this.memo) if (t - v.at >= this.ttlMs) this.memo.delete(k);
    return value;
  }
}
