/**
 * What a runner says about its bots (issue 41): how many trade now, and how many should and do not, with why.
 * Read by the runner's /health and /metrics (gridrocket_running_bots counts only bots trading, never paused
 * ones) and carried by its ownership heartbeats to the API's health. Pure over what it is given.
 */
import type { BotOwnership, RunnerBotsReport } from '@gridrocket/streaming';
import { noPauses } from '@gridrocket/streaming';

/** The part of a BotTask the report reads. */
export interface ReportedTask {
  botId: string;
  started: boolean;
  ready: boolean;
  released: boolean;
  rateLimitedUntil: number;
  retryTimer: unknown;
}

/**
 * `tasks`: the bots attached here; `failures`: retries in a row per bot (backing off after venue errors);
 * `lapsed`: bots this runner was running when its ownership lease lapsed (let go, paused until it or another
 * runner claims their partition again: those the adapter no longer lists as lapsed are dropped from it).
 */
export function botsReport(o: {
  tasks: Iterable<ReportedTask>;
  ownership: BotOwnership;
  failures: ReadonlyMap<string, number>;
  lapsed: Set<string>;
  now: number;
}): RunnerBotsReport {
  const paused = noPauses();
  let running = 0;
  let starting = 0;
  const attached = new Set<string>();
  for (const t of o.tasks) {
    if (t.released) continue;
    attached.add(t.botId);
    if (!t.started || !t.ready) starting++;
    else if (!o.ownership.owns(t.botId)) paused.ownership++;
    else if (t.rateLimitedUntil > o.now) paused['venue-rate-limit']++;
    else if (t.retryTimer || (o.failures.get(t.botId) ?? 0) > 0) paused['venue-errors']++;
    else running++;
  }
  const lapsedPartitions = o.lapsed.size && o.ownership.status ? new Set(o.ownership.status().lapsed) : null;
  for (const id of [...o.lapsed]) {
    if (attached.has(id) || (lapsedPartitions && !lapsedPartitions.has(o.ownership.partitionOf(id)))) o.lapsed.delete(id);
    else paused.ownership++;
  }
  return { running, paused, starting };
}
