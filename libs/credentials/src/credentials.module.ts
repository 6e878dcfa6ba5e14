import { Global, Inject, MiddlewareConsumer, Module, NestModule, OnApplicationShutdown, OnModuleInit, RequestMethod } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { join } from 'node:path';
import { Projector } from '@gridrocket/read-store';
import { APP_CONFIG, AppConfig, KEYRING_TOKEN, Keyring } from '@gridrocket/shared/runtime';
import { IdentityModule } from '@gridrocket/identity/nest';
import { AddCredentialHandler } from './application/add-credential.handler';
import { CredentialResolver } from './application/credential-resolver';
import { CredentialShredder } from './application/credential-shredder';
import { RemoveCredentialHandler } from './application/remove-credential.handler';
import { KeyUseLedger } from './application/key-use.ledger';
import { KeyPermissionChecks } from './application/key-permission-checks';
import { credentialListProjection } from './credential-list.projection';
import { CredentialsController } from './credentials.controller';
import { CredentialVault } from './crypto/credential-vault';
import { KEY_STORE, KeyStore } from './crypto/key-store.port';
import { createKeyStore } from './crypto/key-store.factory';
import { ExchangeAccess } from './exchange-access/exchange-access';
import { EXCHANGE_PROVIDER } from './exchange-access/exchange-provider.token';
import { ExchangesController } from './exchange-access/exchanges.controller';
import { BalancesService } from './exchange-access/balances.service';
import { secretQueryMiddleware } from './secret-query.middleware';

class KeyStoreLifecycle implements OnApplicationShutdown {
  constructor(@Inject(KEY_STORE) private readonly keys: KeyStore) {}
  async onApplicationShutdown() {
    await this.keys.close();
  }
}

/**
 * Exchange credentials (encrypted, crypto-shredded) and exchange access. Global: the grid runner
 * injects EXCHANGE_PROVIDER (and, if it ever needs it, CredentialResolver) without importing it.
 */
@Global()
@Module({
  imports: [CqrsModule, IdentityModule],
  controllers: [CredentialsController, ExchangesController],
  providers: [
    { provide: KEY_STORE, inject: [APP_CONFIG], useFactory: (config: AppConfig) => createKeyStore(config) },
    { provide: CredentialVault, inject: [KEYRING_TOKEN, KEY_STORE], useFactory: (keyring: Keyring, keys: KeyStore) => new CredentialVault(keyring, keys) },
    KeyStoreLifecycle,
    CredentialResolver,
    KeyUseLedger,
    KeyPermissionChecks,
    ExchangeAccess,
    BalancesService,
    { provide: EXCHANGE_PROVIDER, inject: [ExchangeAccess], useFactory: (access: ExchangeAccess) => access.provider },
    AddCredentialHandler,
    RemoveCredentialHandler,
    CredentialShredder,
  ],
  exports: [EXCHANGE_PROVIDER, ExchangeAccess, CredentialResolver, KeyUseLedger, KeyPermissionChecks],
})
export class CredentialsModule implements NestModule, OnModuleInit {
  constructor(private readonly projector: Projector) {}

  configure(consumer: MiddlewareConsumer) {
    consumer.apply(secretQueryMiddleware).forRoutes({ path: '*path', method: RequestMethod.ALL });
  }

  onModuleInit() {
    this.projector.add(credentialListProjection);
  }
}
