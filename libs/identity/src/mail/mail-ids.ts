import { createHash } from 'node:crypto';

/**
 * A Message-ID that is the same on every try and after a restart (RFC 5322 §3.6.4):
 * `<kind-<digest of id>@<the public URL's host>>` (a placeholder host when the URL has none).
 */
export function stableMessageId(kind: string, id: string, publicUrl: string): string {
  let host = 'gridrocket.invalid';
  try {
    host = new URL(publicUrl).hostname || host;
  } catch {
    // keep the placeholder
  }
  return `<${kind}-${createHash('sha256').update(id).digest('hex').slice(0, 32)}@${host}>`;
}

/** A mail's retry delay: doubling from `baseMs` after each failed attempt, at most `maxMs`. */
export const mailRetryDelay = (baseMs: number, maxMs: number) => (attempt: number): number => Math.min(maxMs, baseMs * 2 ** Math.min(attempt - 1, 30));
