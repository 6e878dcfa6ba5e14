import { ConflictError, NotFoundError, ValidationError } from '@gridrocket/shared';

/**
 * Personal access tokens (issue 31), part of the user decider: events in the user's stream `user-<uid>`.
 * A token appears in events only as its keyed digest (HMAC-SHA-256 under a key derived from the master
 * key), never in clear: the clear token is shown to its owner once, in the answer that created it.
 */
export type AccessTokenScope = 'read' | 'trade' | 'keys';
export const ACCESS_TOKEN_SCOPES: readonly AccessTokenScope[] = ['read', 'trade', 'keys'];
/** The lifetimes offered (days). A token never lives longer than a year: a forgotten script stops by itself. */
export const ACCESS_TOKEN_DAYS = [7, 30, 90, 365] as const;
/** Live (not revoked, not expired) tokens per user at most. */
export const ACCESS_TOKEN_QUOTA = 10;

export type AccessTokenEvent =
  | { type: 'AccessTokenCreated'; data: { tokenId: string; digest: string; name: string; scopes: AccessTokenScope[]; expiresAt: string } }
  /** `reason`: revoked by its owner in the dashboard, or every token ended by a password reset or when the account was claimed. */
  | { type: 'AccessTokenRevoked'; data: { tokenId: string; digest: string; reason: AccessTokenRevokedReason } };

export type AccessTokenRevokedReason = 'revoked' | 'password-reset' | 'account-claimed';

export type AccessTokenCommand =
  | { type: 'CreateAccessToken'; tokenId: string; digest: string; name: string; scopes: AccessTokenScope[]; expiresAt: string; now: string }
  | { type: 'RevokeAccessToken'; tokenId: string };

/** Live and expired tokens not revoked: id → digest and expiry (expired ones stay until revoked: harmless). */
export type AccessTokensState = Map<string, { digest: string; expiresAt: string }>;

export const ACCESS_TOKEN_QUOTA_MESSAGE = `You have ${ACCESS_TOKEN_QUOTA} active access tokens, the most allowed: revoke one you no longer use first`;

export function liveAccessTokens(tokens: AccessTokensState, now: string): number {
  const t = Date.parse(now);
  let n = 0;
  for (const { expiresAt } of tokens.values()) if (Date.parse(expiresAt) > t) n++;
  return n;
}

export function decideAccessToken(command: AccessTokenCommand, tokens: AccessTokensState): AccessTokenEvent[] {
  switch (command.type) {
    case 'CreateAccessToken': {
      if (command.scopes.length === 0) throw new ValidationError([{ field: 'scopes', message: 'Choose at least one scope' }]);
      if (tokens.has(command.tokenId)) throw new ConflictError('This token already exists');
      // decided on the stream's revision: two racing creations cannot both pass the quota
      if (liveAccessTokens(tokens, command.now) >= ACCESS_TOKEN_QUOTA) throw new ConflictError(ACCESS_TOKEN_QUOTA_MESSAGE);
      const { tokenId, digest, name, scopes, expiresAt } = command;
      return [{ type: 'AccessTokenCreated', data: { tokenId, digest, name, scopes: [...scopes], expiresAt } }];
    }
    case 'RevokeAccessToken': {
      const token = tokens.get(command.tokenId);
      if (!token) throw new NotFoundError('No such access token');
      return [{ type: 'AccessTokenRevoked', data: { tokenId: command.tokenId, digest: token.digest, reason: 'revoked' } }];
    }
  }
}

/** Every token ends: the password was reset through the mailed link, or the address's proven owner claimed the account. */
export function revokeAllAccessTokens(tokens: AccessTokensState, reason: Exclude<AccessTokenRevokedReason, 'revoked'>): AccessTokenEvent[] {
  return [...tokens].map(([tokenId, t]) => ({ type: 'AccessTokenRevoked' as const, data: { tokenId, digest: t.digest, reason } }));
}

export function evolveAccessTokens(tokens: AccessTokensState, event: AccessTokenEvent): AccessTokensState {
  const next = new Map(tokens);
  if (event.type === 'AccessTokenCreated') next.set(event.data.tokenId, { digest: event.data.digest, expiresAt: event.data.expiresAt });
  else next.delete(event.data.tokenId);
  return next;
}

export function isAccessTokenCommand(command: { type: string }): command is AccessTokenCommand {
  return command.type === 'CreateAccessToken' || command.type === 'RevokeAccessToken';
}

export function isAccessTokenEvent(event: { type: string }): event is AccessTokenEvent {
  return event.type === 'AccessTokenCreated' || event.type === 'AccessTokenRevoked';
}
