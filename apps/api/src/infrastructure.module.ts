import { Global, Inject, Logger, Module, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { join } from 'node:path';
import { EVENT_STORE, EventStore, KurrentDbEventStore, ResilientEventStore, SqliteEventStore } from '@gridrocket/event-store';
import { MongoReadStore, Projector, READ_STORE, ReadStore, SqliteReadStore } from '@gridrocket/read-store';
import { EventSourcedPorts } from '@gridrocket/read-store/nest';
import { APP_CONFIG, AppConfig, KEYRING_TOKEN, Keyring } from '@gridrocket/shared/runtime';
import { EVENT_SINK_WRAPPER } from '@gridrocket/streaming/nest';
import { type EventSink } from '@gridrocket/streaming';

/**
 * Wrappers put around the adapters the configuration chose: the fault-injecting wrappers of the
 * integration tests (test/faults-*.spec.ts). Nothing in production passes any.
 */
export interface AdapterOverrides {
  eventStore?(store: EventStore): EventStore;
  readStore?(store: ReadStore): ReadStore;
  sink?(sink: EventSink): EventSink;
}

export function createEventStore(config: AppConfig, wrap: (store: EventStore) => EventStore = (s) => s): EventStore {
  const store =
    config.eventStore.kind === 'kurrentdb' ? new KurrentDbEventStore(config.eventStore.url) : new SqliteEventStore(join(config.dataDir, 'events.sqlite'), undefined, 'FULL', { writerThread: true });
  // appends and reads whose error is transient (timeout, leader change) are made again: appends are idempotent by event id
  return new ResilientEventStore(wrap(store));
}

export async function createReadStore(config: AppConfig): Promise<ReadStore> {
  return config.readStore.kind === 'mongodb'
    ? new MongoReadStore(config.readStore.url).connect()
    : new SqliteReadStore(join(config.dataDir, 'read.sqlite'));
}

class ProjectorLifecycle implements OnApplicationBootstrap, OnApplicationShutdown {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly projector: Projector,
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(READ_STORE) private readonly reads: ReadStore,
  ) {}

  async onApplicationBootstrap() {
    if (this.config.projections) await this.projector.start();
  }

  async onApplicationShutdown() {
    await this.projector.stop();
    await this.events.close();
    await this.reads.close();
  }
}

/** The ports' adapters, chosen by configuration only. */
@Global()
@Module({})
export class InfrastructureModule {
  static forRoot(config: AppConfig, overrides: AdapterOverrides = {}) {
    const logger = new Logger('Projector');
    return {
      module: InfrastructureModule,
      providers: [
        { provide: APP_CONFIG, useValue: config },
        { provide: KEYRING_TOKEN, useFactory: () => Keyring.load(config.dataDir) },
        { provide: EVENT_STORE, useFactory: () => createEventStore(config, overrides.eventStore) },
        { provide: READ_STORE, useFactory: async () => (overrides.readStore ?? ((s: ReadStore) => s))(await createReadStore(config)) },
        { provide: EVENT_SINK_WRAPPER, useValue: overrides.sink ?? ((s: EventSink) => s) },
        {
          provide: Projector,
          inject: [EVENT_STORE, READ_STORE],
          useFactory: (events: EventStore, reads: ReadStore) =>
            new Projector(events, reads, [], (err) => logger.error(err.stack ?? err.message)),
        },
        ProjectorLifecycle,
        EventSourcedPorts,
      ],
      exports: [APP_CONFIG, KEYRING_TOKEN, EVENT_STORE, READ_STORE, Projector, EventSourcedPorts, EVENT_SINK_WRAPPER],
    };
  }
}
