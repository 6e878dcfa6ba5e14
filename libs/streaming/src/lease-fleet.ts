import type { EventStore, RecordedEvent } from '@gridrocket/event-store';
import { StreamNotFoundError } from '@gridrocket/event-store';
import { PARTITION_CLAIMED } from './fenced.ownership';
import { ownershipStreams, RUNNER_HEARTBEAT, RUNNER_LEFT, type HeartbeatData } from './lease-streams';
import { botPartitionOf } from './partitions';

/** Why a bot that should trade does not (runner /health and /metrics, GridRunner.report()). */
export const PAUSE_REASONS = ['ownership', 'venue-rate-limit', 'venue-errors'] as const;
export type PauseReason = (typeof PAUSE_REASONS)[number];

/** What a runner says about its bots (GridRunner.report(); carried by its heartbeats). */
export interface RunnerBotsReport {
  /** Bots trading now. */
  running: number;
  /** Bots that should trade and do not, by reason. */
  paused: Record<PauseReason, number>;
  /** Bots being started or resumed. */
  starting: number;
}

export interface FleetMember {
  name: string;
  instance: string | null;
  pid: number;
  host: string;
  /** Its heartbeat came within its takeover time (by the wall clock of this process: display only). */
  alive: boolean;
  heartbeatAgeSeconds: number;
  /** Partitions whose latest claim is its. */
  partitions: number[];
  running: number;
  paused: Record<PauseReason, number>;
}

/** The runners of a group as the event store shows them (the API's health and metrics). */
export interface RunnerFleet {
  ownership: 'leases' | 'embedded';
  partitions: number;
  members: FleetMember[];
  /** Partitions no live runner holds: their bots do not trade. */
  unowned: number[];
}

/** The fleet's figures: what /api/health shows under `runners` and /metrics counts. */
export interface FleetSummary extends RunnerFleet {
  /** False while some bot that should trade has no runner that can trade it. */
  trading: boolean;
  runningBots: number;
  pausedBots: Record<PauseReason, number>;
}

export const noPauses = (): Record<PauseReason, number> => ({ ownership: 0, 'venue-rate-limit': 0, 'venue-errors': 0 });

function asReport(value: unknown): RunnerBotsReport | null {
  const r = value as Partial<RunnerBotsReport> | null;
  if (!r || typeof r.running !== 'number') return null;
  const paused = noPauses();
  for (const k of PAUSE_REASONS) paused[k] = Number((r.paused as Record<string, unknown> | undefined)?.[k]) || 0;
  return { running: r.running, paused, starting: Number(r.starting) || 0 };
}

/**
 * Reads the group's runners from the event store: their latest heartbeats (ownership-<scope>-members) and who
 * holds each partition (the head of ownership-<scope>-p<n>). Null when the group has never had a leased runner.
 */
export async function readRunnerFleet(events: EventStore, scope: string, wallNow: () => number = Date.now): Promise<RunnerFleet | null> {
  const streams = ownershipStreams(scope);
  const read = async (stream: string, options: Parameters<EventStore['readStream']>[1]): Promise<RecordedEvent[]> => {
    try {
      return await events.readStream(stream, options);
    } catch (err) {
      if (err instanceof StreamNotFoundError) return [];
      throw err;
    }
  };
  const [settings] = await read(streams.settings, { maxCount: 1 });
  const partitions = Number((settings?.data as { partitions?: unknown } | undefined)?.partitions);
  if (!settings || !Number.isInteger(partitions) || partitions <= 0) return null;
  const latest = new Map<string, HeartbeatData>();
  const left = new Set<string>();
  for (const e of await read(streams.members, { direction: 'backwards', maxCount: 500 })) {
    const d = e.data as HeartbeatData;
    if (typeof d.instance !== 'string' || latest.has(d.instance) || left.has(d.instance)) continue;
    if (e.type === RUNNER_LEFT) left.add(d.instance);
    else if (e.type === RUNNER_HEARTBEAT) latest.set(d.instance, d);
  }
  const holders = await Promise.all(
    Array.from({ length: partitions }, async (_, p) => {
      const [head] = await read(streams.partition(p), { direction: 'backwards', maxCount: 1 });
      return head?.type === PARTITION_CLAIMED ? String((head.data as { instance?: unknown }).instance ?? '') : null;
    }),
  );
  const now = wallNow();
  const members: FleetMember[] = [];
  for (const d of latest.values()) {
    const held = holders.flatMap((h, p) => (h === d.instance ? [p] : []));
    const age = Math.max(0, now - Number(d.at));
    const alive = age < Number(d.takeoverMs || 0);
    if (!alive && held.length === 0) continue; // gone, and nothing of it left
    const report = asReport(d.report);
    members.push({
      name: d.owner,
      instance: d.instance,
      pid: d.pid,
      host: d.host,
      alive,
      heartbeatAgeSeconds: Math.round(age / 100) / 10,
      partitions: held,
      running: alive ? (report?.running ?? 0) : 0,
      paused: alive && report ? report.paused : noPauses(),
    });
  }
  const alive = new Set(members.filter((m) => m.alive).map((m) => m.instance));
  const unowned = holders.flatMap((h, p) => (h !== null && alive.has(h) ? [] : [p]));
  members.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { ownership: 'leases', partitions, members, unowned };
}

/**
 * The fleet's figures: bots running as the live runners report them; paused, their pauses plus every active
 * bot (`activeBotIds`: what the bot list says should run) of a partition no live runner holds. Pure.
 */
export function summariseFleet(fleet: RunnerFleet, activeBotIds: readonly string[]): FleetSummary {
  const pausedBots = noPauses();
  let runningBots = 0;
  for (const m of fleet.members) {
    runningBots += m.running;
    for (const k of PAUSE_REASONS) pausedBots[k] += m.paused[k];
  }
  if (fleet.ownership === 'leases' && fleet.unowned.length) {
    const unowned = new Set(fleet.unowned);
    for (const id of activeBotIds) if (unowned.has(botPartitionOf(id, fleet.partitions))) pausedBots.ownership++;
  }
  return { ...fleet, trading: pausedBots.ownership === 0, runningBots, pausedBots };
}
