import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { z } from 'zod';
import { EVENT_STORE, EventStore } from '@gridrocket/event-store';
import { Projector, READ_STORE, ReadStore } from '@gridrocket/read-store';
import { KEYRING_TOKEN, Keyring, executeCommand, wouldDecide } from '@gridrocket/shared/runtime';
import { CommandContext } from '@gridrocket/shared';
import type { SessionUser } from '@gridrocket/shared/http';
import { userDecider } from '../domain/user.decider';
import { userStream } from '../domain/user.events';
import { parseOrThrow } from '../auth.rules';
import { USERS, UserDoc } from '../identity.projections';
import { ACCESS_TOKENS, ACCESS_TOKEN_USE, AccessTokenDoc, AccessTokenUseDoc } from './access-token.projection';
import { ACCESS_TOKEN_DAYS, ACCESS_TOKEN_SCOPES, AccessTokenScope } from './access-token.decider';

type Ctx = Omit<CommandContext, 'userId'>;

/** What a token looks like: a fixed prefix (secret scanners and people recognise it) and 256 random bits. */
export const ACCESS_TOKEN_PREFIX = 'grt_';
const TOKEN_SHAPE = /^grt_[A-Za-z0-9_-]{43}$/;
/** A token's use is written to the read store at most this often per token (the count in between is kept in memory). */
export const USE_RECORDED_EVERY_MS = 60_000;

export const createTokenSchema = z
  .object({
    name: z
      .string({ required_error: 'Name is required', invalid_type_error: 'Name must be text' })
      .trim()
      .min(1, 'Name is required')
      .max(60, 'Name must be at most 60 characters'),
    scopes: z
      .array(z.enum(ACCESS_TOKEN_SCOPES as [AccessTokenScope, ...AccessTokenScope[]], { errorMap: () => ({ message: `Scopes are ${ACCESS_TOKEN_SCOPES.join(', ')}` }) }), {
        required_error: 'Choose at least one scope',
        invalid_type_error: 'Scopes must be a list',
      })
      .min(1, 'Choose at least one scope')
      .max(3, 'Scopes are read, trade, keys'),
    expiresInDays: z
      .number({ required_error: 'Expiry is required', invalid_type_error: 'Expiry must be a number of days' })
      .refine((d) => (ACCESS_TOKEN_DAYS as readonly number[]).includes(d), `Expiry must be one of ${ACCESS_TOKEN_DAYS.join(', ')} days`),
  })
  .strict();

/** One token as the list shows it: never the token, never its digest. */
export interface AccessTokenView {
  id: string;
  name: string;
  scopes: AccessTokenScope[];
  createdAt: string;
  expiresAt: string;
  expired: boolean;
  lastUsedAt: string | null;
  useCount: number;
}

export interface ResolvedAccessToken {
  user: SessionUser;
  tokenId: string;
  scopes: AccessTokenScope[];
}

/**
 * Personal access tokens (issue 31). The token is 32 random bytes; what is kept (in events and the read
 * store) is its HMAC-SHA-256 under a key derived from the master key. A slow password hash is not needed:
 * with 256 bits of entropy no guess can be checked offline anyway, and the key means a copy of the read
 * store alone cannot even try. A lookup is one read by that digest.
 */
@Injectable()
export class AccessTokenService implements OnModuleInit {
  private readonly key: Buffer;
  /** Uses counted since their last write, per token; and when each token's use was last written. */
  private readonly pendingUses = new Map<string, number>();
  private readonly writtenAt = new Map<string, number>();
  /** Writes under way: the list waits for them, so a use is never shown twice nor missed. */
  private readonly flushing = new Map<string, Promise<void>>();
  /** The clock expiry is decided by (a test may move it). */
  now: () => number = () => Date.now();

  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(READ_STORE) private readonly reads: ReadStore,
    @Inject(KEYRING_TOKEN) keyring: Keyring,
    private readonly projector: Projector,
  ) {
    this.key = keyring.deriveKey('personal-access-token');
  }

  async onModuleInit() {
    await this.reads.ensureCollection(ACCESS_TOKEN_USE);
  }

  digestOf(token: string): string {
    return createHmac('sha256', this.key).update(token).digest('hex');
  }

  /** Creates a token; the answer is the only place the token ever appears. */
  /** `confirm` (the fresh two-factor code, issue 40) runs once the token would be made: a bad body or the quota is refused first. */
  async create(uid: string, body: unknown, ctx: Ctx, confirm: () => Promise<void> = async () => undefined): Promise<AccessTokenView & { token: string }> {
    const input = parseOrThrow(createTokenSchema, body);
    const token = ACCESS_TOKEN_PREFIX + randomBytes(32).toString('base64url');
    const tokenId = randomUUID();
    const now = new Date(this.now());
    const expiresAt = new Date(now.getTime() + input.expiresInDays * 86_400_000).toISOString();
    const scopes = ACCESS_TOKEN_SCOPES.filter((s) => input.scopes.includes(s));
    const command = { type: 'CreateAccessToken' as const, tokenId, digest: this.digestOf(token), name: input.name, scopes, expiresAt, now: now.toISOString() };
    await wouldDecide(this.events, userStream(uid), userDecider, command);
    await confirm();
    const r = await executeCommand(this.events, userStream(uid), userDecider, command, { ...ctx, userId: uid });
    await this.projector.waitFor(r.position);
    return { token, id: tokenId, name: input.name, scopes, createdAt: now.toISOString(), expiresAt, expired: false, lastUsedAt: null, useCount: 0 };
  }

  async revoke(uid: string, tokenId: string, ctx: Ctx): Promise<void> {
    const r = await executeCommand(this.events, userStream(uid), userDecider, { type: 'RevokeAccessToken', tokenId: tokenId.slice(0, 100) }, { ...ctx, userId: uid });
    await this.projector.waitFor(r.position);
  }

  async list(uid: string): Promise<AccessTokenView[]> {
    const docs = await this.reads.find<AccessTokenDoc>(ACCESS_TOKENS, { uid });
    await Promise.all(docs.map((d) => this.flushing.get(d.tokenId)?.catch(() => undefined)));
    const uses = await this.reads.getMany<AccessTokenUseDoc>(ACCESS_TOKEN_USE, docs.map((d) => d.tokenId));
    const now = this.now();
    return docs
      .map((d) => {
        const use = uses.get(d.tokenId)?.doc;
        return {
          id: d.tokenId,
          name: d.name,
          scopes: d.scopes,
          createdAt: d.createdAt,
          expiresAt: d.expiresAt,
          expired: Date.parse(d.expiresAt) <= now,
          lastUsedAt: use?.lastUsedAt ?? null,
          useCount: (use?.useCount ?? 0) + (this.pendingUses.get(d.tokenId) ?? 0),
        };
      })
      .sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  }

  /** The user behind a bearer token, or null: unknown, revoked (its document is gone) or expired. */
  async resolve(token: string | undefined): Promise<ResolvedAccessToken | null> {
    if (!token || !TOKEN_SHAPE.test(token)) return null;
    const doc = await this.reads.get<AccessTokenDoc>(ACCESS_TOKENS, this.digestOf(token));
    if (!doc || Date.parse(doc.expiresAt) <= this.now()) return null;
    const user = await this.reads.get<UserDoc>(USERS, doc.uid);
    if (!user) return null;
    // `sessionId` names the token, so nothing that keys on sessions mistakes it for one of the user's sessions
    return { user: { uid: user.uid, email: user.email, sessionId: `access-token:${doc.tokenId}`, emailVerified: user.emailVerified === true }, tokenId: doc.tokenId, scopes: doc.scopes };
  }

  /**
   * Records a use: "last used" and a count, in the read store (not as events: a script polling every
   * second would flood the user's stream). The first use is written at once, later ones at most every
   * USE_RECORDED_EVERY_MS per token, with the uses counted in between; off the request path. Uses not
   * yet written when the process stops are lost (at most a minute's worth per token): the count is a guide.
   */
  noteUsed(tokenId: string): void {
    this.pendingUses.set(tokenId, (this.pendingUses.get(tokenId) ?? 0) + 1);
    const now = Date.now();
    if (now - (this.writtenAt.get(tokenId) ?? 0) < USE_RECORDED_EVERY_MS) return;
    this.writtenAt.set(tokenId, now);
    if (this.writtenAt.size > 10_000) this.writtenAt.delete(this.writtenAt.keys().next().value as string);
    const write = this.flush(tokenId)
      .catch(() => void this.writtenAt.delete(tokenId)) // a lost "last used" is no error of the request; the next use tries again
      .finally(() => this.flushing.delete(tokenId));
    this.flushing.set(tokenId, write);
  }

  private async flush(tokenId: string) {
    const uses = this.pendingUses.get(tokenId) ?? 0;
    if (uses === 0) return;
    this.pendingUses.delete(tokenId);
    try {
      const stored = (await this.reads.getMany<AccessTokenUseDoc>(ACCESS_TOKEN_USE, [tokenId])).get(tokenId);
      const at = Date.now();
      const doc: AccessTokenUseDoc = { id: tokenId, lastUsedAt: new Date(at).toISOString(), useCount: (stored?.doc?.useCount ?? 0) + uses };
      // the revision is the time of the write: a slower, older write of another process is skipped
      await this.reads.commit(ACCESS_TOKEN_USE, [{ id: tokenId, rev: Math.max(at, (stored?.rev ?? 0) + 1), doc }], { name: 'access-token-use', position: 0n });
    } catch (err) {
      this.pendingUses.set(tokenId, (this.pendingUses.get(tokenId) ?? 0) + uses);
      throw err;
    }
  }
}
