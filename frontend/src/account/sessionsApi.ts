/** The user's sessions (issue 30), injected into the one RTK Query api. */
import { api } from '../api/api';
import { listOf, removeById } from '../api/collection';
import { apiPath, type Answer, type Schemas } from '../api/contract';

/** A session (its id is opaque: not the session id; `browser`: "Chrome on Linux", from the User-Agent). */
export type SessionView = Schemas['Session'];

const tagged = api.enhanceEndpoints({ addTagTypes: ['Sessions'] });

export const sessionsApi = tagged.injectEndpoints({
  endpoints: (b) => ({
    getSessions: b.query<SessionView[], void>(listOf<SessionView, 'Sessions'>('/api/sessions', 'sessions', 'Sessions')),
    signOutSession: b.mutation<Answer<'/api/sessions/{id}', 'delete'>, string>(removeById('/api/sessions/{id}', 'Sessions')),
    signOutOthers: b.mutation<Answer<'/api/sessions/sign-out-others', 'post'>, void>({
      query: () => ({ url: apiPath('/api/sessions/sign-out-others'), method: 'POST' }),
      invalidatesTags: ['Sessions'],
    }),
  }),
});

export const { useGetSessionsQuery, useSignOutSessionMutation, useSignOutOthersMutation } = sessionsApi;
