import { createHmac, randomBytes } from 'node:crypto';

/**
 * Tokens for emailed links (verify email, reset password): 256 bits, sent only to the mailbox. What is
 * stored (in the user's stream and in the lookup projection) is a keyed digest, HMAC-SHA-256 under a key
 * derived from the master key: a leaked event store yields no usable link, and without the master key a
 * digest cannot even be tested against a guess.
 *
 * Issue 31 (the mail outbox): a link is mailed by the outbox, from the event that asked for it, possibly
 * after a restart. So the token is not kept anywhere: it is made again from a random seed stored in the
 * event, `token = HMAC-SHA-256(seedKey, seed)` under a second key derived from the master key. The seed
 * alone opens nothing (the event store without the master key still yields no usable link); whoever holds
 * the master key and the event store can make the links still alive, as they could already open every
 * sealed secret.
 */
export class LinkTokens {
  constructor(
    private readonly key: Buffer,
    private readonly seedKey?: Buffer,
  ) {}

  /** A token of its own (not derivable from any event): for callers that mail it at once. */
  issue(): { token: string; digest: string } {
    const token = randomBytes(32).toString('base64url');
    return { token, digest: this.digest(token) };
  }

  /** A token the mail outbox can make again from `seed` (stored in the event beside the digest). */
  issueSeeded(): { token: string; digest: string; seed: string } {
    const seed = randomBytes(32).toString('base64url');
    const token = this.fromSeed(seed);
    return { token, digest: this.digest(token), seed };
  }

  /** The token of a seed (43 base64url characters, like any link token). */
  fromSeed(seed: string): string {
    if (!this.seedKey) throw new Error('LinkTokens: no seed key');
    return createHmac('sha256', this.seedKey).update(seed).digest('base64url');
  }

  digest(token: string): string {
    return createHmac('sha256', this.key).update(token).digest('hex');
  }
}

/** The shape a token arriving from a link must have (43 base64url characters). */
export const LINK_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** The keys of the link tokens, derived from the master key (one place, so the services and the outbox agree). */
export function linkTokensOf(keyring: { deriveKey(purpose: string): Buffer }): LinkTokens {
  return new LinkTokens(keyring.deriveKey('link-token'), keyring.deriveKey('link-token-seed'));
}
