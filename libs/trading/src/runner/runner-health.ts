/**
 * What a runner says on its /health (issue 41): whether it can trade, its ownership (partitions, epochs,
 * lease age), its bots running and paused with why, and its consumers of the log. `status` is `ok` only
 * while it can trade every bot it should: never while its lease has lapsed (it cannot reach the event store
 * its lease lives in), while bots are paused for ownership, or while its reactor retries.
 */
import type { ConsumerStatus, ReadStore } from '@gridrocket/read-store';
import { runningReactors } from '@gridrocket/read-store';
import type { BotOwnership, OwnershipStatus, RunnerBotsReport } from '@gridrocket/streaming';
import type { GridRunner } from './grid-runner';

export interface RunnerHealth {
  status: 'ok' | 'degraded';
  /** False while this runner may not act for its bots (its lease lapsed, or it is stopped). */
  trading: boolean;
  runner: string;
  pid: number;
  ownership: OwnershipStatus;
  bots: RunnerBotsReport;
  consumers: ConsumerStatus[];
}

export async function runnerHealth(runner: GridRunner, ownership: BotOwnership, reads: ReadStore): Promise<RunnerHealth> {
  const status: OwnershipStatus = ownership.status?.() ?? {
    kind: ownership.kind,
    trading: true,
    partitions: ownership.partitionCount,
    owned: ownership.owned(),
    epochs: {},
    lapsed: [],
    lease: null,
    lastError: null,
  };
  const bots = runner.report();
  const consumers = await Promise.all(runningReactors(reads).map((r) => r.status()));
  const ok = status.trading && bots.paused.ownership === 0 && consumers.every((c) => c.state !== 'retrying');
  return { status: ok ? 'ok' : 'degraded', trading: status.trading, runner: runner.name, pid: runner.pid, ownership: status, bots, consumers };
}
