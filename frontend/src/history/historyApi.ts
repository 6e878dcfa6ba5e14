/**
 * The auditors' routes (issue 7), injected into the one RTK Query api from this lazily loaded
 * module so that they cost the landing route nothing.
 */
import { api } from '../api/api';
import { ordered, type HistoryEvent, type StateAt } from './events';

const path = (id: string) => `/api/bots/${encodeURIComponent(id)}`;

export const historyApi = api.injectEndpoints({
  endpoints: (b) => ({
    getBotHistory: b.query<HistoryEvent[], string>({
      query: (id) => ({ url: `${path(id)}/history` }),
      transformResponse: (raw: unknown) => ordered(raw),
    }),
    getBotStateAt: b.query<StateAt, { id: string; at: string }>({
      query: ({ id, at }) => ({ url: `${path(id)}/state`, params: { at } }),
    }),
  }),
});

export const { useGetBotHistoryQuery, useGetBotStateAtQuery } = historyApi;

export function exportUrl(id: string, format: 'csv' | 'ndjson'): string {
  return `${path(id)}/history?format=${format}`;
}
