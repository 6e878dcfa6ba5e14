/**
 * Group commit of the paper venue (issue 16). The account operations of one event-loop turn are
 * applied in memory as they come and written together in ONE SQLite transaction at the end of the
 * turn (setImmediate); only after that commit are their order updates pushed and their callers'
 * promises resolved, so an acknowledged order or cancel is on disk (a kill -9 loses only what was
 * never acknowledged). A feed advance or a synchronous call commits whatever is pending together with
 * its own work. The rows are written from the in-memory state at commit time (the latest state).
 */
import type { Account, UnitOfWork as UnitOfWorkType } from './paper-accounts';
import { UnitOfWork } from './paper-accounts';
import type { OrderRow } from './paper.store';

export class PaperGroupCommit {
  private uow: UnitOfWorkType = new UnitOfWork();
  private waiters: Array<{ resolve: () => void; reject: (err: Error) => void }> = [];
  private scheduled = false;

  constructor(
    /** Writes a unit of work (and the feed's position when asked) in one transaction. */
    private readonly write: (uow: UnitOfWorkType, withFeed: boolean) => void,
    /** Pushes a committed unit of work's order updates to their watchers. */
    private readonly notify: (uow: UnitOfWorkType) => void,
  ) {}

  /** The unit of work the operations of this turn add to. */
  get current(): UnitOfWorkType {
    return this.uow;
  }

  /** An order written this turn and not committed yet (read your writes before the commit). */
  pendingOrder(account: Account, clientOrderId: string): OrderRow | undefined {
    let found: OrderRow | undefined;
    for (const o of this.uow.orders) {
      if (o.clientOrderId === clientOrderId && o.userId === account.userId && o.exchange === account.exchange && o.market === account.market) {
        if (!found || o.id > found.id) found = o;
      }
    }
    return found;
  }

  get pending(): boolean {
    return this.uow.orders.size > 0 || this.uow.fills.length > 0 || this.uow.balances.size > 0 || this.uow.positions.size > 0;
  }

  /** Resolves once the work applied so far (the caller's included) is committed; rejects if the commit fails. */
  committed(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.waiters.push({ resolve, reject });
      if (this.scheduled) return;
      this.scheduled = true;
      setImmediate(() => {
        this.scheduled = false;
        try {
          this.flush(false);
        } catch {
          // its callers' promises are rejected with the error
        }
      });
    });
  }

  /** Commits the pending work now, then pushes its updates and resolves its callers. Throws if the commit fails. */
  flush(withFeed: boolean): void {
    const uow = this.uow;
    const waiters = this.waiters;
    this.uow = new UnitOfWork();
    this.waiters = [];
    if (withFeed || uow.orders.size > 0 || uow.fills.length > 0 || uow.balances.size > 0 || uow.positions.size > 0) {
      try {
        this.write(uow, withFeed);
      } catch (err) {
        for (const w of waiters) w.reject(err as Error);
        throw err;
      }
    }
    this.notify(uow);
    for (const w of waiters) w.resolve();
  }
}
