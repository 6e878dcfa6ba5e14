/**
 * The auditors' routes (issue 7), injected into the one RTK Query api from this lazily loaded
 * module so that they cost the landing route nothing.
 */
import { api } from '../api/api';
import { apiPath, type Answer, type Query } from '../api/contract';
import { ordered, type HistoryEvent, type StateAt } from './events';

export const historyApi = api.injectEndpoints({
  endpoints: (b) => ({
    getBotHistory: b.query<HistoryEvent[], string>({
      query: (id) => ({ url: apiPath('/api/bots/{id}/history', { id }) }),
      transformResponse: (raw: Answer<'/api/bots/{id}/history', 'get'> | null) => ordered(raw),
    }),
    getBotStateAt: b.query<StateAt, { id: string } & Required<Query<'/api/bots/{id}/state', 'get'>>>({
      query: ({ id, at }) => ({ url: apiPath('/api/bots/{id}/state', { id }), params: { at } }),
    }),
  }),
});

export const { useGetBotHistoryQuery, useGetBotStateAtQuery } = historyApi;

export function exportUrl(id: string, format: 'csv' | 'ndjson'): string {
  return `${apiPath('/api/bots/{id}/history', { id })}?format=${format satisfies Query<'/api/bots/{id}/history', 'get'>['format']}`;
}
