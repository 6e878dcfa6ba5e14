import { availableParallelism } from 'node:os';
import { hash, verify, Algorithm } from '@node-rs/argon2';
import pLimit from 'p-limit';
import type { Keyring } from '@gridrocket/shared/runtime';

/** argon2id (OWASP parameters); the hash is sealed with the master key before it is stored in an event. */
const OPTIONS = { algorithm: Algorithm.Argon2id, memoryCost: 19456, timeCost: 2, parallelism: 1 };

/**
 * At most this many hashes at once, process-wide (default: all cores but one, at least one). Each is
 * about 30 ms of a core in libuv's thread pool (4 threads); issue 28 found that a flood of sign-ins, each
 * hashed (an unknown account too, so as not to tell it apart), took /api/health p99 from 18 to 1,060 ms.
 * The rest wait their turn (the sign-in throttles bound how many can wait).
 */
export function defaultHashConcurrency(): number {
  return Math.max(1, availableParallelism() - 1);
}

export class PasswordHasher {
  private dummy: Promise<string> | null = null;
  private readonly limit: ReturnType<typeof pLimit>;

  constructor(
    private readonly keyring: Keyring,
    concurrency = defaultHashConcurrency(),
  ) {
    this.limit = pLimit(concurrency);
  }

  /** Hashes running and waiting (tests, metrics). */
  get load(): { running: number; waiting: number } {
    return { running: this.limit.activeCount, waiting: this.limit.pendingCount };
  }

  async seal(password: string, uid: string): Promise<string> {
    return this.keyring.seal(await this.limit(() => hash(password, OPTIONS)), `password:${uid}`);
  }

  async verify(sealed: string | null, password: string, uid: string): Promise<boolean> {
    if (!sealed) {
      // Spend the same time for an unknown account as for a wrong password.
      this.dummy ??= this.limit(() => hash('not-a-real-password', OPTIONS));
      const dummy = await this.dummy;
      await this.limit(() => verify(dummy, password)).catch(() => false);
      return false;
    }
    const encoded = this.keyring.open(sealed, `password:${uid}`).toString('utf8');
    return this.limit(() => verify(encoded, password));
  }
}
