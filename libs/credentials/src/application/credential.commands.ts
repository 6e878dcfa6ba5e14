import type { CommandContext, ExchangeName } from '@gridrocket/shared';
import type { SecretValue } from '../domain/secret-value';

/** The commands of the credentials context, as @nestjs/cqrs command objects. */
export class AddCredentialCommand {
  constructor(
    readonly ctx: CommandContext,
    readonly credentialId: string,
    readonly exchange: ExchangeName,
    readonly apiKeyId: string,
    readonly secret: SecretValue,
    readonly passphrase: SecretValue | null,
  ) {}
}

export class RemoveCredentialCommand {
  constructor(readonly ctx: CommandContext, readonly credentialId: string) {}
}
