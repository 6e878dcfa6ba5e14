import { randomUUID } from 'node:crypto';
import type { NewEvent } from '@gridrocket/event-store';

/** The ownership streams' event types (PartitionClaimed: fenced.ownership.ts, shared with the embedded adapter). */
export const PARTITION_RELEASED = 'PartitionReleased';
export const RUNNER_HEARTBEAT = 'RunnerHeartbeat';
export const RUNNER_LEFT = 'RunnerLeft';
export const OWNERSHIP_SETTINGS = 'OwnershipSettings';

/** Defaults (docs/resilience.md, "Bot ownership: leases in the event store"). */
export const LEASE_MS = 6_000;
export const RENEW_MS = 2_000;
export const LEASE_PARTITIONS = 24;

/** The streams of one runner group: claims per partition, the members' heartbeats, the partition count. */
export function ownershipStreams(scope: string) {
  return {
    partition: (p: number) => `ownership-${scope}-p${p}`,
    members: `ownership-${scope}-members`,
    settings: `ownership-${scope}-settings`,
  };
}

/** What a heartbeat says (the fleet view of the API reads it: lease-fleet.ts). */
export interface HeartbeatData {
  scope: string;
  owner: string;
  instance: string;
  pid: number;
  host: string;
  partitions: number;
  owned: number[];
  leaseMs: number;
  renewMs: number;
  takeoverMs: number;
  /** Wall-clock ms when it was sent (for display only: the protocol never compares clocks of two processes). */
  at: number;
  /** The runner's own account of its bots (GridRunner.report()). */
  report: Record<string, unknown> | null;
}

/** An ownership event (the runner is its author). */
export function ownershipEvent(type: string, data: object, wallNow: () => number): NewEvent {
  return {
    id: randomUUID(),
    type,
    data,
    metadata: { userId: 'runner', correlationId: randomUUID(), causationId: null, occurredAt: new Date(wallNow()).toISOString(), schemaVersion: 1 },
  };
}
