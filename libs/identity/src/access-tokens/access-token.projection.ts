import type { Projection } from '@gridrocket/read-store';
import type { AccessTokenEvent, AccessTokenScope } from './access-token.decider';

/** A live or expired token, keyed by its digest (a bearer request is one read); revoked ones are deleted. */
export interface AccessTokenDoc {
  id: string; // HMAC-SHA-256 digest of the token
  tokenId: string;
  uid: string;
  name: string;
  scopes: AccessTokenScope[];
  createdAt: string;
  expiresAt: string;
}

/** "Last used" and the count of uses, written by AccessTokenService (not a projection: no event per use). */
export interface AccessTokenUseDoc {
  id: string; // the token id
  lastUsedAt: string;
  useCount: number;
}

export const ACCESS_TOKENS = 'access_tokens';
export const ACCESS_TOKEN_USE = 'access_token_use';

export const accessTokensProjection: Projection<AccessTokenDoc> = {
  name: 'access-tokens',
  collection: ACCESS_TOKENS,
  indexes: ['uid'],
  filter: { streamPrefixes: ['user-'], eventTypes: ['AccessTokenCreated', 'AccessTokenRevoked'] },
  docId: (e) => (e.data as { digest?: string }).digest ?? null,
  reduce(_doc, event) {
    const e = { type: event.type, data: event.data } as AccessTokenEvent;
    if (e.type === 'AccessTokenCreated') {
      const { tokenId, name, scopes, expiresAt, digest } = e.data;
      return { id: digest, tokenId, uid: event.streamId.slice('user-'.length), name, scopes, createdAt: event.created, expiresAt };
    }
    if (e.type === 'AccessTokenRevoked') return null;
    return undefined;
  },
};
