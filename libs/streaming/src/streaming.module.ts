import {
  BeforeApplicationShutdown,
  Global,
  Inject,
  Injectable,
  Logger,
  Module,
  OnApplicationBootstrap,
  OnModuleInit,
  Optional,
} from '@nestjs/common';
import { CommandBus, CqrsModule } from '@nestjs/cqrs';
import { EVENT_STORE, EventStore, Subscription, resubscribing } from '@gridrocket/event-store';
import { ConsumerStatus, Projector, READ_STORE, ReadStore, runningReactors } from '@gridrocket/read-store';
import { APP_CONFIG, AppConfig, OPS_METER } from '@gridrocket/shared/runtime';
import { AppError } from '@gridrocket/shared';
import { EVENT_SINK, EventSink } from './event-sink.port';
import { Forwarder } from './forwarder';
import { InProcessSink } from './in-process.sink';
import { kafkaSettingsFromEnv } from './kafka.client';
import { KafkaSink } from './kafka.sink';
import { MetricsService } from './metrics.service';
import { defaultTopicMap } from './stream-message';
import { readRunnerFleet, summariseFleet, type FleetSummary } from './lease-fleet';

/** Wraps the sink the configuration chose (fault injection in tests); identity when not provided. */
export const EVENT_SINK_WRAPPER = Symbol('EVENT_SINK_WRAPPER');

/** The bot list's collection (bots context); a string here so that streaming does not depend on bots. */
const BOT_LIST = 'bots';

/** Every checkpointed consumer of the log in this process, with its state (GET /api/health, /metrics). */
export async function consumerStatuses(projector: Projector | null, forwarder: Forwarder | null, reads: ReadStore): Promise<ConsumerStatus[]> {
  const all: Promise<ConsumerStatus>[] = [];
  if (projector) all.push(projector.status());
  if (forwarder && forwarder.health().running) all.push(forwarder.status());
  for (const r of runningReactors(reads)) all.push(r.status());
  return Promise.all(all);
}

export function createSink(config: AppConfig, env: NodeJS.ProcessEnv = process.env, metrics?: MetricsService): EventSink {
  if (!config.kafkaBrokers.length) return new InProcessSink();
  const settings = kafkaSettingsFromEnv({ ...env, KAFKA_BROKERS: config.kafkaBrokers.join(',') })!;
  const logger = new Logger('KafkaSink');
  return new KafkaSink(settings, undefined, {
    onProducerReset: (err) => {
      metrics?.producerResets.inc();
      logger.warn(`Fatal producer error (${err.message}): closed the producer, the retry connects a new one`);
    },
  });
}

/**
 * The group's runners as the event store shows them (issue 41): their heartbeats and who holds each
 * partition, with the bot list's active bots of partitions no live runner holds counted as paused. Read at
 * most once a second (health and metrics share it). Null where no leased runner ever ran.
 */
@Injectable()
export class FleetWatch {
  private cached: { at: number; value: Promise<FleetSummary | null> } | null = null;
  readonly scope: string;

  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(READ_STORE) private readonly reads: ReadStore,
  ) {
    this.scope = (process.env.RUNNER_GROUP ?? '').trim() || 'runners';
  }

  summary(): Promise<FleetSummary | null> {
    if (!this.cached || Date.now() - this.cached.at > 1000) {
      this.cached = { at: Date.now(), value: this.read().catch(() => null) };
    }
    return this.cached.value;
  }

  private async read(): Promise<FleetSummary | null> {
    const fleet = await readRunnerFleet(this.events, this.scope);
    if (!fleet) return null;
    const active = fleet.unowned.length ? (await this.reads.find<{ id: string }>(BOT_LIST, { status: 'running' })).map((b) => b.id) : [];
    return summariseFleet(fleet, active);
  }
}

/**
 * Starts the forwarder (in the background, retrying while Kafka is away, so the
 * API serves meanwhile), counts commands and appended events, and feeds the
 * lag gauges. Stops before the stores close.
 */
@Injectable()
export class StreamingLifecycle implements OnModuleInit, OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('Streaming');
  private meter: Subscription | null = null;
  private meterLoop: Promise<void> | null = null;
  private starting: Promise<void> | null = null;
  private shuttingDown = false;

  constructor(
    private readonly forwarder: Forwarder,
    private readonly metrics: MetricsService,
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(READ_STORE) private readonly reads: ReadStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly projector: Projector,
    private readonly fleet: FleetWatch,
    @Optional() private readonly commands?: CommandBus,
  ) {}

  onModuleInit() {
    this.countCommands();
  }

  /** Every command through the bus is counted and timed, by name and outcome. */
  private countCommands() {
    const bus = this.commands as (CommandBus & { __metered?: boolean }) | undefined;
    if (!bus || bus.__metered) return;
    bus.__metered = true;
    const metrics = this.metrics;
    // each command the bus gets a handler for has its series at 0 from the start (CqrsModule registers
    // the handlers on bootstrap, after this); the command class is the handler's @CommandHandler metadata
    // ('__commandHandler__', @nestjs/cqrs decorators/constants, not exported by its index)
    const register = bus.register.bind(bus);
    bus.register = (handlers = []) => {
      register(handlers);
      for (const handler of handlers) {
        const command = handler.metatype ? (Reflect.getMetadata('__commandHandler__', handler.metatype) as { name?: string } | undefined) : undefined;
        if (command?.name) metrics.declareCommand(command.name);
      }
    };
    const original = bus.execute.bind(bus);
    bus.execute = (async (command: object) => {
      const name = command?.constructor?.name ?? 'unknown';
      const started = process.hrtime.bigint();
      const seconds = () => Number(process.hrtime.bigint() - started) / 1e9;
      try {
        const result = await original(command as never);
        metrics.commandHandled(name, 'ok', seconds());
        return result;
      } catch (err) {
        metrics.commandHandled(name, err instanceof AppError && err.status < 500 ? 'rejected' : 'failed', seconds());
        throw err;
      }
    }) as CommandBus['execute'];
  }

  async onApplicationBootstrap() {
    this.metrics.setSource('headPosition', async () => Number(await this.events.headPosition()));
    this.metrics.setSource('projectionLag', async () => {
      const head = await this.events.headPosition();
      const at = this.projector.health().position;
      return Number(head > at ? head - at : 0n);
    });
    this.metrics.setConsumers(() => consumerStatuses(this.config.projections ? this.projector : null, this.forwarder, this.reads));
    this.metrics.setSource('runningBots', () => this.reads.count(BOT_LIST, { status: 'running' }).catch(() => null));
    // no runner in this process (scaled out): the runners' heartbeats say what trades (a runner here reports itself)
    this.metrics.watchFleet(() => this.fleet.summary());
    if (this.config.forwarder) {
      this.metrics.setSource('forwarderLag', async () => Number((await this.forwarder.lag()).behind));
      this.metrics.setSource('forwarderDelivering', () => (this.forwarder.health().delivering ? 1 : 0));
      this.metrics.setSource('forwarderUndeliveredSeconds', async () => (await this.forwarder.delivery()).undeliveredSeconds);
      this.metrics.setSource('forwarderLastDelivery', async () => {
        const at = (await this.forwarder.delivery()).lastDeliveryAt;
        return at === null ? null : Date.parse(at) / 1000;
      });
      this.metrics.setSource('forwarderBuffered', () => this.forwarder.buffered);
      this.starting = this.startForwarder();
    }
    this.startMeter();
  }

  private async startForwarder() {
    for (let attempt = 1; !this.shuttingDown; attempt++) {
      try {
        await this.forwarder.start();
        this.logger.log(`Forwarding events to ${this.forwarder.name} from position ${this.forwarder.position}`);
        return;
      } catch (err) {
        this.logger.warn(`Forwarder could not start (attempt ${attempt}): ${(err as Error).message}`);
        await new Promise((r) => setTimeout(r, Math.min(30_000, 500 * attempt)));
      }
    }
  }

  /** Counts the events appended from now on (a live subscription from the end). */
  private startMeter() {
    const sub = resubscribing(this.events, { fromPosition: 'end' });
    this.meter = sub;
    this.meterLoop = (async () => {
      try {
        for await (const e of sub) this.metrics.eventAppended(e.type, e.streamId);
      } catch {
        // closed
      }
    })();
  }

  async beforeApplicationShutdown() {
    this.shuttingDown = true;
    await this.starting;
    await this.forwarder.stop().catch((err) => this.logger.warn(`Forwarder stop: ${(err as Error).message}`));
    await this.meter?.close();
    await this.meterLoop;
  }
}

/** The forwarder, its sink, and the operators' metrics. */
@Global()
@Module({
  imports: [CqrsModule],
  providers: [
    { provide: MetricsService, useFactory: () => new MetricsService() },
    { provide: OPS_METER, useExisting: MetricsService },
    {
      provide: EVENT_SINK,
      inject: [APP_CONFIG, MetricsService, { token: EVENT_SINK_WRAPPER, optional: true }],
      useFactory: (config: AppConfig, metrics: MetricsService, wrap?: (sink: EventSink) => EventSink) =>
        (wrap ?? ((s: EventSink) => s))(createSink(config, process.env, metrics)),
    },
    {
      provide: Forwarder,
      inject: [EVENT_STORE, READ_STORE, EVENT_SINK, MetricsService, APP_CONFIG],
      useFactory: (events: EventStore, reads: ReadStore, sink: EventSink, metrics: MetricsService, config: AppConfig) => {
        const logger = new Logger('Forwarder');
        // an outage retries every 2 s or so: its first failure is written, then one line every 30 s (the metrics count each)
        let warnedAt = 0;
        const settings = kafkaSettingsFromEnv({ KAFKA_BROKERS: config.kafkaBrokers.join(','), KAFKA_TOPIC_PREFIX: process.env.KAFKA_TOPIC_PREFIX });
        return new Forwarder({
          events,
          reads,
          sink,
          topics: defaultTopicMap(settings?.topicPrefix ?? ''),
          onError: (err, attempt) => {
            const now = Date.now();
            if (attempt > 1 && now - warnedAt < 30_000) return;
            warnedAt = now;
            logger.warn(`Publishing failed (attempt ${attempt}), retrying: ${err.message}`);
          },
          onPublishFailed: (err) => metrics.forwarderFailed(err),
          onHistoryMissing: (gap) => {
            for (const topic of gap.topics) metrics.topicsRecreated.inc({ topic });
            logger.error(
              `Kafka did not have the topics ${gap.topics.join(', ')} (an empty or replaced cluster): created them again; the events up to position ${gap.upTo} sent before are not on them. Send them again with: ${gap.republish}`,
            );
          },
          onPublished: (messages, batch) => {
            for (const m of messages) metrics.eventsForwarded.inc({ topic: m.topic });
            const created = Date.parse(batch[batch.length - 1].created);
            if (Number.isFinite(created)) metrics.forwarderLatency.observe(Math.max(0, Date.now() - created) / 1000);
          },
        });
      },
    },
    FleetWatch,
    StreamingLifecycle,
  ],
  exports: [MetricsService, OPS_METER, EVENT_SINK, Forwarder, FleetWatch],
})
export class StreamingModule {}
