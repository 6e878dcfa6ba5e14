import type { ReadStore } from '@gridrocket/read-store';

interface Entry {
  id: string;
  rev: number;
  doc: { id: string; active: boolean };
}

/**
 * The runner's index of bots that should run: the entries written in one event-loop turn are committed
 * together, with the highest position as checkpoint (issue 16: a commit per lifecycle event was a
 * third of a catch-up). Each writer resumes only once its entry is committed.
 */
export class RunnerIndexWriter {
  private batch: { writes: Map<string, Entry>; position: bigint; done: Promise<void> } | null = null;

  constructor(
    private readonly reads: ReadStore,
    private readonly collection: string,
    private readonly checkpoint: string,
  ) {}

  write(botId: string, rev: number, active: boolean, position: bigint): Promise<void> {
    let batch = this.batch;
    if (!batch) {
      const writes = new Map<string, Entry>();
      const b = { writes, position, done: Promise.resolve() };
      b.done = new Promise<void>((resolve, reject) =>
        setImmediate(() => {
          if (this.batch === b) this.batch = null;
          this.reads.commit(this.collection, [...writes.values()], { name: this.checkpoint, position: b.position }).then(() => resolve(), reject);
        }),
      );
      batch = this.batch = b;
    }
    const w = batch.writes.get(botId);
    if (!w || w.rev < rev) batch.writes.set(botId, { id: botId, rev, doc: { id: botId, active } });
    if (position > batch.position) batch.position = position;
    return batch.done;
  }
}
