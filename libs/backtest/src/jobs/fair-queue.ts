/**
 * Jobs waiting for a worker, served round-robin by user (not first come, first served): each turn
 * goes to the next user who has something waiting, so one user's many queued jobs delay another
 * user's by at most one piece of work per turn. Within one user, first in, first out.
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

  /** The next user's first item; it stays at the head of that user's list (a job with more pieces). */
  peek(): T | undefined {
    const user = this.turns[0];
    return user === undefined ? undefined : this.byUser.get(user)![0];
  }

  /** Ends the current user's turn: `done` drops that user's head item (nothing more to take from it). */
  rotate(done: boolean): void {
    const user = this.turns.shift();
    if (user === undefined) return;
    const items = this.byUser.get(user)!;
    if (done) items.shift();
    if (items.length > 0) this.turns.push(user);
    else this.byUser.delete(user);
  }

  /** Takes the next item out (a job of one piece). */
  shift(): T | undefined {
    const item = this.peek();
    if (item) this.rotate(true);
    return item;
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
