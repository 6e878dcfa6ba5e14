import { createHash } from 'node:crypto';

/** A runner as the lease adapter's balancing sees it. */
export interface LeaseMember {
  /** Unique per process start. */
  instance: string;
  /** The runner's name (RUNNER_NAME): what its share of the partitions is hashed by, so a restart gets it back. */
  name: string;
}

function weight(name: string, partition: number): number {
  return createHash('sha1').update(`${name}/${partition}`).digest().readUInt32BE(0);
}

/**
 * Which live runner should hold each partition: rendezvous hashing with bounded loads. Every runner
 * computes it from its own view of who is live, so views that agree give the same answer without any
 * message between them. Each member gets ⌊n/m⌋ or ⌈n/m⌉ partitions (the extra ones to the first members
 * by name), so every live runner has work; each partition goes to the member that ranks it highest
 * (sha1 of name and partition) among those with room left, so a runner coming or going moves about its
 * own share and little else. Pure: no clock, no I/O.
 */
export function assignPartitions(partitions: number, members: readonly LeaseMember[]): Map<number, string> {
  const out = new Map<number, string>();
  if (members.length === 0 || partitions <= 0) return out;
  const sorted = [...members].sort((a, b) => (a.name === b.name ? (a.instance < b.instance ? -1 : 1) : a.name < b.name ? -1 : 1));
  const base = Math.floor(partitions / sorted.length);
  const extra = partitions % sorted.length;
  const room = new Map(sorted.map((m, i) => [m.instance, base + (i < extra ? 1 : 0)]));
  for (let p = 0; p < partitions; p++) {
    const ranked = sorted
      .map((m) => ({ m, w: weight(m.name, p) }))
      .sort((a, b) => (b.w !== a.w ? b.w - a.w : a.m.instance < b.m.instance ? -1 : 1));
    const chosen = ranked.find((r) => (room.get(r.m.instance) ?? 0) > 0)!;
    room.set(chosen.m.instance, room.get(chosen.m.instance)! - 1);
    out.set(p, chosen.m.instance);
  }
  return out;
}
