import { randomBytes } from 'node:crypto';
import type { Keyring } from '@gridrocket/shared/runtime';

/**
 * A bot's signal secret, sealed as the alert channels' secrets are (libs/alerts alert-secrets.ts): with
 * the master key (AES-256-GCM, Keyring.seal), bound to the bot, its owner and the secret's generation
 * (additional data `signals:<botId>:<userId>:<generation>`): a ciphertext cannot be moved to another bot
 * or owner, nor an old generation's be taken for the current one. Events hold only the ciphertext and
 * the last 4 characters; the secret in clear is answered once, to the owner who made it.
 */
export class SignalSecrets {
  constructor(private readonly keyring: Keyring) {}

  /** A new secret: 32 random bytes, base64url, with a prefix that says what it is. */
  static generate(): string {
    return `grs_${randomBytes(32).toString('base64url')}`;
  }

  seal(botId: string, userId: string, generation: number, plain: string): string {
    return this.keyring.seal(plain, aad(botId, userId, generation));
  }

  open(botId: string, userId: string, generation: number, sealed: string): string {
    return this.keyring.open(sealed, aad(botId, userId, generation)).toString('utf8');
  }
}

const aad = (botId: string, userId: string, generation: number) => `signals:${botId}:${userId}:${generation}`;

export const last4 = (secret: string) => secret.slice(-4);
