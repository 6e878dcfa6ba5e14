import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown, Optional } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { EVENT_STORE, EventStore } from '@gridrocket/event-store';
import { RATE_LIMIT_STORE, READ_STORE, RateLimitStore, ReadStore, SharedRateLimiters } from '@gridrocket/read-store';
import { BOT_OWNERSHIP, BotOwnership, MetricsService } from '@gridrocket/streaming';
import type { ExchangeProvider } from '@gridrocket/exchanges';
import { EXCHANGE_PROVIDER } from '@gridrocket/credentials';
import { GridRunner } from './grid-runner';
import { runnerHealth, type RunnerHealth } from './runner-health';

/** The grid runner in a Nest app (the API in embedded mode, or apps/runner alone). */
@Injectable()
export class GridRunnerService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('GridRunner');
  readonly runner: GridRunner;

  constructor(
    commands: CommandBus,
    @Inject(EVENT_STORE) events: EventStore,
    @Inject(READ_STORE) private readonly reads: ReadStore,
    @Inject(EXCHANGE_PROVIDER) exchanges: ExchangeProvider,
    @Inject(BOT_OWNERSHIP) readonly ownership: BotOwnership,
    @Optional() metrics?: MetricsService,
    @Optional() @Inject(RATE_LIMIT_STORE) private readonly limits?: RateLimitStore,
  ) {
    this.runner = new GridRunner({
      events,
      reads,
      commands,
      exchanges,
      ownership,
      metrics,
      logger: { log: (m) => this.logger.log(m), warn: (m) => this.logger.warn(m), error: (m) => this.logger.error(m) },
      pollMs: exchanges.mode === 'paper' ? 1000 : 2000,
      // one budget per user and exchange across every runner (issue 12)
      rateLimiter: limits ? new SharedRateLimiters(limits, 10, 8, (err) => this.logger.warn(`Shared rate limit unavailable: ${err.message}`)) : undefined,
      // the reactor's checkpoint is this runner's own (runners sharing a read store must not share it)
      name: process.env.RUNNER_NAME || undefined,
      // the watchdog's period (docs/watchdog.md): WATCHDOG_PERIOD_MS, default 60 000; 0 turns the schedule off ("Check now" still runs)
      watchdogMs: watchdogPeriod(process.env.WATCHDOG_PERIOD_MS),
    });
  }

  async onApplicationBootstrap() {
    await this.runner.start();
  }

  /** The runner's /health (apps/runner) and its part of the API's health (issue 41). */
  health(): Promise<RunnerHealth> {
    return runnerHealth(this.runner, this.ownership, this.reads);
  }

  async onApplicationShutdown() {
    await this.runner.stop();
    await this.limits?.close();
  }
}

/** WATCHDOG_PERIOD_MS: unset → the default (undefined); 0 → off; a whole number of ms ≥ 1000; anything else refused at start. */
export function watchdogPeriod(value: string | undefined): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const ms = Number(value);
  if (ms === 0) return 0;
  if (!Number.isInteger(ms) || ms < 1000) throw new Error(`WATCHDOG_PERIOD_MS must be 0 (off) or a whole number of milliseconds of at least 1000 (got ${value})`);
  return ms;
}
