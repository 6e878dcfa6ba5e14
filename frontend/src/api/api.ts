import { createApi, type BaseQueryFn } from '@reduxjs/toolkit/query/react';
import { request, type ApiError, type RequestArgs } from './http';
import { getSocket, onConnectionChange } from './socket';
import { mergeConfig, windowConfig, type AppConfig } from '../config';
import { setUser } from '../store/authSlice';
import { observeBot } from '../store/lifecycle';
import type {
  BalanceRecord,
  Bot,
  BotOverview,
  BotSummary,
  BotType,
  CapacityData,
  CapacityQuery,
  MarketRulesData,
  ChartData,
  CreateBotBody,
  CreateInfinityBotBody,
  Credential,
  EditBotBody,
  Exchange,
  User,
} from './types';

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

/** Whether balances and orders are simulated (paper), on a venue's test network, or real (issue 29). */
export type ExchangeMode = 'paper' | 'testnet' | 'live';

/** Issue 39: which feed prices a paper exchange, and for the venues' streams each one's state. */
export interface PaperFeed {
  kind: 'walk' | 'csv' | 'venue';
  streams: Array<{ exchange: string; market: 'spot' | 'futures'; live: boolean; since: number | null; lastPriceAt: number | null; reason?: string }>;
}
export interface ExchangeModeInfo {
  mode: ExchangeMode;
  /** Paper only (null otherwise, and from an older server). */
  feed: PaperFeed | null;
}

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
        const res = await request<Partial<AppConfig>>({ url: '/api/config' });
        return { data: mergeConfig(res.data ?? undefined, fromWindow) };
      },
    }),

    // ---- identity -------------------------------------------------------------------------
    login: b.mutation<User, { email: string; password: string }>({
      query: (body) => ({ url: '/api/auth/login', method: 'POST', body }),
    }),
    register: b.mutation<User, { email: string; password: string }>({
      query: (body) => ({ url: '/api/auth/register', method: 'POST', body }),
    }),
    logout: b.mutation<null, void>({
      query: () => ({ url: '/api/auth/logout', method: 'POST' }),
    }),
    verifyEmail: b.mutation<User, { token: string }>({
      query: (body) => ({ url: '/api/auth/verify-email', method: 'POST', body }),
    }),
    resendVerification: b.mutation<null, void>({
      query: () => ({ url: '/api/auth/resend-verification', method: 'POST' }),
    }),
    forgotPassword: b.mutation<null, { email: string }>({
      query: (body) => ({ url: '/api/auth/forgot-password', method: 'POST', body }),
    }),
    resetPassword: b.mutation<unknown, { token: string; password: string }>({
      query: (body) => ({ url: '/api/auth/reset-password', method: 'POST', body }),
    }),
    updateProfile: b.mutation<User, { userId: string; firstname: string; lastname: string; username: string; picurl: string }>({
      query: (body) => ({ url: '/api/user', method: 'POST', body }),
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
    getBots: b.query<Bot[], string>({
      query: (userId) => ({ url: `/api/bots/${encodeURIComponent(userId)}` }),
      transformResponse: (raw: unknown) => (Array.isArray(raw) ? (raw as Bot[]) : []),
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
          const res = await request<Bot>({ url: `/api/bot-details/${encodeURIComponent(id)}` });
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
            void request<Bot[]>({ url: `/api/bots/${encodeURIComponent(userId)}` }).then((res) => {
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
    createBot: b.mutation<Bot, CreateBotBody | CreateInfinityBotBody>({
      query: (body) => ({ url: '/api/bots', method: 'POST', body }),
      async onQueryStarted(body, { dispatch, queryFulfilled }) {
        try {
          const { data } = await queryFulfilled;
          if (data && data.id) dispatch(api.util.updateQueryData('getBots', body.userId, (d) => upsert(d, data)));
        } catch {
          /* the caller shows the error */
        }
      },
    }),
    editBot: b.mutation<Bot, { id: string; userId: string; body: EditBotBody }>({
      query: ({ id, body }) => ({ url: `/api/bots/${encodeURIComponent(id)}`, method: 'PUT', body }),
      async onQueryStarted({ userId }, { dispatch, queryFulfilled }) {
        try {
          const { data } = await queryFulfilled;
          if (data && data.id) dispatch(api.util.updateQueryData('getBots', userId, (d) => upsert(d, data)));
        } catch {
          /* the caller shows the error */
        }
      },
    }),
    deleteBot: b.mutation<null, { id: string; userId: string }>({
      query: ({ id }) => ({ url: `/api/bots/${encodeURIComponent(id)}`, method: 'DELETE' }),
      async onQueryStarted({ id, userId }, { dispatch, queryFulfilled }) {
        try {
          await queryFulfilled;
          dispatch(api.util.updateQueryData('getBots', userId, (d) => d.filter((x) => x.id !== id)));
        } catch {
          /* the caller shows the error */
        }
      },
    }),
    startBot: b.mutation<Bot, StartArgs>({
      query: ({ bot, confirmPosition }) => ({
        url: '/api/startBot',
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
        },
      }),
    }),
    stopBot: b.mutation<Bot, StopArgs>({
      query: ({ bot, cancelAllOrders, closePosition }) => ({
        url: '/api/stopBot',
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
        },
      }),
    }),
    getChart: b.query<ChartData, string>({
      async queryFn(id) {
        const res = await request<Partial<ChartData>>({ url: `/api/bots/${encodeURIComponent(id)}/chart` });
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

    getSummary: b.query<BotSummary, string>({
      query: (id) => ({ url: `/api/bots/${encodeURIComponent(id)}/summary` }),
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
      query: () => ({ url: '/api/bots-overview' }),
      transformResponse: (raw: unknown) => (Array.isArray(raw) ? (raw as BotOverview[]) : []),
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
      query: (params) => ({ url: '/api/bot-capacity', params: Object.fromEntries(Object.entries(params).filter(([, v]) => v !== undefined && v !== '')) as Record<string, string> }),
      transformResponse: (raw: unknown) => (raw && typeof raw === 'object' && 'openOrders' in raw ? (raw as CapacityData) : null),
      keepUnusedDataFor: 0,
    }),
    getMarketRules: b.query<MarketRulesData | null, { botType: BotType; symbol: string; exchange: Exchange }>({
      query: (params) => ({ url: '/api/market-rules', params }),
      transformResponse: (raw: unknown) => (raw && typeof raw === 'object' && 'priceStep' in raw ? (raw as MarketRulesData) : null),
    }),

    // ---- credentials ----------------------------------------------------------------------
    getCredentials: b.query<Credential[], string>({
      query: (userId) => ({ url: `/api/api-credentials/${encodeURIComponent(userId)}` }),
      transformResponse: (raw: unknown) => (Array.isArray(raw) ? (raw as Credential[]) : []),
      providesTags: ['Credentials'],
    }),
    addCredential: b.mutation<Credential, { exchange: Exchange; apiKey: string; keySecret: string; passPhrase: string; userId: string }>({
      query: (access) => ({ url: '/api/api-credentials', method: 'POST', body: { access } }),
      invalidatesTags: ['Credentials'],
    }),
    deleteCredential: b.mutation<null, string>({
      query: (id) => ({ url: `/api/api-credentials/${encodeURIComponent(id)}`, method: 'DELETE' }),
      invalidatesTags: ['Credentials'],
    }),

    // ---- exchange data --------------------------------------------------------------------
    /**
     * Beyond the spec (issue 29): paper, testnet or live, for the badge; null when unknown (no badge).
     * Issue 39: with the paper exchange's feed (the venues' streams or a simulation).
     */
    getExchangeMode: b.query<ExchangeModeInfo | null, void>({
      query: () => ({ url: '/api/exchange-mode' }),
      transformResponse: (raw: unknown) => {
        const body = typeof raw === 'object' && raw !== null ? (raw as { mode?: unknown; feed?: unknown }) : {};
        const mode = body.mode;
        if (mode !== 'paper' && mode !== 'testnet' && mode !== 'live') return null;
        return { mode, feed: mode === 'paper' ? paperFeedOf(body.feed) : null };
      },
    }),
    getBalance: b.query<{ balance: number; available: number } | null, { botType: BotType; userId: string; exchange: Exchange }>({
      query: ({ botType, userId, exchange }) => ({ url: `/api/balance${botType}`, params: { userId, exchange } }),
      transformResponse: (raw: unknown) => {
        if (!Array.isArray(raw)) return null;
        const records = raw.map((r) => (typeof r === 'string' ? safeJson(r) : r)) as BalanceRecord[];
        const usdt = records.find((r) => r && String(r.symbol).toUpperCase() === 'USDT');
        return usdt ? { balance: num(usdt.balance), available: num(usdt.available) } : null;
      },
    }),
    getPrice: b.query<number | null, { botType: BotType; symbol: string; exchange: Exchange }>({
      query: ({ botType, symbol, exchange }) => ({ url: `/api/price${botType}`, params: { symbol, exchange } }),
      transformResponse: (raw: unknown) => {
        const n = typeof raw === 'object' && raw !== null && 'price' in raw ? Number((raw as { price: unknown }).price) : Number(raw);
        return Number.isFinite(n) && n > 0 ? n : null;
      },
    }),
    getPositionRisk: b.query<Array<{ symbol: string; leverage: number }>, { userId: string; exchange: Exchange }>({
      query: ({ userId, exchange }) => ({ url: '/api/futuresPositionRisk', params: { userId, exchange } }),
      transformResponse: (raw: unknown) => (Array.isArray(raw) ? (raw as Array<{ symbol: string; leverage: number }>) : []),
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
