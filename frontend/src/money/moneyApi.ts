/** The money view's routes (issue 29, docs/money.md), injected into the one RTK Query api from the lazily loaded page. */
import { api } from '../api/api';
import type { AccountPerformance, Performance, TradeRow } from '@gridrocket/trading/money/money';

export type { AccountPerformance, Performance, TradeRow };
export type BotPerformance = Performance & { id: string; symbol: string; currency: string };

const path = (id: string) => `/api/bots/${encodeURIComponent(id)}`;

export const moneyApi = api.injectEndpoints({
  endpoints: (b) => ({
    getBotPerformance: b.query<BotPerformance, string>({ query: (id) => ({ url: `${path(id)}/performance` }) }),
    getBotTrades: b.query<{ items: TradeRow[]; total: number; limit: number; offset: number }, { id: string; limit: number; offset: number }>({
      query: ({ id, limit, offset }) => ({ url: `${path(id)}/trades`, params: { limit, offset } }),
    }),
    getAccountPerformance: b.query<AccountPerformance, void>({ query: () => ({ url: '/api/performance' }) }),
  }),
});

export const { useGetBotPerformanceQuery, useGetBotTradesQuery, useGetAccountPerformanceQuery } = moneyApi;

export const tradesCsvUrl = (id: string) => `${path(id)}/trades.csv`;
