/** The money view's routes (issue 29, docs/money.md), injected into the one RTK Query api from the lazily loaded page. */
import { api } from '../api/api';
import { apiPath, type Answer, type Query, type Schemas } from '../api/contract';

export type TradeRow = Schemas['Trade'];
/** GET /api/performance and GET /api/bots/{id}/performance (the document's AccountPerformance, BotPerformance). */
export type AccountPerformance = Schemas['AccountPerformance'];
export type BotPerformance = Schemas['BotPerformance'];
/** The figures a bot's and the account's performance share. */
export type Performance = AccountPerformance | BotPerformance;

export const moneyApi = api.injectEndpoints({
  endpoints: (b) => ({
    getBotPerformance: b.query<Answer<'/api/bots/{id}/performance', 'get'>, string>({ query: (id) => ({ url: apiPath('/api/bots/{id}/performance', { id }) }) }),
    getBotTrades: b.query<Answer<'/api/bots/{id}/trades', 'get'>, { id: string } & Required<Query<'/api/bots/{id}/trades', 'get'>>>({
      query: ({ id, limit, offset }) => ({ url: apiPath('/api/bots/{id}/trades', { id }), params: { limit, offset } }),
    }),
    getAccountPerformance: b.query<Answer<'/api/performance', 'get'>, void>({ query: () => ({ url: apiPath('/api/performance') }) }),
  }),
});

export const { useGetBotPerformanceQuery, useGetBotTradesQuery, useGetAccountPerformanceQuery } = moneyApi;

export const tradesCsvUrl = (id: string) => apiPath('/api/bots/{id}/trades.csv', { id });
