/** The user's personal access tokens (issue 31), injected into the one RTK Query api. */
import { api } from '../api/api';
import { listOf, removeById } from '../api/collection';
import { apiPath, type Answer, type Body, type Schemas } from '../api/contract';

export type AccessTokenView = Schemas['AccessToken'];
export type AccessTokenScope = AccessTokenView['scopes'][number];

/** The answer to a creation: the only time the token itself is ever sent. */
export type CreatedAccessToken = Answer<'/api/tokens', 'post'>;

export type NewAccessToken = Body<'/api/tokens', 'post'>;

const tagged = api.enhanceEndpoints({ addTagTypes: ['AccessTokens'] });

export const accessTokensApi = tagged.injectEndpoints({
  endpoints: (b) => ({
    getAccessTokens: b.query<AccessTokenView[], void>(listOf<AccessTokenView, 'AccessTokens'>('/api/tokens', 'tokens', 'AccessTokens')),
    createAccessToken: b.mutation<CreatedAccessToken, NewAccessToken>({
      query: (body) => ({ url: apiPath('/api/tokens'), method: 'POST', body }),
      invalidatesTags: ['AccessTokens'],
    }),
    revokeAccessToken: b.mutation<Answer<'/api/tokens/{id}', 'delete'>, string>(removeById('/api/tokens/{id}', 'AccessTokens')),
  }),
});

export const { useGetAccessTokensQuery, useCreateAccessTokenMutation, useRevokeAccessTokenMutation } = accessTokensApi;
