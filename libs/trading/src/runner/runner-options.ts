/** What a GridRunner is built with. */
import type { EventStore } from '@gridrocket/event-store';
import type { ReadStore } from '@gridrocket/read-store';
import type { BotOwnership, OwnershipStatus, RunnerBotsReport } from '@gridrocket/streaming';
import type { ExchangeProvider } from '@gridrocket/exchanges';

export interface CommandExecutor {
  execute<T = any>(command: object): Promise<T>;
}

export interface RunnerMetrics {
  /** Bots trading now (paused ones not counted); where `watchRunner` is there, it reads the report at scrape time instead. */
  setRunningBots(count: number): void;
  /** The runner's own report, read when the metrics are scraped (gridrocket_running_bots, gridrocket_paused_bots). */
  watchRunner?(report: () => RunnerBotsReport): void;
  /** The ownership adapter's status, read when scraped (gridrocket_runner_trading, …_owned_partitions, …_lease_age_seconds). */
  watchOwnership?(status: () => OwnershipStatus | null): void;
  exchangeError(exchange: string, kind?: string): void;
  /** One difference the watchdog recorded: a drift kind or a not-trading reason (gridrocket_watchdog_findings_total). */
  watchdogFinding?(kind: string): void;
  declareWatchdogKinds?(kinds: readonly string[]): void;
}

export interface RunnerLogger {
  log(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export interface GridRunnerOptions {
  events: EventStore;
  reads: ReadStore;
  commands: CommandExecutor;
  exchanges: ExchangeProvider;
  ownership: BotOwnership;
  metrics?: RunnerMetrics;
  logger?: RunnerLogger;
  /** The pid written into BotStarted / BotResumed (default process.pid). */
  pid?: number;
  /** Reactor (checkpoint) name; two runners sharing one read store need different names. */
  name?: string;
  /** Fill polling interval for ports without push (ccxt). */
  pollMs?: number;
  /** Backoff of retryable exchange errors. */
  retryBaseMs?: number;
  retryMaxMs?: number;
  /** Per user+exchange token bucket for non-paper exchanges. */
  rateLimit?: { capacity: number; perSecond: number };
  /** A rate limiter shared by every runner (per user and exchange, in the read store); default: one per process. */
  rateLimiter?: SharedLimiters;
  /**
   * On the paper venue: how many bots react to fills at once (reaction-gate.ts), default 32; 0: no limit.
   * Live venues are never gated (their calls take network time, a wave would only wait on them).
   */
  reactionWave?: number;
  /**
   * The watchdog's period (docs/watchdog.md): every running bot of this runner is compared with the
   * venue this often. Default 60 000 ms (WATCHDOG_PERIOD_MS); 0 turns the schedule off (checks on demand still run).
   */
  watchdogMs?: number;
  /** The watchdog's clock (wall-clock ms; tests may pass their own). */
  now?: () => number;
  /** Told when a bot has converged after a fill or a (re)start (bench, tests). */
  onConverged?: (botId: string) => void;
}


/** Token buckets by key: `take()` resolves when a call may go out. */
export interface SharedLimiters {
  for(key: string): { take(): Promise<void> };
}
