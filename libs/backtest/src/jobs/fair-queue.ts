/**
 * Jobs waiting for a worker, served round-robin by user (not first come, first served): each turn
 * goes to the next user who has something waiting, so one user's many queued jobs delay another
 * user's by at most one piece of work per turn. Within one user, first in, first out; a worker that
 * takes only some jobs (the pool's lane for short jobs) takes each user's first job it may run.
 */
export class FairQueue<T extends { id: string; userId: string }> {
  private readonly byUser = new Map<string, T[]>();
  /** Users with something waiting, in the order their turn comes. */
  private readonly turns: string[] = [];

  get size(): number {
    let n = 0;
    for (const items of this.byUser.values()) n += items.length;
    return n;
  }

  push(item: T): void {
    const items = this.byUser.get(item.userId);
    if (items) items.push(item);
    else {
      this.byUser.set(item.userId, [item]);
      this.turns.push(item.userId);
    }
  }

  /**
   * The item whose turn it is: the first user's first item, or with `fits`, the first item that fits
   * of the first user who has one. It stays queued until `served` (a job with more pieces stays).
   */
  peek(fits?: (item: T) => boolean): T | undefined {
    for (const user of this.turns) {
      const items = this.byUser.get(user)!;
      const item = fits ? items.find(fits) : items[0];
      if (item) return item;
    }
    return undefined;
  }

  /** Ends the turn of `item`'s user (it goes to the back); `done` takes the item out (nothing more to take from it). */
  served(item: T, done: boolean): void {
    const user = item.userId;
    const at = this.turns.indexOf(user);
    if (at < 0) return;
    this.turns.splice(at, 1);
    const items = this.byUser.get(user)!;
    if (done) {
      const k = items.indexOf(item);
      if (k >= 0) items.splice(k, 1);
    }
    if (items.length > 0) this.turns.push(user);
    else this.byUser.delete(user);
  }

  /** Takes the next item out (a job of one piece). */
  shift(): T | undefined {
    const item = this.peek();
    if (item) this.served(item, true);
    return item;
  }

  has(id: string): boolean {
    for (const items of this.byUser.values()) if (items.some((i) => i.id === id)) return true;
    return false;
  }

  remove(id: string): T | undefined {
    for (const [user, items] of this.byUser) {
      const k = items.findIndex((i) => i.id === id);
      if (k < 0) continue;
      const [item] = items.splice(k, 1);
      if (items.length === 0) {
        this.byUser.delete(user);
        this.turns.splice(this.turns.indexOf(user), 1);
      }
      return item;
    }
    return undefined;
  }

  clear(): T[] {
    const all = [...this.byUser.values()].flat();
    this.byUser.clear();
    this.turns.length = 0;
    return all;
  }
}
