import { Global, Inject, Logger, Module, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { join } from 'node:path';
import { EVENT_STORE, EventStore, KurrentDbEventStore, SqliteEventStore } from '@gridrocket/event-store';
import { MongoReadStore, Projector, READ_STORE, ReadStore, SqliteReadStore } from '@gridrocket/read-store';
import { APP_CONFIG, AppConfig, KEYRING_TOKEN, Keyring } from '@gridrocket/shared/runtime';

export function createEventStore(config: AppConfig): EventStore {
  return config.eventStore.kind === 'kurrentdb'
    ? new KurrentDbEventStore(config.eventStore.url)
    : new SqliteEventStore(join(config.dataDir, 'events.sqlite'));
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
  static forRoot(config: AppConfig) {
    const logger = new Logger('Projector');
    return {
      module: InfrastructureModule,
      providers: [
        { provide: APP_CONFIG, useValue: config },
        { provide: KEYRING_TOKEN, useFactory: () => Keyring.load(config.dataDir) },
        { provide: EVENT_STORE, useFactory: () => createEventStore(config) },
        { provide: READ_STORE, useFactory: () => createReadStore(config) },
        {
          provide: Projector,
          inject: [EVENT_STORE, READ_STORE],
          useFactory: (events: EventStore, reads: ReadStore) =>
            new Projector(events, reads, [], (err) => logger.error(err.stack ?? err.message)),
        },
        ProjectorLifecycle,
      ],
      exports: [APP_CONFIG, KEYRING_TOKEN, EVENT_STORE, READ_STORE, Projector],
    };
  }
}
