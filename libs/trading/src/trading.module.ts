import { Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { APP_CONFIG, AppConfig } from '@gridrocket/shared/runtime';
import { BOT_OWNERSHIP, BotOwnership, EmbeddedOwnership, KafkaOwnership, createKafka } from '@gridrocket/streaming';
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
  providers: [{ provide: BOT_OWNERSHIP, inject: [APP_CONFIG], useFactory: createOwnership }, GridRunnerService],
  exports: [GridRunnerService],
})
export class TradingModule {}
