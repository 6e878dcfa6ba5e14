import { hash, verify, Algorithm } from '@node-rs/argon2';
import type { Keyring } from '@gridrocket/shared/runtime';

/** argon2id (OWASP parameters); the hash is sealed with the master key before it is stored in an event. */
const OPTIONS = { algorithm: Algorithm.Argon2id, memoryCost: 19456, timeCost: 2, parallelism: 1 };

export class PasswordHasher {
  private dummy: Promise<string> | null = null;

  constructor(private readonly keyring: Keyring) {}

  async seal(password: string, uid: string): Promise<string> {
    return this.keyring.seal(await hash(password, OPTIONS), `password:${uid}`);
  }

  async verify(sealed: string | null, password: string, uid: string): Promise<boolean> {
    if (!sealed) {
      // Spend the same time for an unknown account as for a wrong password.
      this.dummy ??= hash('not-a-real-password', OPTIONS);
      await verify(await this.dummy, password).catch(() => false);
      return false;
    }
    const encoded = this.keyring.open(sealed, `password:${uid}`).toString('utf8');
    return verify(encoded, password);
  }
}
