import { createHmac, randomBytes } from 'node:crypto';

/**
 * Tokens for emailed links (verify email, reset password): 256 random bits,
 * sent only to the mailbox. What is stored (in the user's stream and in the
 * lookup projection) is a keyed digest, HMAC-SHA-256 under a key derived from
 * the master key: a leaked event store yields no usable link, and without the
 * master key a digest cannot even be tested against a guess.
 */
export class LinkTokens {
  constructor(private readonly key: Buffer) {}

  issue(): { token: string; digest: string } {
    const token = randomBytes(32).toString('base64url');
    return { token, digest: this.digest(token) };
  }

  digest(token: string): string {
    return createHmac('sha256', this.key).update(token).digest('hex');
  }
}

/** The shape a token arriving from a link must have (43 base64url characters). */
export const LINK_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;
