import { LEASE_MS, LEASE_PARTITIONS, RENEW_MS } from './lease-streams';

/** How a process's runner decides which bots it runs (docs/streaming.md, "Scale-out"). */
export interface OwnershipSettings {
  /** `embedded`: this runner runs every bot; `leases`: runners share the bots through leases in the event store. */
  kind: 'embedded' | 'leases';
  /** RUNNER_GROUP: names the ownership streams (`ownership-<group>-…`). */
  scope: string;
  partitions: number;
  leaseMs: number;
  renewMs: number;
  /** Undefined: the adapter's default (2 × lease + renewal). */
  takeoverMs?: number;
}

function positiveInt(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`${name} must be a whole number above 0 (got ${JSON.stringify(raw)})`);
  return n;
}

/**
 * RUNNER_OWNERSHIP (`embedded` or `leases`; default: `leases` in a separate runner process, apps/runner, and
 * wherever KAFKA_BROKERS is set, as the Kafka group was before issue 41; else `embedded`), RUNNER_GROUP
 * (default `runners`), RUNNER_PARTITIONS (default 24: the most runners that help), RUNNER_LEASE_MS (default
 * 6000), RUNNER_RENEW_MS (default 2000, at most half the lease), RUNNER_TAKEOVER_MS (default twice the lease
 * plus a renewal; must be longer than twice the lease).
 */
export function ownershipSettingsFromEnv(env: NodeJS.ProcessEnv, o: { kafkaBrokers?: readonly string[]; separateRunner?: boolean } = {}): OwnershipSettings {
  const raw = (env.RUNNER_OWNERSHIP ?? '').trim().toLowerCase();
  if (raw && raw !== 'embedded' && raw !== 'leases') throw new Error(`RUNNER_OWNERSHIP must be embedded or leases (got ${JSON.stringify(env.RUNNER_OWNERSHIP)})`);
  const kind = (raw || (o.separateRunner || (o.kafkaBrokers?.length ?? 0) > 0 ? 'leases' : 'embedded')) as OwnershipSettings['kind'];
  const leaseMs = positiveInt(env, 'RUNNER_LEASE_MS', LEASE_MS);
  return {
    kind,
    scope: (env.RUNNER_GROUP ?? '').trim() || 'runners',
    partitions: positiveInt(env, 'RUNNER_PARTITIONS', LEASE_PARTITIONS),
    leaseMs,
    renewMs: positiveInt(env, 'RUNNER_RENEW_MS', Math.min(RENEW_MS, Math.floor(leaseMs / 3))),
    takeoverMs: env.RUNNER_TAKEOVER_MS ? positiveInt(env, 'RUNNER_TAKEOVER_MS', 0) : undefined,
  };
}
