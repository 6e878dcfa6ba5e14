import type { Keyring } from '@gridrocket/shared/runtime';

type Field = 'webhookSecret' | 'telegramBotToken';

/**
 * The alert channels' secrets are sealed with the master key (AES-256-GCM, Keyring.seal) and bound to
 * their user and field (additional data `alerts:<userId>:<field>`): a ciphertext cannot be moved to
 * another user or field. Events and read models hold only the ciphertext and the last 4 characters.
 */
export class AlertSecrets {
  constructor(private readonly keyring: Keyring) {}

  seal(userId: string, field: Field, plain: string): string {
    return this.keyring.seal(plain, `alerts:${userId}:${field}`);
  }

  open(userId: string, field: Field, sealed: string): string {
    return this.keyring.open(sealed, `alerts:${userId}:${field}`).toString('utf8');
  }
}
