/** The user's personal access tokens (issue 31), injected into the one RTK Query api. */
import { api } from '../api/api';

export type AccessTokenScope = 'read' | 'trade' | 'keys';

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

/** The answer to a creation: the only time the token itself is ever sent. */
export type CreatedAccessToken = AccessTokenView & { token: string };

export interface NewAccessToken {
  name: string;
  scopes: AccessTokenScope[];
  expiresInDays: number;
}

const tagged = api.enhanceEndpoints({ addTagTypes: ['AccessTokens'] });

export const accessTokensApi = tagged.injectEndpoints({
  endpoints: (b) => ({
    getAccessTokens: b.query<AccessTokenView[], void>({
      query: () => ({ url: '/api/tokens' }),
      transformResponse: (raw: { tokens?: AccessTokenView[] }) => raw?.tokens ?? [],
      providesTags: ['AccessTokens'],
    }),
    createAccessToken: b.mutation<CreatedAccessToken, NewAccessToken>({
      query: (body) => ({ url: '/api/tokens', method: 'POST', body }),
      invalidatesTags: ['AccessTokens'],
    }),
    revokeAccessToken: b.mutation<void, string>({
      query: (id) => ({ url: `/api/tokens/${encodeURIComponent(id)}`, method: 'DELETE' }),
      invalidatesTags: ['AccessTokens'],
    }),
  }),
});

export const { useGetAccessTokensQuery, useCreateAccessTokenMutation, useRevokeAccessTokenMutation } = accessTokensApi;
