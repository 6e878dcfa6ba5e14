import { REDECIDE } from '@gridrocket/shared';
import type { AppCommand, CommandContext, ExchangeName } from '@gridrocket/shared';
import type { SecretValue } from '../domain/secret-value';

/**
 * The commands of the credentials context, as @nestjs/cqrs command objects in the shape every
 * context's commands have (AppCommand). Both depend only on the credential's current state, so a
 * conflict re-decides them (a second add is then a 409, a second remove a 404).
 */
export class AddCredentialCommand implements AppCommand {
  readonly conflict = REDECIDE;
  constructor(
    readonly ctx: CommandContext,
    readonly credentialId: string,
    readonly exchange: ExchangeName,
    readonly apiKeyId: string,
    readonly secret: SecretValue,
    readonly passphrase: SecretValue | null,
    /** Confirms the action (a fresh two-factor code, issue 40): run after every refusal check, before the first write. */
    readonly confirm: () => Promise<void> = async () => undefined,
  ) {}
}

export class RemoveCredentialCommand implements AppCommand {
  readonly conflict = REDECIDE;
  constructor(
    readonly ctx: CommandContext,
    readonly credentialId: string,
    /** Confirms the action (a fresh two-factor code, issue 40): run after every refusal check, before the first write. */
    readonly confirm: () => Promise<void> = async () => undefined,
  ) {}
}
