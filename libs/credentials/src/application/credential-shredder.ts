import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { EVENT_STORE, EventStore, RecordedEvent } from '@gridrocket/event-store';
import { READ_STORE, ReadStore, RunningReactor, startReactor } from '@gridrocket/read-store';
import { CredentialVault } from '../crypto/credential-vault';
import { CREDENTIAL_STREAM_PREFIX } from '../domain/credential.events';

/**
 * Makes crypto-shredding certain: for every CredentialRemoved in the log, the data key is destroyed
 * (idempotent). The remove handler does it at once; this reactor covers a crash in between and
 * keys removed by another process.
 */
@Injectable()
export class CredentialShredder implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('CredentialShredder');
  private reactor: RunningReactor | null = null;

  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(READ_STORE) private readonly reads: ReadStore,
    private readonly vault: CredentialVault,
  ) {}

  async onApplicationBootstrap() {
    this.reactor = await startReactor({
      name: 'credential-shredder',
      events: this.events,
      reads: this.reads,
      filter: { streamPrefixes: [CREDENTIAL_STREAM_PREFIX], eventTypes: ['CredentialRemoved'] },
      handle: (event) => this.shred(event),
      onError: (err, event) => this.logger.error(`Could not destroy the data key of ${event.streamId}: ${err.name}`),
    });
  }

  private async shred(event: RecordedEvent) {
    const { keyId } = event.data as { keyId: string };
    await this.vault.shred(keyId);
  }

  async beforeApplicationShutdown() {
    await this.reactor?.stop();
    this.reactor = null;
  }
}
