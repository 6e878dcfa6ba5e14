import { Logger, Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { APP_CONFIG, AppConfig } from '@gridrocket/shared/runtime';
import { join } from 'node:path';
import { EVENT_STORE, EventStore } from '@gridrocket/event-store';
import { MongoRateLimitStore, RATE_LIMIT_STORE, RateLimitStore, SqliteRateLimitStore } from '@gridrocket/read-store';
import { BOT_OWNERSHIP, BotOwnership, EmbeddedOwnership, FencedOwnership, LeaseOwnership, ownershipSettingsFromEnv } from '@gridrocket/streaming';
import { GridRunnerService } from './runner/grid-runner.service';
import { hostname } from 'node:os';

/**
 * Which bots this runner runs (docs/streaming.md, "Scale-out"): all of them (embedded: one partition, claimed
 * in the event store, FencedOwnership), or, with RUNNER_OWNERSHIP=leases (the default of a separate runner
 * process and wherever KAFKA_BROKERS is set), the partitions its lease in the event store gives it among the
 * group's live runners (LeaseOwnership, issue 41: trading no longer depends on Kafka).
 */
export function createOwnership(config: AppConfig, events: EventStore, env: NodeJS.ProcessEnv = process.env): BotOwnership {
  const settings = ownershipSettingsFromEnv(env, { kafkaBrokers: config.kafkaBrokers });
  const logger = new Logger('Ownership');
  const owner = env.RUNNER_NAME || `runner-${hostname()}-${process.pid}`;
  if (settings.kind === 'embedded') return new FencedOwnership(new EmbeddedOwnership(), events, { scope: settings.scope, owner: `runner-${process.pid}` });
  return new LeaseOwnership({
    events,
    scope: settings.scope,
    owner,
    partitions: settings.partitions,
    leaseMs: settings.leaseMs,
    renewMs: settings.renewMs,
    takeoverMs: settings.takeoverMs,
    onError: (err) => logger.warn(err.message),
    log: (m) => logger.warn(m),
  });
}

/** The grid runner. Needs EXCHANGE_PROVIDER (CredentialsModule, global) and the event and read stores. */
@Module({
  imports: [CqrsModule],
  providers: [
    {
      provide: BOT_OWNERSHIP,
      inject: [APP_CONFIG, EVENT_STORE],
      // epochs in the event store (issue 12): a deposed runner's appends are refused
      useFactory: (config: AppConfig, events: EventStore) => createOwnership(config, events),
    },
    {
      // the exchange rate limit per user and exchange, shared by every runner: MongoDB where the read store is, else a file
      provide: RATE_LIMIT_STORE,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig): Promise<RateLimitStore> | RateLimitStore =>
        config.readStore.kind === 'mongodb' ? new MongoRateLimitStore(config.readStore.url).connect() : new SqliteRateLimitStore(join(config.dataDir, 'limits.sqlite')),
    },
    GridRunnerService,
  ],
  exports: [GridRunnerService],
})
export class TradingModule {}
