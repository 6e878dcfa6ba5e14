import { Inject, Injectable } from '@nestjs/common';
import { EVENT_STORE, type EventStore } from '@gridrocket/event-store';
import { APP_CONFIG, type AppConfig } from '@gridrocket/shared/runtime';
import { Projector } from './projector';
import { READ_STORE, type ReadStore } from './read-store.port';

/**
 * What a service or controller of an event-sourced context reads, writes and waits on: the event store, the
 * read store, the configuration and the projector (provided once, by the app's InfrastructureModule).
 */
@Injectable()
export class EventSourcedPorts {
  constructor(
    @Inject(EVENT_STORE) readonly events: EventStore,
    @Inject(READ_STORE) readonly reads: ReadStore,
    @Inject(APP_CONFIG) readonly config: AppConfig,
    readonly projector: Projector,
  ) {}
}
