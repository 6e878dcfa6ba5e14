import { Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { IdentityModule } from '@gridrocket/identity/nest';
import { KEYRING_TOKEN, Keyring } from '@gridrocket/shared/runtime';
import { SignalReceiver } from './receive-signal.handler';
import { SignalSecrets } from './signal-secrets';
import { SignalSettingsController } from './signal-settings.controller';
import { SignalWebhookController } from './signal-webhook.controller';

/** Signed signals (issue 32): the owner's settings and the webhook. */
@Module({
  imports: [CqrsModule, IdentityModule],
  controllers: [SignalSettingsController, SignalWebhookController],
  providers: [{ provide: SignalSecrets, inject: [KEYRING_TOKEN], useFactory: (keyring: Keyring) => new SignalSecrets(keyring) }, SignalReceiver],
})
export class SignalsModule {}
