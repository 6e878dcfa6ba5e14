import { createHmac } from 'node:crypto';

/**
 * A user's id is derived from their (lower-cased) email with a keyed hash, so
 * registering appends to `user-<uid>` with expected revision `no_stream`: two
 * concurrent registrations of one address cannot both succeed, with no index
 * to keep in step. The key makes ids unguessable from an address.
 */
export function userIdForEmail(email: string, key: Buffer): string {
  const h = createHmac('sha256', key).update(email.trim().toLowerCase()).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}
