/**
 * Binance spot streams of the stand-in (issue 39), as ccxt 4.5's pro `binance` uses them and Binance
 * documents them:
 *
 * - User data only through the WebSocket API (`/ws-api/v3`): Binance retired spot's REST listenKey
 *   (POST /api/v3/userDataStream) on 2026-02-20 ("User Data Stream ... listenKey ... will be removed",
 *   https://developers.binance.com/docs/binance-spot-api-docs/CHANGELOG, 2025-04-07 entry), so the stand-in
 *   does not serve it. `userDataStream.subscribe.signature` (params apiKey, timestamp, signature = HMAC-SHA256
 *   of the sorted query with the key's secret; weight 2) answers {id, status: 200, result: {subscriptionId}}
 *   and from then on the connection carries `{subscriptionId, event}` with the account's `executionReport`
 *   and `outboundAccountPosition` events; an unknown key is -2015 and a bad signature -1022, with HTTP-like
 *   status 401/400 inside the answer (WebSocket API "User Data Stream requests",
 *   https://developers.binance.com/docs/binance-spot-api-docs/websocket-api/user-data-stream-requests;
 *   "Error codes", https://developers.binance.com/docs/binance-spot-api-docs/errors).
 *   `userDataStream.unsubscribe` ends the subscription; `session.subscriptions` lists them.
 * - Market streams at `/ws/<name>`: the SUBSCRIBE / UNSUBSCRIBE / LIST_SUBSCRIPTIONS requests ({method,
 *   params, id} → {result: null, id}) and `<symbol>@ticker` 24hrTicker / `<symbol>@miniTicker` 24hrMiniTicker
 *   events ("Individual Symbol (Mini) Ticker Stream"; ccxt's watchTicker uses the mini one), pushed on every price the
 *   venue core moves to; a raw stream name in the path (`/ws/btcusdt@ticker`) subscribes too
 *   ("Live Subscribing/Unsubscribing to streams", "Individual Symbol Ticker Streams",
 *   https://developers.binance.com/docs/binance-spot-api-docs/web-socket-streams).
 * - A connection lives at most 24 hours (both documents, "General"): `cut()` of the stream server plays it.
 * - Weight: a WebSocket API connection costs 2 and each request its documented weight, in the same
 *   REQUEST_WEIGHT pool as REST (WebSocket API "Rate limits"); market streams cost no weight.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { OrderUpdate } from '../../exchange.port';
import type { StreamDialectFactory, StandInCore } from './standin.types';
import type { StreamSocket } from './stream-server';

const BAD_KEY = { code: -2015, msg: 'Invalid API-key, IP, or permissions for action.' };
const BAD_SIGNATURE = { code: -1022, msg: 'Signature for this request is not valid.' };

/** The query a Binance signature covers: every param but `signature`, sorted by name, url-encoded. */
export function binanceSignedQuery(params: Record<string, unknown>): string {
  return Object.keys(params)
    .filter((k) => k !== 'signature')
    .sort()
    .map((k) => `${encodeURIComponent(k)}=${encodeURIComponent(String(params[k]))}`)
    .join('&');
}

function signatureOk(secret: string, params: Record<string, unknown>): boolean {
  const expected = Buffer.from(createHmac('sha256', secret).update(binanceSignedQuery(params)).digest('hex'));
  const given = Buffer.from(String(params.signature ?? ''));
  return given.length === expected.length && timingSafeEqual(given, expected);
}

const num = (n: number | undefined) => String(n ?? 0);

/** An order update of the venue core → Binance's `executionReport` (field names as documented). */
export function executionReport(u: OrderUpdate, now: number) {
  const o = u.order;
  const f = u.fill;
  const x = f ? 'TRADE' : o.status === 'cancelled' ? 'CANCELED' : 'NEW';
  const X = o.status === 'filled' ? 'FILLED' : o.status === 'cancelled' ? 'CANCELED' : o.filled > 0 ? 'PARTIALLY_FILLED' : 'NEW';
  const cumQuote = (o.avgFillPrice ?? 0) * o.filled;
  return {
    e: 'executionReport', E: now, s: o.symbol, c: o.clientOrderId, S: o.side.toUpperCase(), o: o.price ? 'LIMIT' : 'MARKET', f: 'GTC',
    q: num(o.amount), p: num(o.price), P: '0.00000000', F: '0.00000000', g: -1, C: x === 'CANCELED' ? o.clientOrderId : '', x, X, r: 'NONE',
    i: Number(o.exchangeOrderId), l: num(f?.amount), z: num(o.filled), L: num(f?.price), n: num(f?.feeCost), N: f ? f.feeAsset : null,
    T: f?.timestamp ?? o.updatedAt, t: f ? Number(f.fillId) : -1, I: 0, w: o.status === 'open', m: true, M: false, O: o.updatedAt,
    Z: num(cumQuote), Y: f ? num(f.price * f.amount) : '0', Q: '0.00000000', W: o.updatedAt, V: 'EXPIRE_MAKER',
  };
}

export const binanceSpotStreams: StreamDialectFactory = (core: StandInCore) => {
  const userStreams = new Set<{ socket: StreamSocket; subscriptionId: number; apiKey: string; end: () => void }>();

  /** The WebSocket API: requests and, after a subscription, the account's events on the same connection. */
  const wsApi = (socket: StreamSocket) => {
    let nextSubscription = 0;
    const subs = new Map<number, () => void>();
    const reply = (id: unknown, result: unknown) => socket.send({ id, status: 200, result, rateLimits: [] });
    const refuse = (id: unknown, status: number, error: { code: number; msg: string }) => socket.send({ id, status, error });
    socket.onClose(() => {
      for (const end of [...subs.values()]) end();
    });
    // a WebSocket API connection weighs 2 in the IP's REQUEST_WEIGHT pool (rate-limits.ts)
    core.rate?.charge(2, 'WS /ws-api/v3 connect');
    socket.onMessage((m) => {
      const id = m?.id ?? null;
      const p = (m?.params ?? {}) as Record<string, unknown>;
      if (m?.method === 'userDataStream.subscribe.signature') {
        const refused = core.rate?.charge(2, 'WS userDataStream.subscribe.signature');
        if (refused) return socket.send({ id, status: refused.status, error: { code: refused.code, msg: refused.msg } });
      }
      switch (m?.method) {
        case 'userDataStream.subscribe.signature': {
          const key = core.keyOf(String(p.apiKey ?? ''));
          if (!key) return refuse(id, 401, BAD_KEY);
          if (!signatureOk(key.secret, p)) return refuse(id, 400, BAD_SIGNATURE);
          const account = core.venue.account(key.userId, core.exchange, core.market);
          const subscriptionId = nextSubscription++;
          reply(id, { subscriptionId });
          const known = new Set<string>();
          const unwatch = core.venue.watchOrders(account, (u) => {
            // the venue reports an order as NEW before any of its trades, also one that fills on arrival
            if (u.fill && !known.has(u.order.exchangeOrderId)) {
              const before = { ...u.order, status: 'open' as const, filled: 0, avgFillPrice: undefined };
              socket.send({ subscriptionId, event: executionReport({ order: before }, Date.now()) });
            }
            known.add(u.order.exchangeOrderId);
            if (u.order.status !== 'open') known.delete(u.order.exchangeOrderId);
            socket.send({ subscriptionId, event: executionReport(u, Date.now()) });
            if (u.fill) {
              const balances = core.venue.balances(account).map((b) => ({ a: b.symbol, f: String(b.available), l: String(Math.round((b.balance - b.available) * 1e8) / 1e8) }));
              socket.send({ subscriptionId, event: { e: 'outboundAccountPosition', E: Date.now(), u: u.fill.timestamp, B: balances } });
            }
          });
          const end = () => {
            unwatch();
            userStreams.delete(entry);
            subs.delete(subscriptionId);
          };
          const entry = { socket, subscriptionId, apiKey: key.apiKey, end };
          userStreams.add(entry);
          subs.set(subscriptionId, end);
          return;
        }
        case 'userDataStream.unsubscribe': {
          const which = p.subscriptionId === undefined ? [...subs.keys()] : [Number(p.subscriptionId)];
          for (const s of which) subs.get(s)?.();
          return reply(id, {});
        }
        case 'session.subscriptions':
          return reply(id, [...subs.keys()].map((subscriptionId) => ({ subscriptionId })));
        case 'ping':
          return reply(id, {});
        case 'time':
          return reply(id, { serverTime: Date.now() });
        default:
          // the stand-in serves only the requests above; Binance answers an unknown method with 400 -1000s
          return refuse(id, 400, { code: -1102, msg: `Unknown method: ${String(m?.method)}` });
      }
    });
  };

  const market = binanceMarketStreams(core);

  return {
    subscriptions: () => ({ user: userStreams.size, market: market.count() }),
    rest: {},
    streams: { '/ws-api/v3': wsApi, '/ws': market.route },
    // A WebSocket API subscription has no credential of its own to expire: the venue ends it with
    // `eventStreamTerminated` (session logout, key deleted; "User Data Stream events") and the client
    // subscribes again; the 24-hour cut ends the whole connection (cut()).
    expire: () => terminate(() => true),
    revoke: (apiKey) => terminate((s) => s.apiKey === apiKey),
  };

  function terminate(which: (s: { apiKey: string }) => boolean) {
      for (const s of [...userStreams].filter(which)) {
        s.socket.send({ subscriptionId: s.subscriptionId, event: { e: 'eventStreamTerminated', E: Date.now() } });
        s.end();
      }
  }
};

/**
 * Binance market streams (spot `/ws/<name>`, USDⓈ-M `/market/ws/<name>`): one connection, many
 * `<symbol>@ticker` / `@miniTicker` subscriptions, pushed on every price the venue core moves to.
 */
export function binanceMarketStreams(core: StandInCore): { route: (socket: StreamSocket) => void; count: () => number } {
  let marketSubscriptions = 0;
  const route = (socket: StreamSocket) => {
    const subs = new Map<string, () => void>();
    const subscribe = (name: string) => {
      const [sym, kind] = name.split('@');
      if (subs.has(name) || (kind !== 'ticker' && kind !== 'miniTicker')) return;
      const symbol = sym.toUpperCase();
      marketSubscriptions++;
      const off = core.venue.onPrice(core.exchange, symbol, (tick) => {
          const c = core.units(tick.price);
          if (kind === 'miniTicker') socket.send({ e: '24hrMiniTicker', E: tick.ms, s: symbol, c, o: c, h: c, l: c, v: '0', q: '0' });
          else socket.send({ e: '24hrTicker', E: tick.ms, s: symbol, p: '0', P: '0', w: c, x: c, c, Q: '0', b: c, B: '0', a: c, A: '0', o: c, h: c, l: c, v: '0', q: '0', O: tick.ms - 86_400_000, C: tick.ms, F: 0, L: 0, n: 0 });
        });
      subs.set(name, () => {
        off();
        marketSubscriptions--;
      });
    };
    const tail = socket.path.split('/').pop() ?? '';
    if (tail.includes('@')) for (const name of tail.split('/')) subscribe(name);
    socket.onClose(() => {
      for (const stop of subs.values()) stop();
      subs.clear();
    });
    socket.onMessage((m) => {
      const names = Array.isArray(m?.params) ? (m.params as unknown[]).map(String) : [];
      if (m?.method === 'SUBSCRIBE') names.forEach(subscribe);
      else if (m?.method === 'UNSUBSCRIBE')
        for (const n of names) {
          subs.get(n)?.();
          subs.delete(n);
        }
      else if (m?.method === 'LIST_SUBSCRIPTIONS') return socket.send({ result: [...subs.keys()], id: m.id });
      else return socket.send({ error: { code: 2, msg: 'Invalid request: unknown variant' }, id: m?.id ?? null });
      socket.send({ result: null, id: m.id });
    });
  };

  return { route, count: () => marketSubscriptions };
}
