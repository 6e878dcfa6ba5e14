// Over 400 lines: the lease protocol's round (renew, let go, balance, claim, release) with its safety argument in one place; what the store says is lease-view.ts.
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { performance } from 'node:perf_hooks';
import type { EventStore, Fence } from '@gridrocket/event-store';
import { WrongExpectedVersionError } from '@gridrocket/event-store';
import { Lease, type SentAt } from './lease';
import { assignPartitions } from './lease-assignment';
import { LEASE_MS, LEASE_PARTITIONS, PARTITION_RELEASED, RENEW_MS, RUNNER_HEARTBEAT, RUNNER_LEFT, ownershipEvent, ownershipStreams, type HeartbeatData } from './lease-streams';
import { LeaseView, groupPartitions } from './lease-view';
import { BotOwnership, OwnershipListener, OwnershipState, OwnershipStatus, RevokeReason } from './ownership.port';
import { botPartitionOf } from './partitions';
import { PARTITION_CLAIMED } from './fenced.ownership';

export interface LeaseOwnershipOptions {
  events: EventStore;
  /** The runner group (RUNNER_GROUP): names the streams. */
  scope?: string;
  /** This runner's name (RUNNER_NAME): claims name it; its share of the partitions is hashed by it. */
  owner?: string;
  /** How many partitions bots are cut into, for a group's first runner (later ones use the stored count). */
  partitions?: number;
  /** How long a confirmed renewal lets this runner act, counted from when it was SENT. */
  leaseMs?: number;
  /** How often it renews (heartbeats), reads the members and the claims, and balances. */
  renewMs?: number;
  /** How long another runner must have been silent (as this one observed it) before its partitions are taken. */
  takeoverMs?: number;
  now?(): number;
  wallNow?(): number;
  /** No timers: the caller drives `round()` (unit tests with their own clocks). */
  manual?: boolean;
  onError?(err: Error): void;
  log?(message: string): void;
}

/**
 * Bot ownership with leases in the event store (issue 41): the store the runner's trades are fenced in, so
 * trading depends on nothing it did not depend on already (the Kafka consumer group it replaces stopped every
 * bot while the broker was away). The argument, the timings and what an outage does: docs/resilience.md.
 *
 * - Epochs: a runner claims partition p by appending `PartitionClaimed` to `ownership-<scope>-p<n>` with the
 *   expected revision it read; the claim's revision is its epoch, and every append of the runner carries it as
 *   a fence (fence.ts): once anyone appends to that stream (a claim, a release) the old epoch is refused.
 * - The lease: every `renewMs` the runner appends a `RunnerHeartbeat` to `ownership-<scope>-members`. A
 *   heartbeat confirmed without error renews this runner's lease to `leaseMs` after it was SENT (lease.ts:
 *   monotonic and wall clocks), and only if it was sent while the lease was still valid (or while the runner
 *   held nothing): a lease that lapsed is never extended, the runner lets its bots go (`lapsed`) and claims
 *   again under new epochs. `owns()` needs the lease.
 * - Takeover: another runner takes a partition only if its holder has released it, has left, or has been
 *   silent, in the observer's own monotonic clock, for `takeoverMs` > 2 × `leaseMs` since the observer first
 *   saw its latest heartbeat (and since the observer's own lease last became valid). With heartbeats sent one
 *   after another, a holder's last valid renewal was sent before that observation + `leaseMs`, so its lease
 *   ended before observation + 2 × `leaseMs`: by then it no longer acts. No clocks of two processes are
 *   compared; only how long each waited.
 * - Balance: each runner computes from its view of the live members who should hold each partition
 *   (lease-assignment.ts); a holder lets go of what should be another live runner's (its bots first, then a
 *   `PartitionReleased`), and the target claims what is free. A partition free for `takeoverMs` is claimed
 *   by anyone.
 * - A clean stop lets every bot go, releases every partition and appends `RunnerLeft`: the others take over
 *   at their next round.
 */
export class LeaseOwnership implements BotOwnership {
  readonly kind = 'leases';
  readonly scope: string;
  readonly owner: string;
  readonly instance: string;
  readonly leaseMs: number;
  readonly renewMs: number;
  readonly takeoverMs: number;
  private partitions: number;
  private readonly streams: ReturnType<typeof ownershipStreams>;
  private readonly state: OwnershipState;
  private readonly epochs = new Map<number, bigint>();
  private readonly lease: Lease;
  private readonly now: () => number;
  private readonly wallNow: () => number;
  private listener: OwnershipListener | null = null;
  private running = false;
  private loop: Promise<void> | null = null;
  private wake: (() => void) | null = null;
  private lapseTimer: NodeJS.Timeout | null = null;
  /** The send of the renewal the lease runs from. */
  private lastSent: SentAt | null = null;
  /** When this runner's lease last became valid (monotonic): takeovers count silence only from then. */
  private regainedAt = Infinity;
  /** What this runner has seen of its group in the store. */
  private readonly view: LeaseView;
  /** Per partition: since when it has been free (released, never claimed, or its holder silent). */
  private readonly freeSince = new Map<number, number>();
  private readonly lapsedSet = new Set<number>();
  private lastError: string | null = null;
  private reporter: (() => Record<string, unknown>) | null = null;

  constructor(private readonly options: LeaseOwnershipOptions) {
    this.scope = options.scope ?? 'runners';
    this.owner = options.owner ?? `runner-${process.pid}`;
    this.instance = `${this.owner}.${randomUUID().slice(0, 8)}`;
    this.partitions = options.partitions ?? LEASE_PARTITIONS;
    this.leaseMs = options.leaseMs ?? LEASE_MS;
    this.renewMs = options.renewMs ?? Math.min(RENEW_MS, Math.floor(this.leaseMs / 3));
    this.takeoverMs = options.takeoverMs ?? 2 * this.leaseMs + this.renewMs;
    if (!(this.renewMs > 0 && this.renewMs * 2 <= this.leaseMs)) {
      throw new RangeError(`renewMs ${this.renewMs} must be at most half of leaseMs ${this.leaseMs} (two renewals per lease)`);
    }
    if (!(this.takeoverMs > 2 * this.leaseMs)) {
      throw new RangeError(`takeoverMs ${this.takeoverMs} must be longer than twice leaseMs ${this.leaseMs} (a silent holder's lease has surely lapsed by then)`);
    }
    this.streams = ownershipStreams(this.scope);
    this.state = new OwnershipState(options.onError);
    this.now = options.now ?? (() => performance.now());
    this.wallNow = options.wallNow ?? Date.now;
    this.lease = new Lease(this.leaseMs, this.now, this.wallNow);
    this.view = new LeaseView(options.events, this.streams, this.instance, this.takeoverMs, this.now, this.wallNow);
  }

  get partitionCount(): number {
    return this.partitions;
  }

  partitionOf(botId: string): number {
    return botPartitionOf(botId, this.partitions);
  }

  owns(botId: string): boolean {
    const p = this.partitionOf(botId);
    return this.running && this.lease.valid && this.epochs.has(p) && this.state.has(p);
  }

  fenceFor(botId: string): Fence | null {
    if (!this.owns(botId)) return null;
    const p = this.partitionOf(botId);
    return { streamId: this.streams.partition(p), revision: this.epochs.get(p)! };
  }

  /** The epoch this runner holds on a partition (tests, health). */
  epochOf(partition: number): bigint | undefined {
    return this.epochs.get(partition);
  }

  /** The ownership stream of a partition. */
  streamOf(partition: number): string {
    return this.streams.partition(partition);
  }

  owned(): number[] {
    if (!this.running || !this.lease.valid) return [];
    return this.state.owned().filter((p) => this.epochs.has(p));
  }

  reportWith(report: () => Record<string, unknown>): void {
    this.reporter = report;
  }

  status(): OwnershipStatus & { instance: string; scope: string; members: { name: string; instance: string; alive: boolean; heartbeatAgeMs: number }[] } {
    const owned = this.owned();
    return {
      kind: this.kind,
      trading: this.running && this.lease.valid,
      partitions: this.partitions,
      owned,
      epochs: Object.fromEntries(owned.map((p) => [p, String(this.epochs.get(p))])),
      lapsed: [...this.lapsedSet].sort((a, b) => a - b),
      lease: {
        ms: this.leaseMs,
        leftMs: Math.round(this.lease.left),
        ageMs: this.lastSent ? Math.max(0, Math.round(this.now() - this.lastSent.mono)) : null,
        renewedAt: this.lastSent ? new Date(this.lastSent.wall).toISOString() : null,
      },
      lastError: this.lastError,
      instance: this.instance,
      scope: this.scope,
      members: [...this.view.members.values()]
        .filter((m) => !m.left)
        .map((m) => ({ name: m.name, instance: m.instance, alive: this.view.alive(m.instance), heartbeatAgeMs: Math.round(this.now() - m.seenAt) })),
    };
  }

  /** Waits until the queued callbacks have run (tests). */
  settled(): Promise<void> {
    return this.state.settled();
  }

  async start(listener: OwnershipListener): Promise<void> {
    if (this.running) throw new Error('Ownership already started');
    this.listener = listener;
    const stored = await groupPartitions(this.options.events, this.streams, this.scope, this.partitions, this.wallNow);
    if (stored !== this.partitions) {
      this.options.onError?.(new Error(`The runner group ${this.scope} cuts bots into ${stored} partitions (${this.streams.settings}), not ${this.partitions}: using ${stored}`));
      this.partitions = stored;
    }
    this.running = true;
    await this.round().catch((err) => this.fail('the first round', err));
    if (!this.options.manual) this.loop = this.runLoop();
  }

  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    this.wake?.();
    await this.loop;
    this.loop = null;
    await this.released();
    if (this.lapseTimer) clearTimeout(this.lapseTimer);
    this.lapseTimer = null;
    const held = [...this.epochs];
    this.epochs.clear();
    await this.state.moveTo([], this.listener, 'stopped'); // every bot let go before anyone may take it
    for (const [p, epoch] of held) {
      await this.append(this.streams.partition(p), PARTITION_RELEASED, { partition: p, reason: 'stopped' }, epoch).catch(() => undefined);
    }
    await this.append(this.streams.members, RUNNER_LEFT, { owner: this.owner, instance: this.instance }, 'any').catch(() => undefined);
    this.lease.revoke();
    this.listener = null;
  }

  private async runLoop(): Promise<void> {
    while (this.running) {
      const began = this.now();
      await new Promise<void>((resolve) => {
        const wait = Math.max(0, this.renewMs - (this.now() - began));
        const t = setTimeout(resolve, wait);
        t.unref?.();
        this.wake = () => {
          clearTimeout(t);
          resolve();
        };
      });
      this.wake = null;
      if (!this.running) return;
      await this.round().catch((err) => this.fail('a round', err));
    }
  }

  /**
   * One round: renew, read who is there and who holds what, let go of what was lost or belongs to another,
   * claim what is ours and free. Public for tests that drive the clocks (`manual`).
   */
  async round(): Promise<void> {
    if (!this.running) return;
    this.checkLapse();
    await this.heartbeat();
    if (!this.lease.valid) return void this.checkLapse();
    await this.view.readMembers();
    await this.view.readHeads(this.partitions);
    // a lapsed partition someone else claimed is theirs now: no longer paused here
    for (const p of [...this.lapsedSet]) {
      const head = this.view.heads.get(p);
      if (head?.type === PARTITION_CLAIMED && head.holder !== this.instance) this.lapsedSet.delete(p);
    }
    if (!this.running || !this.lease.valid) return void this.checkLapse();
    this.dropLost();
    await this.balance();
  }

  // ---------------------------------------------------------------------------------------------
  // The lease

  private async heartbeat(): Promise<void> {
    const validAtSend = this.lease.valid;
    const heldAtSend = this.epochs.size > 0;
    const sent: SentAt = { mono: this.now(), wall: this.wallNow() };
    const data: HeartbeatData = {
      scope: this.scope,
      owner: this.owner,
      instance: this.instance,
      pid: process.pid,
      host: hostname(),
      partitions: this.partitions,
      owned: [...this.epochs.keys()].sort((a, b) => a - b),
      leaseMs: this.leaseMs,
      renewMs: this.renewMs,
      takeoverMs: this.takeoverMs,
      at: sent.wall,
      report: this.safeReport(),
    };
    try {
      await this.append(this.streams.members, RUNNER_HEARTBEAT, data, 'any');
    } catch (err) {
      this.fail('renewing the lease', err);
      return;
    }
    this.lastError = null;
    // a lapsed lease is never extended: a runner that held partitions when it lapsed has let them go first
    if (!validAtSend && heldAtSend) return;
    const wasValid = this.lease.valid;
    this.lease.renewFrom(sent);
    this.lastSent = sent;
    if (!wasValid && this.lease.valid) this.regainedAt = this.now();
    this.armLapseTimer();
  }

  private safeReport(): Record<string, unknown> | null {
    try {
      return this.reporter?.() ?? null;
    } catch {
      return null;
    }
  }

  private armLapseTimer(): void {
    if (this.options.manual) return;
    if (this.lapseTimer) clearTimeout(this.lapseTimer);
    this.lapseTimer = setTimeout(() => this.checkLapse(), Math.ceil(this.lease.left) + 1);
    this.lapseTimer.unref?.();
  }

  /** The lease ran out: every partition is let go at once (owns() is already false), as paused. */
  private checkLapse(): void {
    if (this.lease.valid || this.epochs.size === 0) return;
    const held = [...this.epochs.keys()];
    for (const p of held) this.lapsedSet.add(p);
    this.epochs.clear();
    this.regainedAt = Infinity;
    this.options.log?.(`Ownership lease of ${this.instance} lapsed (${this.lastError ?? 'no renewal confirmed in time'}): letting go of partitions ${held.join(', ')} until it is renewed`);
    void this.state.moveTo([], this.listener, 'lapsed');
  }

  // ---------------------------------------------------------------------------------------------
  // Who holds what

  /** Partitions whose claim is no longer at the head: another runner claimed them (only after this one lapsed). */
  private dropLost(): void {
    const lost: number[] = [];
    for (const [p, epoch] of this.epochs) {
      const head = this.view.heads.get(p);
      if (!head || head.revision !== epoch) lost.push(p);
    }
    if (!lost.length) return;
    for (const p of lost) this.epochs.delete(p);
    this.options.onError?.(new Error(`Partitions ${lost.join(', ')} were claimed by another runner: let go`));
    void this.state.moveTo([...this.epochs.keys()], this.listener, 'lost');
  }

  private async balance(): Promise<void> {
    const members = [{ instance: this.instance, name: this.owner }, ...[...this.view.members.values()].filter((m) => this.view.alive(m.instance)).map((m) => ({ instance: m.instance, name: m.name }))];
    const target = assignPartitions(this.partitions, members);
    const release: { p: number; expected: bigint }[] = [];
    const claim: { p: number; expected: bigint | 'no_stream' }[] = [];
    const now = this.now();
    for (let p = 0; p < this.partitions; p++) {
      if (this.releasing.has(p)) continue;
      const head = this.view.heads.get(p) ?? null;
      const mine = target.get(p) === this.instance;
      const epoch = this.epochs.get(p);
      if (epoch !== undefined) {
        if (!mine) release.push({ p, expected: epoch });
        continue;
      }
      if (head?.holder === this.instance) {
        // our own claim, no longer held (the lease lapsed, or a release failed): take it again or give it up
        if (mine) claim.push({ p, expected: head.revision });
        else release.push({ p, expected: head.revision });
        continue;
      }
      const free = !head || head.holder === null || this.view.silent(head.holder, p, this.regainedAt);
      if (!free) {
        this.freeSince.delete(p);
        continue;
      }
      if (!this.freeSince.has(p)) this.freeSince.set(p, now);
      if (mine || now - this.freeSince.get(p)! >= this.takeoverMs) claim.push({ p, expected: head ? head.revision : 'no_stream' });
    }
    for (const { p, expected } of release) this.release(p, expected, target.get(p) ?? null);
    // claims of different partitions are independent: made together (one group commit on SQLite)
    const claimed = await Promise.all(
      claim.map(async ({ p, expected }) => {
        if (!this.running || !this.lease.valid) return null;
        try {
          const result = await this.append(this.streams.partition(p), PARTITION_CLAIMED, { partition: p, scope: this.scope, owner: this.owner, instance: this.instance }, expected);
          return { p, epoch: result.nextExpectedRevision };
        } catch (err) {
          if (!(err instanceof WrongExpectedVersionError)) this.fail(`claiming partition ${p}`, err); // else someone got there first: seen next round
          return null;
        }
      }),
    );
    let any = false;
    for (const c of claimed) {
      if (!c || !this.running) continue;
      this.epochs.set(c.p, c.epoch);
      this.lapsedSet.delete(c.p);
      this.freeSince.delete(c.p);
      any = true;
    }
    if (any) void this.state.moveTo([...this.epochs.keys()], this.listener);
  }

  /**
   * Lets the partition's bots go, then says so in its stream (so that its next holder may start at once),
   * beside the rounds: the heartbeats never wait for bots being let go.
   */
  private release(p: number, expected: bigint, to: string | null): void {
    if (this.releasing.has(p)) return;
    const held = this.epochs.delete(p);
    this.lapsedSet.delete(p);
    const done = (async () => {
      if (held) await this.state.moveTo([...this.epochs.keys()], this.listener, 'handover' satisfies RevokeReason);
      try {
        await this.append(this.streams.partition(p), PARTITION_RELEASED, { partition: p, scope: this.scope, owner: this.owner, instance: this.instance, to }, expected);
      } catch (err) {
        if (!(err instanceof WrongExpectedVersionError)) this.fail(`releasing partition ${p}`, err); // our claim stays at the head: released again next round
      }
    })().finally(() => this.releasing.delete(p));
    this.releasing.set(p, done);
  }

  /** Releases under way (their bots being let go), by partition. */
  private readonly releasing = new Map<number, Promise<void>>();

  /** Waits for the releases under way (tests, stop). */
  async released(): Promise<void> {
    await Promise.all([...this.releasing.values()]);
  }

  private append(stream: string, type: string, data: object, expected: bigint | 'no_stream' | 'any') {
    return this.options.events.append(stream, [ownershipEvent(type, data, this.wallNow)], expected);
  }

  private fail(what: string, err: unknown): void {
    const message = (err as Error)?.message ?? String(err);
    this.lastError = `${what}: ${message}`;
    this.options.onError?.(new Error(`Ownership (${this.instance}), ${what}: ${message}`));
  }
}
