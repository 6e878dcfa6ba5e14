/** The user's sessions (issue 30), injected into the one RTK Query api. */
import { api } from '../api/api';
import { apiPath, type Answer, type Schemas } from '../api/contract';

/** A session (its id is opaque: not the session id; `browser`: "Chrome on Linux", from the User-Agent). */
export type SessionView = Schemas['Session'];

const tagged = api.enhanceEndpoints({ addTagTypes: ['Sessions'] });

export const sessionsApi = tagged.injectEndpoints({
  endpoints: (b) => ({
    getSessions: b.query<SessionView[], void>({
      query: () => ({ url: apiPath('/api/sessions') }),
      transformResponse: (raw: Answer<'/api/sessions', 'get'> | null) => raw?.sessions ?? [],
      providesTags: ['Sessions'],
    }),
    signOutSession: b.mutation<Answer<'/api/sessions/{id}', 'delete'>, string>({
      query: (id) => ({ url: apiPath('/api/sessions/{id}', { id }), method: 'DELETE' }),
      invalidatesTags: ['Sessions'],
    }),
    signOutOthers: b.mutation<Answer<'/api/sessions/sign-out-others', 'post'>, void>({
      query: () => ({ url: apiPath('/api/sessions/sign-out-others'), method: 'POST' }),
      invalidatesTags: ['Sessions'],
    }),
  }),
});

export const { useGetSessionsQuery, useSignOutSessionMutation, useSignOutOthersMutation } = sessionsApi;
