/**
 * What one runner has seen of its group in the event store (lease.ownership.ts): the members' heartbeats, each
 * with when THIS process first saw it (its monotonic clock), and who holds each partition (the heads of the
 * ownership streams). Liveness and silence are judged from those observations only, never from another
 * process's clock.
 */
import type { EventStore, RecordedEvent } from '@gridrocket/event-store';
import { StreamNotFoundError, WrongExpectedVersionError } from '@gridrocket/event-store';
import { PARTITION_CLAIMED } from './fenced.ownership';
import { OWNERSHIP_SETTINGS, RUNNER_HEARTBEAT, RUNNER_LEFT, ownershipEvent, type HeartbeatData, type ownershipStreams } from './lease-streams';

export interface Head {
  revision: bigint;
  type: string;
  /** The claiming process (null for a release, or a claim of the adapters before issue 41: then `legacy:<owner>`). */
  holder: string | null;
}

export interface Member {
  instance: string;
  name: string;
  /** When THIS process first saw the member's latest heartbeat (monotonic ms). */
  seenAt: number;
  left: boolean;
  data: HeartbeatData | null;
}

/** Heartbeats read back at start, newest first (covers far more than a takeover's worth of every live runner). */
const MEMBERS_WINDOW = 1_000;
const MEMBERS_PAGE = 500;

export class LeaseView {
  readonly members = new Map<string, Member>();
  readonly heads = new Map<number, Head | null>();
  private membersAt: bigint | null = null;
  /**
   * When the latest complete read of the members began (monotonic): every heartbeat appended before then is in
   * what this process has seen. Silence is measured up to here, not up to "now": a heartbeat appended after the
   * read is unknown, so the time since proves nothing.
   */
  private readAt = -Infinity;
  /** Per partition: the claim at its head and when this process first saw it (for holders never heard from). */
  private readonly claimSeen = new Map<number, { revision: bigint; at: number }>();

  constructor(
    private readonly events: EventStore,
    private readonly streams: ReturnType<typeof ownershipStreams>,
    /** This process (never a member of its own view). */
    private readonly instance: string,
    private readonly takeoverMs: number,
    private readonly now: () => number,
    private readonly wallNow: () => number,
  ) {}

  /** Reads the heartbeats appended since the last read (at first, the last MEMBERS_WINDOW of them). */
  async readMembers(): Promise<void> {
    const events = this.events;
    const began = this.now();
    if (this.membersAt === null) {
      let recent: RecordedEvent[] = [];
      try {
        recent = await events.readStream(this.streams.members, { direction: 'backwards', maxCount: MEMBERS_WINDOW, fromLeader: true });
      } catch (err) {
        if (!(err instanceof StreamNotFoundError)) throw err;
      }
      const at = this.now();
      const wall = this.wallNow();
      for (const e of [...recent].reverse()) {
        // heartbeats far older than a takeover are of runners long gone: left out of the balance (display clocks only)
        const sentAt = Number((e.data as Partial<HeartbeatData>).at);
        if (e.type === RUNNER_HEARTBEAT && wall - sentAt > 2 * this.takeoverMs) continue;
        this.see(e, at);
      }
      this.membersAt = recent.length ? recent[0].revision : -1n;
      this.readAt = began;
      return;
    }
    for (;;) {
      let batch: RecordedEvent[] = [];
      try {
        batch = await events.readStream(this.streams.members, { fromRevision: this.membersAt + 1n, maxCount: MEMBERS_PAGE, fromLeader: true });
      } catch (err) {
        if (!(err instanceof StreamNotFoundError)) throw err;
      }
      const at = this.now();
      for (const e of batch) this.see(e, at);
      if (batch.length) this.membersAt = batch[batch.length - 1].revision;
      if (batch.length < MEMBERS_PAGE) break;
    }
    this.readAt = began;
    // forget runners silent for long that hold nothing
    for (const [id, m] of this.members) {
      if (this.now() - m.seenAt > 10 * this.takeoverMs && ![...this.heads.values()].some((h) => h?.holder === id)) this.members.delete(id);
    }
  }

  private see(e: RecordedEvent, at: number): void {
    const d = e.data as Partial<HeartbeatData>;
    if (typeof d.instance !== 'string' || d.instance === this.instance) return;
    if (e.type === RUNNER_HEARTBEAT) this.members.set(d.instance, { instance: d.instance, name: String(d.owner ?? d.instance), seenAt: at, left: false, data: d as HeartbeatData });
    else if (e.type === RUNNER_LEFT) {
      const m = this.members.get(d.instance);
      this.members.set(d.instance, { instance: d.instance, name: String(d.owner ?? m?.name ?? d.instance), seenAt: m?.seenAt ?? at, left: true, data: m?.data ?? null });
    }
  }

  /** Reads the head of every partition's ownership stream. */
  async readHeads(partitions: number): Promise<void> {
    const heads = await Promise.all(Array.from({ length: partitions }, (_, p) => this.readHead(p)));
    const at = this.now();
    heads.forEach((head, p) => {
      this.heads.set(p, head);
      if (head?.type === PARTITION_CLAIMED) {
        if (this.claimSeen.get(p)?.revision !== head.revision) this.claimSeen.set(p, { revision: head.revision, at });
      } else this.claimSeen.delete(p);
    });
  }

  private async readHead(p: number): Promise<Head | null> {
    try {
      const [e] = await this.events.readStream(this.streams.partition(p), { direction: 'backwards', maxCount: 1, fromLeader: true });
      if (!e) return null;
      const d = e.data as { instance?: unknown; owner?: unknown };
      const holder = e.type === PARTITION_CLAIMED ? (typeof d.instance === 'string' ? d.instance : `legacy:${String(d.owner ?? '?')}`) : null;
      return { revision: e.revision, type: e.type, holder };
    } catch (err) {
      if (err instanceof StreamNotFoundError) return null;
      throw err;
    }
  }

  /** For the balance: this runner, and every runner whose heartbeat came within a takeover. */
  alive(instance: string): boolean {
    if (instance === this.instance) return true;
    const m = this.members.get(instance);
    return !!m && !m.left && this.now() - m.seenAt < this.takeoverMs;
  }

  /**
   * Whether a holder's partitions may be taken: it left, or it has been silent for a takeover while this runner
   * watched: from when this process first saw its latest heartbeat (or its claim, for a holder never heard from),
   * and from when this runner's own lease last became valid, to the start of its latest read of the members.
   */
  silent(holder: string, p: number, regainedAt: number): boolean {
    const m = this.members.get(holder);
    if (m?.left) return true;
    const seen = m ? m.seenAt : (this.claimSeen.get(p)?.at ?? Infinity);
    return this.readAt - Math.max(seen, regainedAt) >= this.takeoverMs;
  }
}

/**
 * How many partitions the group cuts bots into: the count its first runner wrote to `ownership-<group>-settings`
 * (written now with `wanted` when there is none yet).
 */
export async function groupPartitions(events: EventStore, streams: ReturnType<typeof ownershipStreams>, scope: string, wanted: number, wallNow: () => number): Promise<number> {
  const stored = async (): Promise<number | null> => {
    try {
      const [first] = await events.readStream(streams.settings, { maxCount: 1, fromLeader: true });
      const n = Number((first?.data as { partitions?: unknown } | undefined)?.partitions);
      return Number.isInteger(n) && n > 0 ? n : null;
    } catch (err) {
      if (err instanceof StreamNotFoundError) return null;
      throw err;
    }
  };
  for (let attempt = 0; attempt < 3; attempt++) {
    const n = await stored();
    if (n !== null) return n;
    try {
      await events.append(streams.settings, [ownershipEvent(OWNERSHIP_SETTINGS, { scope, partitions: wanted }, wallNow)], 'no_stream');
      return wanted;
    } catch (err) {
      if (!(err instanceof WrongExpectedVersionError)) throw err; // another runner wrote it first: read it
    }
  }
  return wanted;
}
