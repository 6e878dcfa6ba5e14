import type { Sealed } from '@gridrocket/shared/runtime';

/**
 * The key store: per-credential data keys, wrapped by the master key. It is mutable on purpose and
 * lives outside the event log: deleting a key (crypto-shredding) makes every ciphertext sealed under
 * it unreadable for good, however often the log is replayed.
 */
export interface KeyStore {
  readonly kind: string;
  /** Stores a wrapped data key; an existing id is never overwritten (returns false). */
  put(keyId: string, wrapped: Sealed): Promise<boolean>;
  get(keyId: string): Promise<Sealed | null>;
  /** Destroys the key, leaving no copy in the store's files; idempotent. True when a key was deleted. */
  destroy(keyId: string): Promise<boolean>;
  close(): Promise<void>;
}

export const KEY_STORE = Symbol('KEY_STORE');
