import { Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { APP_CONFIG, AppConfig } from '@gridrocket/shared/runtime';
import { join } from 'node:path';
import { EVENT_STORE, EventStore } from '@gridrocket/event-store';
import { MongoRateLimitStore, RATE_LIMIT_STORE, RateLimitStore, SqliteRateLimitStore } from '@gridrocket/read-store';
import { BOT_OWNERSHIP, BotOwnership, EmbeddedOwnership, FencedOwnership, KafkaOwnership, createKafka } from '@gridrocket/streaming';
import { GridRunnerService } from './runner/grid-runner.service';

/**
 * Which bots this runner runs: all of them (embedded), or, when KAFKA_BROKERS is set, the
 * partitions a Kafka consumer group hands it, so several runners share the fleet.
 */
export function createOwnership(config: AppConfig): BotOwnership {
  if (!config.kafkaBrokers.length) return new EmbeddedOwnership();
  return new KafkaOwnership({
    kafka: createKafka({ brokers: config.kafkaBrokers, clientId: `gridrocket-runner-${process.pid}` }),
    groupId: process.env.RUNNER_GROUP ?? 'gridrocket-runners',
    partitions: process.env.RUNNER_PARTITIONS ? Number(process.env.RUNNER_PARTITIONS) : undefined,
  });
}

/** The grid runner. Needs EXCHANGE_PROVIDER (CredentialsModule, global) and the event and read stores. */
@Module({
  imports: [CqrsModule],
  providers: [
    {
      provide: BOT_OWNERSHIP,
      inject: [APP_CONFIG, EVENT_STORE],
      // the epoch fence in the event store (issue 12): a deposed runner's appends are refused
      useFactory: (config: AppConfig, events: EventStore) =>
        new FencedOwnership(createOwnership(config), events, { scope: process.env.RUNNER_GROUP ?? 'runners', owner: `runner-${process.pid}` }),
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
