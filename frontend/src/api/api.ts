// Over 400 lines: every endpoint of the dashboard's RTK Query API, with its cache tags and live updates, in one createApi.
import { createApi, type BaseQueryFn } from '@reduxjs/toolkit/query/react';
import { request, type ApiError, type RequestArgs } from './http';
import { getSocket, onConnectionChange } from './socket';
import { mergeConfig, windowConfig, type AppConfig } from '../config';
import { setUser } from '../store/authSlice';
import { observeBot } from '../store/lifecycle';
import { apiPath, type Answer, type Body, type Query } from './contract';
import type { Bot, BotOverview, BotType, CapacityData, CapacityQuery, ChartData, CreateAnyBotBody, EditBotBody, Exchange, MarketRulesData } from './types';

const baseQuery: BaseQueryFn<RequestArgs, unknown, ApiError> = async (args) => request(args);

function upsert(list: Bot[], bot: Bot) {
  const i = list.findIndex((b) => b.id === bot.id);
  if (i >= 0) list[i] = bot;
  else list.push(bot);
}

function num(v: unknown): number {
  const n = typeof v === 'string' ? Number(v) : (v as number);
  return typeof n === 'number' && Number.isFinite(n) ? n : 0;
}

/**
 * Runs `handler` for the named pushes on the current socket and on any socket created later
 * (socket.io-client loads after sign-in); returns the detach function.
 */
function onPushes(events: string[], handler: (m: { id?: string } | undefined) => void): () => void {
  let attached: ReturnType<typeof getSocket> = null;
  const attach = () => {
    const s = getSocket();
    if (!s || s === attached) return;
    if (attached) for (const e of events) attached.off(e, handler);
    attached = s;
    for (const e of events) s.on(e, handler);
  };
  attach();
  const off = onConnectionChange(() => attach());
  return () => {
    off();
    if (attached) for (const e of events) attached.off(e, handler);
  };
}

const LIVE_EVENTS = ['bot:activity', 'bot:status', 'bot:changed'];

/** GET /api/exchange-mode: paper, testnet or live, and (issue 39) which feed prices a paper exchange (null otherwise, and from an older server). */
export type ExchangeModeInfo = Answer<'/api/exchange-mode', 'get'>;
/** Whether balances and orders are simulated (paper), on a venue's test network, or real (issue 29). */
export type ExchangeMode = ExchangeModeInfo['mode'];
export type PaperFeed = NonNullable<ExchangeModeInfo['feed']>;

function paperFeedOf(raw: unknown): PaperFeed | null {
  const f = raw as PaperFeed | null | undefined;
  if (!f || typeof f !== 'object' || !['walk', 'csv', 'venue'].includes(f.kind)) return null;
  return { kind: f.kind, streams: Array.isArray(f.streams) ? f.streams : [] };
}

export interface StartArgs {
  bot: Bot;
  /** Beyond the spec (issue 29): the owner confirmed a start of a bot that holds a position. */
  confirmPosition?: boolean;
}
export interface StopArgs {
  bot: Bot;
  cancelAllOrders: boolean;
  /** Beyond the spec: close the bot's position at market once its orders are cancelled (futures: reduce-only; spot: sell what the bot holds, issue 29). */
  closePosition?: boolean;
}

export const api = createApi({
  reducerPath: 'api',
  baseQuery,
  tagTypes: ['Credentials', 'Chart', 'Summary', 'Overview'],
  endpoints: (b) => ({
    getConfig: b.query<AppConfig, void>({
      async queryFn() {
        const fromWindow = windowConfig();
        const res = await request<Partial<Answer<'/api/config', 'get'>>>({ url: apiPath('/api/config') });
        return { data: mergeConfig(res.data ?? undefined, fromWindow) };
      },
    }),

    // ---- identity -------------------------------------------------------------------------
    /** 200 the user, or 202 when a second factor is needed (issue 30). */
    login: b.mutation<Answer<'/api/auth/login', 'post'>, Body<'/api/auth/login', 'post'>>({
      query: (body) => ({ url: apiPath('/api/auth/login'), method: 'POST', body }),
    }),
    register: b.mutation<Answer<'/api/auth/register', 'post'>, Body<'/api/auth/register', 'post'>>({
      query: (body) => ({ url: apiPath('/api/auth/register'), method: 'POST', body }),
    }),
    logout: b.mutation<Answer<'/api/auth/logout', 'post'>, void>({
      query: () => ({ url: apiPath('/api/auth/logout'), method: 'POST' }),
    }),
    verifyEmail: b.mutation<Answer<'/api/auth/verify-email', 'post'>, Body<'/api/auth/verify-email', 'post'>>({
      query: (body) => ({ url: apiPath('/api/auth/verify-email'), method: 'POST', body }),
    }),
    resendVerification: b.mutation<Answer<'/api/auth/resend-verification', 'post'>, void>({
      query: () => ({ url: apiPath('/api/auth/resend-verification'), method: 'POST' }),
    }),
    forgotPassword: b.mutation<Answer<'/api/auth/forgot-password', 'post'>, Body<'/api/auth/forgot-password', 'post'>>({
      query: (body) => ({ url: apiPath('/api/auth/forgot-password'), method: 'POST', body }),
    }),
    resetPassword: b.mutation<Answer<'/api/auth/reset-password', 'post'>, Body<'/api/auth/reset-password', 'post'>>({
      query: (body) => ({ url: apiPath('/api/auth/reset-password'), method: 'POST', body }),
    }),
    updateProfile: b.mutation<Answer<'/api/user', 'post'>, Body<'/api/user', 'post'>>({
      query: (body) => ({ url: apiPath('/api/user'), method: 'POST', body }),
      async onQueryStarted(_arg, { dispatch, queryFulfilled }) {
        try {
          const { data } = await queryFulfilled;
          if (data && typeof data === 'object' && 'uid' in data) dispatch(setUser(data));
        } catch {
          /* spec: the outcome is only logged */
        }
      },
    }),

    // ---- bots -----------------------------------------------------------------------------
    getBots: b.query<Answer<'/api/bots/{id}', 'get'>, string>({
      query: (userId) => ({ url: apiPath('/api/bots/{id}', { id: userId }) }),
      transformResponse: (raw: Answer<'/api/bots/{id}', 'get'> | null) => (Array.isArray(raw) ? raw : []),
      /** Live status: socket.io pushes patch this cache entry; see DESIGN.md "Push". */
      async onCacheEntryAdded(userId, { updateCachedData, cacheDataLoaded, cacheEntryRemoved, dispatch }) {
        try {
          await cacheDataLoaded;
        } catch {
          return;
        }
        /**
         * Status pushes seen per bot. A bot-details read that was asked for before the latest status
         * push may answer after it with the older status (a fast runner starts a bot within a few
         * ms): then the pushed status wins and the read only brings the other fields.
         */
        const statusSeen = new Map<string, number>();
        const refetchOne = async (id: string) => {
          const seenBefore = statusSeen.get(id) ?? 0;
          const res = await request<Answer<'/api/bot-details/{id}', 'get'>>({ url: apiPath('/api/bot-details/{id}', { id }) });
          if (res.data && res.data.id) {
            let bot = res.data;
            const stale = (statusSeen.get(id) ?? 0) !== seenBefore;
            updateCachedData((draft) => {
              const current = draft.find((x) => x.id === id);
              if (stale && current) {
                bot = { ...bot, botstatus: current.botstatus, pid: current.pid, state: current.state, lasterror: current.lasterror };
              }
              upsert(draft, bot);
            });
            dispatch(observeBot(bot, 'push'));
            dispatch(api.util.invalidateTags([{ type: 'Chart', id }]));
          } else if (res.error?.status === 404) {
            updateCachedData((draft) => draft.filter((x) => x.id !== id));
          }
        };
        const onStatus = (m: { id: string; botstatus: boolean | number; pid: number }) => {
          if (!m || !m.id) return;
          statusSeen.set(m.id, (statusSeen.get(m.id) ?? 0) + 1);
          let patched: Bot | undefined;
          updateCachedData((draft) => {
            const bot = draft.find((x) => x.id === m.id);
            if (!bot) return;
            bot.botstatus = Boolean(m.botstatus);
            bot.pid = m.pid;
            bot.state = m.botstatus ? 'running' : 'stopped';
            if (m.botstatus) bot.lasterror = null;
            patched = { ...bot };
          });
          if (patched) dispatch(observeBot(patched, 'push'));
          // a stop after a failed start carries a reason: read the whole bot
          if (!m.botstatus) void refetchOne(m.id);
        };
        const onChanged = (m: { id: string }) => {
          if (m && m.id) void refetchOne(m.id);
        };
        const onDeleted = (m: { id: string }) => {
          if (m && m.id) updateCachedData((draft) => draft.filter((x) => x.id !== m.id));
        };
        let attached: ReturnType<typeof getSocket> = null;
        let seenConnect = false;
        const onConnect = () => {
          // after a reconnect we may have missed pushes: read the list again
          if (seenConnect) {
            void request<Answer<'/api/bots/{id}', 'get'>>({ url: apiPath('/api/bots/{id}', { id: userId }) }).then((res) => {
              if (Array.isArray(res.data)) {
                const list = res.data;
                updateCachedData(() => list);
                list.forEach((bot) => dispatch(observeBot(bot, 'poll')));
              }
            });
          }
          seenConnect = true;
        };
        const attach = () => {
          const s = getSocket();
          if (!s || s === attached) return;
          attached = s;
          seenConnect = s.connected;
          s.on('bot:status', onStatus);
          s.on('bot:changed', onChanged);
          s.on('bot:deleted', onDeleted);
          s.on('connect', onConnect);
        };
        attach();
        const unsubscribe = onConnectionChange(() => attach());
        await cacheEntryRemoved;
        unsubscribe();
        const last = attached as ReturnType<typeof getSocket>;
        if (last) {
          last.off('bot:status', onStatus);
          last.off('bot:changed', onChanged);
          last.off('bot:deleted', onDeleted);
          last.off('connect', onConnect);
        }
      },
    }),
    createBot: b.mutation<Answer<'/api/bots', 'post'>, CreateAnyBotBody & { userId: string }>({
      query: (body) => ({ url: apiPath('/api/bots'), method: 'POST', body }),
      async onQueryStarted(body, { dispatch, queryFulfilled }) {
        try {
          const { data } = await queryFulfilled;
          if (data && data.id) dispatch(api.util.updateQueryData('getBots', body.userId, (d) => upsert(d, data)));
        } catch {
          /* the caller shows the error */
        }
      },
    }),
    editBot: b.mutation<Answer<'/api/bots/{id}', 'put'>, { id: string; userId: string; body: EditBotBody }>({
      query: ({ id, body }) => ({ url: apiPath('/api/bots/{id}', { id }), method: 'PUT', body }),
      async onQueryStarted({ userId }, { dispatch, queryFulfilled }) {
        try {
          const { data } = await queryFulfilled;
          if (data && data.id) dispatch(api.util.updateQueryData('getBots', userId, (d) => upsert(d, data)));
        } catch {
          /* the caller shows the error */
        }
      },
    }),
    deleteBot: b.mutation<Answer<'/api/bots/{id}', 'delete'>, { id: string; userId: string }>({
      query: ({ id }) => ({ url: apiPath('/api/bots/{id}', { id }), method: 'DELETE' }),
      async onQueryStarted({ id, userId }, { dispatch, queryFulfilled }) {
        try {
          await queryFulfilled;
          dispatch(api.util.updateQueryData('getBots', userId, (d) => d.filter((x) => x.id !== id)));
        } catch {
          /* the caller shows the error */
        }
      },
    }),
    startBot: b.mutation<Answer<'/api/startBot', 'get'>, StartArgs>({
      query: ({ bot, confirmPosition }) => ({
        url: apiPath('/api/startBot'),
        csrf: true,
        params: {
          userId: bot.userid,
          symbol: bot.symbol,
          quantity: bot.ordersize,
          orderCount: bot.numoforders,
          orderDiff: bot.interval,
          takeProfit: bot.takeprofit,
          id: bot.id,
          exchange: bot.exchange,
          entryPrice: bot.entryprice,
          botType: bot.bottype,
          // sent only once the owner confirmed what the bot holds (the spec's start call is unchanged)
          ...(confirmPosition ? { confirmPosition: true } : {}),
        } satisfies Query<'/api/startBot', 'get'>,
      }),
    }),
    stopBot: b.mutation<Answer<'/api/stopBot', 'get'>, StopArgs>({
      query: ({ bot, cancelAllOrders, closePosition }) => ({
        url: apiPath('/api/stopBot'),
        csrf: true,
        params: {
          userId: bot.userid,
          id: bot.id,
          pid: bot.pid,
          cancelAllOrders,
          exchange: bot.exchange,
          symbol: bot.symbol,
          botType: bot.bottype,
          // sent only when asked for (the spec's stop call is unchanged)
          ...(closePosition ? { closePosition: true } : {}),
        } satisfies Query<'/api/stopBot', 'get'>,
      }),
    }),
    getChart: b.query<ChartData, string>({
      async queryFn(id) {
        const res = await request<Partial<Answer<'/api/bots/{id}/chart', 'get'>>>({ url: apiPath('/api/bots/{id}/chart', { id }) });
        const d = (res.data && typeof res.data === 'object' ? res.data : {}) as Partial<ChartData>;
        // 404 or an empty body before the runner exists: an empty chart, never an error
        return {
          data: {
            points: Array.isArray(d.points) ? d.points : [],
            levels: Array.isArray(d.levels) ? d.levels : [],
            fills: Array.isArray(d.fills) ? d.fills : [],
            // issue 14: the stop-loss, trailing and liquidation levels (bots/AdvancedLevels.tsx)
            ...('risk' in d && d.risk && typeof d.risk === 'object' ? { risk: d.risk } : {}),
          },
        };
      },
      providesTags: (_r, _e, id) => [{ type: 'Chart', id }],
    }),

    getSummary: b.query<Answer<'/api/bots/{id}/summary', 'get'>, string>({
      query: (id) => ({ url: apiPath('/api/bots/{id}/summary', { id }) }),
      providesTags: (_r, _e, id) => [{ type: 'Summary', id }],
      /** Live: orders, fills and status pushes of this bot refresh the figures and the chart. */
      async onCacheEntryAdded(id, { cacheDataLoaded, cacheEntryRemoved, dispatch }) {
        await cacheDataLoaded.catch(() => undefined);
        const off = onPushes(LIVE_EVENTS, (m) => {
          if (m && m.id === id) dispatch(api.util.invalidateTags([{ type: 'Summary', id }, { type: 'Chart', id }]));
        });
        await cacheEntryRemoved;
        off();
      },
    }),
    getOverview: b.query<BotOverview[], void>({
      query: () => ({ url: apiPath('/api/bots-overview') }),
      transformResponse: (raw: Answer<'/api/bots-overview', 'get'> | null) => (Array.isArray(raw) ? raw : []),
      providesTags: ['Overview'],
      async onCacheEntryAdded(_arg, { cacheDataLoaded, cacheEntryRemoved, dispatch }) {
        await cacheDataLoaded.catch(() => undefined);
        const off = onPushes([...LIVE_EVENTS, 'bot:deleted'], () => dispatch(api.util.invalidateTags(['Overview'])));
        await cacheEntryRemoved;
        off();
      },
    }),
    /** Issue 39: what the key can carry if a bot of these values started (GET /api/bot-capacity). */
    getCapacity: b.query<CapacityData | null, CapacityQuery>({
      query: (params) => ({ url: apiPath('/api/bot-capacity'), params: Object.fromEntries(Object.entries(params).filter(([, v]) => v !== undefined && v !== '')) as Record<string, string> }),
      transformResponse: (raw: Answer<'/api/bot-capacity', 'get'> | null) => (raw && typeof raw === 'object' && 'openOrders' in raw ? raw : null),
      keepUnusedDataFor: 0,
    }),
    getMarketRules: b.query<MarketRulesData | null, Query<'/api/market-rules', 'get'> & { botType: BotType }>({
      query: (params) => ({ url: apiPath('/api/market-rules'), params }),
      transformResponse: (raw: MarketRulesData | null) => (raw && typeof raw === 'object' && 'priceStep' in raw ? raw : null),
    }),

    // ---- credentials ----------------------------------------------------------------------
    getCredentials: b.query<Answer<'/api/api-credentials/{id}', 'get'>, string>({
      query: (userId) => ({ url: apiPath('/api/api-credentials/{id}', { id: userId }) }),
      transformResponse: (raw: Answer<'/api/api-credentials/{id}', 'get'> | null) => (Array.isArray(raw) ? raw : []),
      providesTags: ['Credentials'],
    }),
    addCredential: b.mutation<Answer<'/api/api-credentials', 'post'>, Body<'/api/api-credentials', 'post'>['access']>({
      query: (access) => ({ url: apiPath('/api/api-credentials'), method: 'POST', body: { access } satisfies Body<'/api/api-credentials', 'post'> }),
      invalidatesTags: ['Credentials'],
    }),
    deleteCredential: b.mutation<Answer<'/api/api-credentials/{id}', 'delete'>, string>({
      query: (id) => ({ url: apiPath('/api/api-credentials/{id}', { id }), method: 'DELETE' }),
      invalidatesTags: ['Credentials'],
    }),

    // ---- exchange data --------------------------------------------------------------------
    /**
     * Beyond the spec (issue 29): paper, testnet or live, for the badge; null when unknown (no badge).
     * Issue 39: with the paper exchange's feed (the venues' streams or a simulation).
     */
    getExchangeMode: b.query<ExchangeModeInfo | null, void>({
      query: () => ({ url: apiPath('/api/exchange-mode') }),
      transformResponse: (raw: unknown) => {
        const body = typeof raw === 'object' && raw !== null ? (raw as { mode?: unknown; feed?: unknown }) : {};
        const mode = body.mode;
        if (mode !== 'paper' && mode !== 'testnet' && mode !== 'live') return null;
        return { mode, feed: mode === 'paper' ? paperFeedOf(body.feed) : null };
      },
    }),
    getBalance: b.query<{ balance: number; available: number } | null, { botType: BotType; userId: string; exchange: Exchange }>({
      query: ({ botType, userId, exchange }) => ({ url: apiPath(`/api/balance${botType}`), params: { userId, exchange } satisfies Query<`/api/balance${BotType}`, 'get'> }),
      // the spec's records are JSON strings; the document's, objects: both are read
      transformResponse: (raw: Answer<`/api/balance${BotType}`, 'get'> | string[] | null) => {
        if (!Array.isArray(raw)) return null;
        const records = raw.map((r) => (typeof r === 'string' ? safeJson(r) : r)) as Array<Answer<`/api/balance${BotType}`, 'get'>[number] | null>;
        const usdt = records.find((r) => r && String(r.symbol).toUpperCase() === 'USDT');
        return usdt ? { balance: num(usdt.balance), available: num(usdt.available) } : null;
      },
    }),
    getPrice: b.query<number | null, { botType: BotType; symbol: string; exchange: Exchange }>({
      query: ({ botType, symbol, exchange }) => ({ url: apiPath(`/api/price${botType}`), params: { symbol, exchange } satisfies Query<`/api/price${BotType}`, 'get'> }),
      // a number (the document's), or the spec's {price}
      transformResponse: (raw: Answer<`/api/price${BotType}`, 'get'> | { price?: unknown } | null) => {
        const n = typeof raw === 'object' && raw !== null && 'price' in raw ? Number((raw as { price: unknown }).price) : Number(raw);
        return Number.isFinite(n) && n > 0 ? n : null;
      },
    }),
    getPositionRisk: b.query<Answer<'/api/futuresPositionRisk', 'get'>, Query<'/api/futuresPositionRisk', 'get'> & { userId: string }>({
      query: (params) => ({ url: apiPath('/api/futuresPositionRisk'), params }),
      transformResponse: (raw: Answer<'/api/futuresPositionRisk', 'get'> | null) => (Array.isArray(raw) ? raw : []),
    }),
  }),
});

function safeJson(s: string): unknown {
  try {
    return JSON.parse(s);
  } catch {
    return null;
  }
}

export const {
  useGetConfigQuery,
  useLoginMutation,
  useRegisterMutation,
  useLogoutMutation,
  useVerifyEmailMutation,
  useResendVerificationMutation,
  useForgotPasswordMutation,
  useResetPasswordMutation,
  useUpdateProfileMutation,
  useGetBotsQuery,
  useCreateBotMutation,
  useEditBotMutation,
  useDeleteBotMutation,
  useStartBotMutation,
  useStopBotMutation,
  useGetChartQuery,
  useGetSummaryQuery,
  useGetOverviewQuery,
  useGetMarketRulesQuery,
  useGetCapacityQuery,
  useGetCredentialsQuery,
  useAddCredentialMutation,
  useDeleteCredentialMutation,
  useGetBalanceQuery,
  useGetPriceQuery,
  useGetPositionRiskQuery,
  useGetExchangeModeQuery,
} = api;
