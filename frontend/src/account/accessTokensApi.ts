/** The user's personal access tokens (issue 31), injected into the one RTK Query api. */
import { api } from '../api/api';
import { apiPath, type Answer, type Body, type Schemas } from '../api/contract';

export type AccessTokenView = Schemas['AccessToken'];
export type AccessTokenScope = AccessTokenView['scopes'][number];

/** The answer to a creation: the only time the token itself is ever sent. */
export type CreatedAccessToken = Answer<'/api/tokens', 'post'>;

export type NewAccessToken = Body<'/api/tokens', 'post'>;

const tagged = api.enhanceEndpoints({ addTagTypes: ['AccessTokens'] });

export const accessTokensApi = tagged.injectEndpoints({
  endpoints: (b) => ({
    getAccessTokens: b.query<AccessTokenView[], void>({
      query: () => ({ url: apiPath('/api/tokens') }),
      transformResponse: (raw: Answer<'/api/tokens', 'get'> | null) => raw?.tokens ?? [],
      providesTags: ['AccessTokens'],
    }),
    createAccessToken: b.mutation<CreatedAccessToken, NewAccessToken>({
      query: (body) => ({ url: apiPath('/api/tokens'), method: 'POST', body }),
      invalidatesTags: ['AccessTokens'],
    }),
    revokeAccessToken: b.mutation<Answer<'/api/tokens/{id}', 'delete'>, string>({
      query: (id) => ({ url: apiPath('/api/tokens/{id}', { id }), method: 'DELETE' }),
      invalidatesTags: ['AccessTokens'],
    }),
  }),
});

export const { useGetAccessTokensQuery, useCreateAccessTokenMutation, useRevokeAccessTokenMutation } = accessTokensApi;
