import type { RecordedEvent, SubscriptionFilter } from './event-store.port';

/** A row of the events table as the store reads it raw: position, id, stream_id, revision, type, data, metadata, created. */
export type RawRow = [number, string, string, number, string, string, string, string];

export function rawToRecorded(r: RawRow): RecordedEvent {
  return {
    id: r[1],
    streamId: r[2],
    revision: BigInt(r[3]),
    position: BigInt(r[0]),
    type: r[4],
    data: JSON.parse(r[5]),
    metadata: JSON.parse(r[6]),
    created: r[7],
  };
}

/** The filter as a test on a row's stream and type (the tail filters in JS what a catch-up read filters in SQL). */
export function rowMatcher(filter: SubscriptionFilter | undefined): ((streamId: string, type: string) => boolean) | null {
  const prefixes = filter?.streamPrefixes?.length ? filter.streamPrefixes : null;
  const types = filter?.eventTypes?.length ? new Set(filter.eventTypes) : null;
  if (!prefixes && !types) return null;
  return (streamId, type) => (!types || types.has(type)) && (!prefixes || prefixes.some((p) => streamId.startsWith(p)));
}

/** A subscription at the head of the log, as the tail sees it. */
export interface LiveReader {
  /** Every position up to here has been queued for it or did not match its filter. */
  from: number;
  /** null: every event. */
  readonly matches: ((streamId: string, type: string) => boolean) | null;
  /** Events queued for it, in position order (its iterator drains them). */
  queue: RecordedEvent[];
  /** How many of `queue` its iterator has taken. */
  taken: number;
  /** Set when the tail let go of it because its queue grew too long: it reads by itself from `from` again. */
  detached: boolean;
  /** Something changed for it (events, progress, a let-go, the store closing). */
  wake(): void;
}

/** Rows one tail read takes at most; a full read is followed by another after a turn of the event loop. */
const TAIL_BATCH = 1000;
/** Events a live subscription may have waiting before the tail lets go of it (it then catches up by itself). */
const MAX_QUEUED = 4 * TAIL_BATCH;

/**
 * The shared live read of a store (issue 16): the subscriptions at the head of the log do not each run a
 * query and parse its rows on every append. The tail takes the rows this process committed from the
 * appends themselves (it reads only when another process's rows may lie between), reads every `pollMs`
 * for the appends of other processes, parses each row at most once, and queues the one parsed event for
 * every live subscription whose filter it matches, in position order. Subscriptions that are behind read
 * by themselves (catch-up) and join the tail when they reach the head. Events are shared between
 * subscriptions: consumers treat them as read-only (no consumer of the product changes one: the server
 * tests pass with them deep-frozen).
 */
export class SqliteTail {
  private readonly live = new Set<LiveReader>();
  /** Every row up to here has been handed to the live subscriptions. */
  private lastSeen = 0;
  private scheduled = false;
  private timer: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(
    private readonly readAfter: (after: number, limit: number) => RawRow[],
    private readonly pollMs: number,
  ) {}

  /**
   * Joins a subscription that has read everything up to `reader.from`; refused (false) when the tail has
   * already handed out rows after that position (the subscription reads on by itself, then asks again).
   */
  attach(reader: LiveReader): boolean {
    if (this.closed) return false;
    if (this.live.size === 0) this.lastSeen = reader.from;
    else if (reader.from < this.lastSeen) return false;
    reader.detached = false;
    this.live.add(reader);
    if (!this.timer) this.timer = setInterval(this.poke, this.pollMs);
    return true;
  }

  detach(reader: LiveReader): void {
    this.live.delete(reader);
    if (this.live.size === 0 && this.timer) {
      clearInterval(this.timer);
      this.timer = null;
    }
  }

  /** New rows may be there: read them once this turn's work is done (many pokes, one read). */
  poke = (): void => {
    if (this.scheduled || this.live.size === 0) return;
    this.scheduled = true;
    queueMicrotask(this.pull);
  };

  /**
   * This process committed these rows (position order, from the appends it sent: no read needed). Handed
   * out as they are when they follow the last row handed out; when they do not (another process appended
   * in between, or a read already saw them), the tail reads instead.
   */
  committed(rows: RawRow[]): void {
    if (this.closed || this.live.size === 0) return;
    let next = this.lastSeen + 1;
    for (const row of rows) {
      if (row[0] !== next) return this.poke();
      next++;
    }
    this.handOut(rows);
  }

  private readonly pull = (): void => {
    this.scheduled = false;
    if (this.closed || this.live.size === 0) return;
    const rows = this.readAfter(this.lastSeen, TAIL_BATCH);
    if (rows.length === 0) return;
    this.handOut(rows);
    // more rows than one read takes (a burst from another process): the rest after a turn of the loop
    if (rows.length === TAIL_BATCH) setImmediate(this.poke);
  };

  /** Queues each row, parsed once, for every live subscription it matches; `rows` follow `lastSeen`. */
  private handOut(rows: RawRow[]): void {
    for (const row of rows) {
      const position = row[0];
      let event: RecordedEvent | null = null;
      for (const reader of this.live) {
        if (position <= reader.from) continue;
        if (reader.matches && !reader.matches(row[2], row[4])) continue;
        reader.queue.push((event ??= rawToRecorded(row)));
      }
    }
    const upTo = rows[rows.length - 1][0];
    this.lastSeen = upTo;
    for (const reader of this.live) {
      if (reader.from < upTo) reader.from = upTo;
      if (reader.queue.length - reader.taken > MAX_QUEUED) {
        reader.detached = true;
        this.detach(reader);
      }
      reader.wake();
    }
  }

  /** The store closes: every live subscription is woken (and ends). */
  close(): void {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    const readers = [...this.live];
    this.live.clear();
    for (const reader of readers) reader.wake();
  }
}
