/**
 * Binance USDⓈ-M streams of the stand-in (issue 39), as ccxt 4.5's pro `binanceusdm` uses them and
 * Binance documents them (USDⓈ-M Futures "User Data Streams",
 * https://developers.binance.com/docs/derivatives/usds-margined-futures/user-data-streams):
 *
 * - `POST /fapi/v1/listenKey` (X-MBX-APIKEY; weight 1) answers {listenKey}; "If the account has an active
 *   listenKey, that listenKey will be returned and its validity will be extended for 60 minutes".
 *   `PUT` keeps it alive 60 more minutes (an unknown or expired one: -1125 "This listenKey does not
 *   exist."); `DELETE` closes it. An unknown API key: -2015 as on every signed call.
 * - The user data stream at `/private/ws?listenKey=<key>` (ccxt's `getPrivateWsUrl('future')`; Binance's
 *   routed futures URLs, "Websocket Market Streams" / "User Data Streams" base URLs): a connection with an
 *   unknown or expired key is closed at once. It carries `ORDER_TRADE_UPDATE` on every change of the
 *   account's orders (NEW, TRADE with the trade id `t`, last fill `l`/`L`, commission `n`/`N`,
 *   realized profit `rp`; CANCELED) and `ACCOUNT_UPDATE` (balances and positions, reason ORDER) after a
 *   fill ("Event: Order Update", "Event: Balance and Position Update").
 * - A listenKey that was not kept alive expires: the stream gets `{e: 'listenKeyExpired', E, listenKey}`
 *   ("Event: User Data Stream Expired") and the stand-in closes it; `expire()` plays it now.
 * - A connection lives at most 24 hours ("Connections will be disconnected after 24 hours"): `cut()`.
 * - Market streams at `/market/ws/<n>` (ccxt's category for tickers), `/public/ws/<n>` and `/ws/<n>`:
 *   binanceMarketStreams.
 */
import { randomBytes } from 'node:crypto';
import type { OrderUpdate } from '../../exchange.port';
import type { StubRequest, StubResponse } from '../exchange-stub.server';
import { binanceMarketStreams } from './binance-spot.streams';
import type { StandInCore, StreamDialectFactory } from './standin.types';
import type { StreamSocket } from './stream-server';

const LISTEN_KEY_VALIDITY_MS = 60 * 60_000;
const NO_SUCH_KEY: StubResponse = { status: 400, body: { code: -1125, msg: 'This listenKey does not exist.' } };
const BAD_KEY: StubResponse = { status: 401, body: { code: -2015, msg: 'Invalid API-key, IP, or permissions for action.' } };

const num = (n: number | undefined) => String(n ?? 0);

/** An order update of the venue core → `ORDER_TRADE_UPDATE` (field names as documented). */
export function orderTradeUpdate(u: OrderUpdate, x: 'NEW' | 'TRADE' | 'CANCELED', now: number) {
  const o = u.order;
  const f = x === 'TRADE' ? u.fill : undefined;
  const X = x === 'NEW' ? 'NEW' : o.status === 'filled' ? 'FILLED' : o.status === 'cancelled' ? 'CANCELED' : o.filled > 0 ? 'PARTIALLY_FILLED' : 'NEW';
  return {
    e: 'ORDER_TRADE_UPDATE', E: now, T: f?.timestamp ?? o.updatedAt,
    o: {
      s: o.symbol, c: o.clientOrderId, S: o.side.toUpperCase(), o: o.price ? 'LIMIT' : 'MARKET', f: 'GTC', q: num(o.amount), p: num(o.price),
      ap: num(x === 'NEW' ? 0 : o.avgFillPrice), sp: '0', x, X, i: Number(o.exchangeOrderId), l: num(f?.amount), z: num(x === 'NEW' ? 0 : o.filled),
      L: num(f?.price), ...(f ? { N: f.feeAsset, n: num(f.feeCost) } : {}), T: f?.timestamp ?? o.updatedAt, t: f ? Number(f.fillId) : 0,
      b: '0', a: '0', m: true, R: o.reduceOnly === true, wt: 'CONTRACT_PRICE', ot: o.price ? 'LIMIT' : 'MARKET', ps: 'BOTH', cp: false,
      rp: num(f?.realizedPnl), pP: false, si: 0, ss: 0, V: 'EXPIRE_MAKER', pm: 'NONE', gtd: 0,
    },
  };
}

export const binanceUsdmStreams: StreamDialectFactory = (core: StandInCore) => {
  /** listenKey → its API key and until when it is valid. */
  const listenKeys = new Map<string, { apiKey: string; until: number }>();
  const sockets = new Map<string, Set<StreamSocket>>();
  const market = binanceMarketStreams(core);

  const apiKeyOf = (req: StubRequest) => String(req.headers['x-mbx-apikey'] ?? '');
  const live = (listenKey: string) => {
    const k = listenKeys.get(listenKey);
    if (k && k.until <= Date.now()) expireKey(listenKey);
    return listenKeys.get(listenKey);
  };
  const keyOfApiKey = (apiKey: string) => [...listenKeys.entries()].find(([lk, v]) => v.apiKey === apiKey && live(lk))?.[0];

  function expireKey(listenKey: string) {
    listenKeys.delete(listenKey);
    for (const s of sockets.get(listenKey) ?? []) {
      s.send({ e: 'listenKeyExpired', E: Date.now(), listenKey });
      s.close(1000, 'listenKey expired');
    }
    sockets.delete(listenKey);
  }

  const rest = {
    'POST /fapi/v1/listenKey': (req: StubRequest): StubResponse => {
      const apiKey = apiKeyOf(req);
      if (!core.keyOf(apiKey)) return BAD_KEY;
      const listenKey = keyOfApiKey(apiKey) ?? randomBytes(32).toString('hex');
      listenKeys.set(listenKey, { apiKey, until: Date.now() + LISTEN_KEY_VALIDITY_MS });
      return { status: 200, body: { listenKey } };
    },
    'PUT /fapi/v1/listenKey': (req: StubRequest): StubResponse => {
      const apiKey = apiKeyOf(req);
      if (!core.keyOf(apiKey)) return BAD_KEY;
      const listenKey = keyOfApiKey(apiKey);
      if (!listenKey) return NO_SUCH_KEY;
      listenKeys.set(listenKey, { apiKey, until: Date.now() + LISTEN_KEY_VALIDITY_MS });
      return { status: 200, body: { listenKey } };
    },
    'DELETE /fapi/v1/listenKey': (req: StubRequest): StubResponse => {
      const listenKey = keyOfApiKey(apiKeyOf(req));
      if (listenKey) {
        listenKeys.delete(listenKey);
        for (const s of sockets.get(listenKey) ?? []) s.close(1000, 'listenKey closed');
        sockets.delete(listenKey);
      }
      return { status: 200, body: {} };
    },
  };

  const userStream = (socket: StreamSocket) => {
    const listenKey = socket.query.get('listenKey') ?? '';
    const entry = live(listenKey);
    const key = entry ? core.keyOf(entry.apiKey) : undefined;
    if (!entry || !key) return socket.close(1008, 'invalid listenKey');
    let set = sockets.get(listenKey);
    if (!set) sockets.set(listenKey, (set = new Set()));
    set.add(socket);
    const account = core.venue.account(key.userId, core.exchange, core.market);
    const known = new Set<string>();
    const unwatch = core.venue.watchOrders(account, (u) => {
      const now = Date.now();
      // the venue reports an order as NEW before any of its trades, also one that fills on arrival
      if (!known.has(u.order.exchangeOrderId) && u.order.status !== 'cancelled') socket.send(orderTradeUpdate(u, 'NEW', now));
      if (u.fill) socket.send(orderTradeUpdate(u, 'TRADE', now));
      else if (u.order.status === 'cancelled') socket.send(orderTradeUpdate(u, 'CANCELED', now));
      if (u.order.status === 'open') known.add(u.order.exchangeOrderId);
      else known.delete(u.order.exchangeOrderId);
      if (u.fill) {
        const usdt = core.venue.balances(account).find((b) => b.symbol === 'USDT');
        const positions = core.venue.positions(account, u.order.symbol).map((p) => ({ s: p.symbol, pa: String(p.amount), ep: String(p.entryPrice), bep: String(p.entryPrice), cr: '0', up: '0', mt: p.marginMode, iw: '0', ps: 'BOTH' }));
        socket.send({ e: 'ACCOUNT_UPDATE', E: now, T: u.fill.timestamp, a: { m: 'ORDER', B: usdt ? [{ a: 'USDT', wb: String(usdt.balance), cw: String(usdt.balance), bc: '0' }] : [], P: positions } });
      }
    });
    socket.onClose(() => {
      unwatch();
      sockets.get(listenKey)?.delete(socket);
    });
  };

  return {
    rest,
    streams: { '/private/ws': userStream, '/market/ws': market.route, '/public/ws': market.route, '/ws': market.route },
    expire: () => {
      for (const lk of [...listenKeys.keys()]) expireKey(lk);
    },
    revoke: (apiKey) => {
      for (const [lk, v] of [...listenKeys.entries()]) if (v.apiKey === apiKey) expireKey(lk);
    },
    subscriptions: () => ({ user: [...sockets.values()].reduce((n, s) => n + s.size, 0), market: market.count() }),
  };
};
