/** The user's sessions (issue 30), injected into the one RTK Query api. */
import { api } from '../api/api';

export interface SessionView {
  /** Opaque: not the session id. */
  id: string;
  createdAt: string | null;
  lastSeenAt: string | null;
  /** "Chrome on Linux", summarised by the server from the User-Agent. */
  browser: string;
  address: string | null;
  current: boolean;
}

const tagged = api.enhanceEndpoints({ addTagTypes: ['Sessions'] });

export const sessionsApi = tagged.injectEndpoints({
  endpoints: (b) => ({
    getSessions: b.query<SessionView[], void>({
      query: () => ({ url: '/api/sessions' }),
      transformResponse: (raw: { sessions?: SessionView[] }) => raw?.sessions ?? [],
      providesTags: ['Sessions'],
    }),
    signOutSession: b.mutation<void, string>({
      query: (id) => ({ url: `/api/sessions/${encodeURIComponent(id)}`, method: 'DELETE' }),
      invalidatesTags: ['Sessions'],
    }),
    signOutOthers: b.mutation<{ signedOut: number }, void>({
      query: () => ({ url: '/api/sessions/sign-out-others', method: 'POST' }),
      invalidatesTags: ['Sessions'],
    }),
  }),
});

export const { useGetSessionsQuery, useSignOutSessionMutation, useSignOutOthersMutation } = sessionsApi;
