// Over 400 lines: the whole USDⓈ-M stream surface (listenKey REST, user data stream, market streams) with a source for each rule.
/**
 * Binance USDⓈ-M futures streams of the venue stand-in (issue 39): what ccxt 4.5.84's pro class
 * `binanceusdm` uses, served as Binance documents it, over the paper venue core.
 *
 * - REST `POST/PUT/DELETE /fapi/v1/listenKey` (USER_STREAM: the `X-MBX-APIKEY` header only, no signature)
 *   https://developers.binance.com/docs/derivatives/usds-margined-futures/user-data-streams
 * - the user data stream on the `/private` route, where ccxt connects (`getPrivateWsUrl('future', key)` =
 *   `<ws>/private/ws?listenKey=<key>`; the venue also documents `/private/ws/<listenKey>`, served too):
 *   `ORDER_TRADE_UPDATE`, `ACCOUNT_UPDATE`, `listenKeyExpired`
 * - the market streams on the `/market` route, where ccxt connects for watchTicker
 *   (`getWsUrl('future', 'market') + '/' + <stream index>` = `<ws>/market/ws/<n>`), with the live
 *   SUBSCRIBE / UNSUBSCRIBE / LIST_SUBSCRIPTIONS / SET_PROPERTY / GET_PROPERTY requests, and
 *   `<symbol>@ticker` (24hrTicker) and `<symbol>@miniTicker` (24hrMiniTicker, what ccxt's watchTicker
 *   subscribes to) pushed on every price tick of the paper venue.
 *
 * Time is the stand-in's clock (`core.now()`, the venue's feed time in the tests): a listenKey's 60 minutes
 * and a connection's 24 hours are counted in it, and checked on every price tick, every listenKey call,
 * every new connection, and once a second of wall-clock time while anything is open. Each rule below
 * names its source; docs/exchanges.md lists them ("Binance USDⓈ-M streams").
 */
import { randomInt } from 'node:crypto';
import { splitSymbol, type Fill, type Order, type OrderUpdate, type Unsubscribe } from '../../exchange.port';
import { fromUnits, mulDiv, notionalUnits, SCALE } from '../../fixed-point';
import type { Account } from '../../paper-accounts';
import type { StubRequest, StubResponse } from '../exchange-stub.server';
import { binanceDialect } from './binance.dialect';
import type { StandInCore, StreamDialect, StreamDialectFactory } from './standin.types';
import type { StreamSocket } from './stream-server';

/** What a test may shorten; the defaults are the venue's. */
export interface BinanceUsdmStreamOptions {
  /**
   * "A User Data Stream listenKey is valid for 60 minutes after creation"; a PUT or a POST extends it by 60 minutes.
   * https://developers.binance.com/docs/derivatives/usds-margined-futures/user-data-streams
   */
  listenKeyValidityMs?: number;
  /**
   * "A single connection is only valid for 24 hours; expect to be disconnected at the 24 hour mark"
   * (user data and market streams alike).
   * https://developers.binance.com/docs/derivatives/usds-margined-futures/user-data-streams
   * https://developers.binance.com/docs/derivatives/usds-margined-futures/websocket-market-streams
   */
  connectionLifetimeMs?: number;
  /**
   * "WebSocket connections have a limit of 10 incoming messages per second. A connection that goes beyond
   * the limit will be disconnected" (counted in wall-clock time: it is about the socket, not the market).
   * https://developers.binance.com/docs/derivatives/usds-margined-futures/websocket-market-streams
   */
  maxIncomingPerSecond?: number;
}

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

const ok = (body: unknown): StubResponse => ({ status: 200, body });
/**
 * Error codes, https://developers.binance.com/docs/derivatives/usds-margined-futures/error-code:
 * -2014 BAD_API_KEY_FMT "API-key format invalid." (no or malformed key), -2015 REJECTED_MBX_KEY "Invalid
 * API-key, IP, or permissions for action." (the answer the REST dialect gives to an unknown key),
 * -1125 INVALID_LISTEN_KEY "This listenKey does not exist." (HTTP 400; the user-data-streams page: "if
 * response -1125 error ... Please use POST /fapi/v1/listenKey to recreate listenKey").
 */
const noKey: StubResponse = { status: 401, body: { code: -2014, msg: 'API-key format invalid.' } };
const badKey: StubResponse = { status: 401, body: { code: -2015, msg: 'Invalid API-key, IP, or permissions for action.' } };
const noListenKey: StubResponse = { status: 400, body: { code: -1125, msg: 'This listenKey does not exist.' } };

const num = (n: number) => String(Number(n.toFixed(8)));
const LISTEN_KEY_CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
/** A listenKey as the venue's examples show them: 64 letters and digits. */
const newListenKey = () => Array.from({ length: 64 }, () => LISTEN_KEY_CHARS[randomInt(LISTEN_KEY_CHARS.length)]).join('');

interface LiveKey {
  listenKey: string;
  account: Account;
  expiresAt: number;
  sockets: Set<Conn>;
  stopWatching: Unsubscribe;
  /** Orders of the account this stream has announced (x NEW), and those it has ended, by order id. */
  announced: Set<string>;
  closed: Set<string>;
}

interface Conn {
  socket: StreamSocket;
  since: number;
  /** Wall-clock times of the last incoming messages (the 10-per-second limit). */
  incoming: number[];
}

interface MarketConn extends Conn {
  /** Stream names as subscribed (lowercase symbols, e.g. btcusdt@ticker). */
  streams: Set<string>;
  /** Combined payloads ({stream, data}): true on /stream, false on /ws, or as SET_PROPERTY set it. */
  combined: boolean;
}

/** The stand-in's streams with other limits than the venue's (tests); the venue's are `binanceUsdmStreams`. */
export function binanceUsdmStreamsWith(options: BinanceUsdmStreamOptions = {}): StreamDialectFactory {
  return (core) => new UsdmStreams(core, options).dialect();
}

export const binanceUsdmStreams: StreamDialectFactory = binanceUsdmStreamsWith();

class UsdmStreams {
  private readonly validityMs: number;
  private readonly lifetimeMs: number;
  private readonly maxPerSecond: number;
  /** Live listenKeys by key, and by account (the stand-in key's user: one per account, a POST returns the live one). */
  private readonly keys = new Map<string, LiveKey>();
  private readonly keyOfAccount = new Map<string, LiveKey>();
  private readonly market = new Set<MarketConn>();
  /** Per symbol: the prices of the last 24 h of ticks seen while watching (the ticker's rolling window). */
  private readonly windows = new Map<string, Array<{ ms: number; price: number }>>();
  private readonly marketOrders = new Set<string>();
  private watching: { stops: Unsubscribe[]; timer: NodeJS.Timeout } | null = null;
  /** While a REST order is being placed: the venue's updates of that call, held until its order id is known. */
  private placing: Array<() => void> | null = null;

  constructor(
    private readonly core: StandInCore,
    options: BinanceUsdmStreamOptions,
  ) {
    this.validityMs = options.listenKeyValidityMs ?? 60 * MINUTE;
    this.lifetimeMs = options.connectionLifetimeMs ?? DAY;
    this.maxPerSecond = options.maxIncomingPerSecond ?? 10;
  }

  dialect(): StreamDialect {
    const listenKey = '/fapi/v1/listenKey';
    return {
      rest: {
        [`POST ${listenKey}`]: (req) => this.startStream(req),
        [`PUT ${listenKey}`]: (req) => this.keepAlive(req),
        [`DELETE ${listenKey}`]: (req) => this.closeStream(req),
        'POST /fapi/v1/order': this.orderTypes(),
      },
      streams: {
        '/private/ws': (s) => this.userStream(s),
        '/market/ws': (s) => this.marketStream(s, false),
        '/market/stream': (s) => this.marketStream(s, true),
      },
      expire: () => {
        for (const k of [...this.keys.values()]) this.expireKey(k);
      },
      // the key was deleted on the venue: its listenKey ends with it
      revoke: (apiKey) => {
        const userId = this.core.keyOf(apiKey)?.userId;
        const k = userId === undefined ? undefined : this.keyOfAccount.get(userId);
        if (k) this.expireKey(k);
      },
      subscriptions: () => ({
        user: [...this.keys.values()].reduce((n, k) => n + k.sockets.size, 0),
        market: [...this.market].reduce((n, c) => n + c.streams.size, 0),
      }),
    };
  }

  // -------------------------------------------------------------------------------------------
  // REST: the listenKey (USER_STREAM)

  /** The listenKey calls' caller (the API key's, every call sweeps expired keys first), or the venue's refusal. */
  private caller(req: StubRequest): { userId: string } | StubResponse {
    this.sweep();
    const h = req.headers['x-mbx-apikey'];
    if (typeof h !== 'string' || h === '') return noKey;
    return this.core.keyOf(h) ?? badKey;
  }

  /**
   * POST /fapi/v1/listenKey: "Start a new user data stream. The stream will close after 60 minutes unless a
   * keepalive is sent. If the account has an active listenKey, that listenKey will be returned and its
   * validity will be extended for 60 minutes." Response {"listenKey": "..."}.
   * https://developers.binance.com/docs/derivatives/usds-margined-futures/user-data-streams/Start-User-Data-Stream
   */
  private startStream(req: StubRequest): StubResponse {
    const key = this.caller(req);
    if (!('userId' in key)) return key;
    const live = this.keyOfAccount.get(key.userId);
    if (live) {
      live.expiresAt = this.core.now() + this.validityMs;
      return ok({ listenKey: live.listenKey });
    }
    const account = this.core.venue.account(key.userId, this.core.exchange, this.core.market);
    const k: LiveKey = { listenKey: newListenKey(), account, expiresAt: this.core.now() + this.validityMs, sockets: new Set(), announced: new Set(), closed: new Set(), stopWatching: () => undefined };
    k.stopWatching = this.core.venue.watchOrders(account, (u) => (this.placing ? this.placing.push(() => this.onOrderUpdate(k, u)) : this.onOrderUpdate(k, u)));
    this.keys.set(k.listenKey, k);
    this.keyOfAccount.set(key.userId, k);
    this.wake();
    return ok({ listenKey: k.listenKey });
  }

  /**
   * PUT /fapi/v1/listenKey: "Keepalive a user data stream to prevent a time out", no parameters (the key
   * is the API key's), response {"listenKey": "<the listenkey which got extended>"}; a key that is gone
   * answers -1125 "This listenKey does not exist.".
   * https://developers.binance.com/docs/derivatives/usds-margined-futures/user-data-streams/Keepalive-User-Data-Stream
   * https://developers.binance.com/docs/derivatives/usds-margined-futures/user-data-streams
   */
  private keepAlive(req: StubRequest): StubResponse {
    const key = this.caller(req);
    if (!('userId' in key)) return key;
    const live = this.keyOfAccount.get(key.userId);
    if (!live) return noListenKey;
    live.expiresAt = this.core.now() + this.validityMs;
    return ok({ listenKey: live.listenKey });
  }

  /**
   * DELETE /fapi/v1/listenKey: "Close out a user data stream", response {}; "Doing a DELETE on a listenKey
   * will close the stream and invalidate the listenKey". The venue does not document an answer for an
   * account without a live key: the stand-in answers {} (nothing to close).
   * https://developers.binance.com/docs/derivatives/usds-margined-futures/user-data-streams/Close-User-Data-Stream
   */
  private closeStream(req: StubRequest): StubResponse {
    const key = this.caller(req);
    if (!('userId' in key)) return key;
    const live = this.keyOfAccount.get(key.userId);
    if (live) this.expireKey(live);
    return ok({});
  }

  /**
   * The REST dialect's POST /fapi/v1/order, unchanged, except that the stream learns the order's type: the
   * paper core stores a market order at the price it took, so only the request tells MARKET from LIMIT
   * (ORDER_TRADE_UPDATE `o`, `ot`, and `p` "0" for a market order). The venue's updates pushed while the
   * order is placed are held until its id is known, then sent in their order.
   */
  private orderTypes() {
    const place = binanceDialect(this.core)['POST /fapi/v1/order'];
    return (req: StubRequest): StubResponse => {
      const params = new URLSearchParams(req.body || req.rawQuery);
      const held: Array<() => void> = [];
      const outer = this.placing;
      this.placing = held;
      let res: StubResponse;
      try {
        res = place(req);
      } finally {
        this.placing = outer;
      }
      const id = (res.body as { orderId?: unknown } | undefined)?.orderId;
      if (res.status === 200 && id !== undefined && params.get('type') === 'MARKET') this.marketOrders.add(String(id));
      for (const send of held) (outer ? outer.push(send) : send());
      return res;
    };
  }

  // -------------------------------------------------------------------------------------------
  // The user data stream (/private)

  /**
   * "User Data Streams are accessed at /ws/<listenKey>" on the `/private` route ("URL PATH /private" on each
   * event page); ccxt connects with the key as the `listenKey` query parameter. A key that does not exist
   * (never issued, expired, deleted) is refused: the connection is closed at once (1008), nothing is pushed.
   * https://developers.binance.com/docs/derivatives/usds-margined-futures/user-data-streams
   * https://developers.binance.com/docs/derivatives/usds-margined-futures/websocket-market-streams/Important-WebSocket-Change-Notice
   */
  private userStream(socket: StreamSocket): void {
    this.sweep();
    const fromPath = socket.path.replace(/^\/private\/ws\/?/, '');
    const listenKey = socket.query.get('listenKey') ?? (fromPath || undefined);
    const k = listenKey ? this.keys.get(listenKey) : undefined;
    if (!k) {
      socket.close(1008, 'Invalid listenKey');
      return;
    }
    const conn: Conn = { socket, since: this.core.now(), incoming: [] };
    k.sockets.add(conn);
    socket.onClose(() => {
      k.sockets.delete(conn);
      this.sleepIfIdle();
    });
    socket.onMessage(() => this.countIncoming(conn));
  }

  /** Pushes one of the account's order updates as the venue does: ORDER_TRADE_UPDATE, then ACCOUNT_UPDATE after a fill. */
  private onOrderUpdate(k: LiveKey, u: OrderUpdate): void {
    const send = (m: unknown) => {
      for (const c of k.sockets) c.socket.send(m);
    };
    const { order, fill } = u;
    const id = order.exchangeOrderId;
    if (k.closed.has(id)) return;
    const seen = k.announced.has(id);
    k.announced.add(id);
    if (!fill) {
      // No trade: the order was placed, or it ended without a trade. The paper venue commits a turn's work
      // together and then pushes each change with the order as it stands after the turn, so an update may
      // show a later state than its own: placed and cancelled in one turn reaches here twice, cancelled both
      // times; placed and filled in one turn, filled then traded. An order this stream has not announced is
      // announced when it is still open, traded, or cancelled in the instant it was made.
      const ended = order.status === 'cancelled' && order.filled === 0;
      const placedNow = !seen && (!ended || this.createdAt(k, order) === order.updatedAt);
      if (placedNow) send(this.orderEvent(k, order, { x: 'NEW', X: 'NEW', T: this.createdAt(k, order) ?? order.updatedAt }));
      if (ended) {
        send(this.orderEvent(k, order, { x: 'CANCELED', X: 'CANCELED', T: order.updatedAt }));
        k.closed.add(id);
      }
      return;
    }
    // a trade: an order taken when placed (market, or a limit across the price) is announced first, as the
    // venue announces every new order; it then traded as the taker, a resting order as the maker
    const takenWhenPlaced = !seen && this.createdAt(k, order) === fill.timestamp;
    if (takenWhenPlaced) send(this.orderEvent(k, order, { x: 'NEW', X: 'NEW', T: fill.timestamp }));
    const complete = fill.amount >= order.amount;
    send(this.orderEvent(k, order, { x: 'TRADE', X: complete ? 'FILLED' : 'PARTIALLY_FILLED', T: fill.timestamp, fill, maker: !takenWhenPlaced }));
    if (!complete) {
      // the paper core caps a reduce-only order at the position; the rest would open the other side, and the
      // venue expires it: expiry reason 4 "Order has been canceled, as it's knocked out by another higher
      // priority RO (market) order or reversed positions would be opened"
      // https://developers.binance.com/docs/derivatives/usds-margined-futures/user-data-streams/Event-Order-Update
      send(this.orderEvent(k, order, { x: 'EXPIRED', X: 'EXPIRED', T: fill.timestamp, fill, er: '4' }));
    }
    k.closed.add(id);
    send(this.accountUpdate(k, order.symbol, fill.timestamp));
  }

  private createdAt(k: LiveKey, order: Order): number | undefined {
    return this.core.venue.store.orderById(k.account, Number(order.exchangeOrderId))?.createdAt;
  }

  /**
   * ORDER_TRADE_UPDATE: "When new order created, order status changed will push such event", with the
   * fields of the page's example (`N` and `n` "will not push if no commission"). Time in force GTC, one-way
   * mode (`ps` BOTH), contract price, self-trade prevention EXPIRE_MAKER and no price match, as the REST
   * dialect reports its orders.
   * https://developers.binance.com/docs/derivatives/usds-margined-futures/user-data-streams/Event-Order-Update
   */
  private orderEvent(k: LiveKey, order: Order, e: { x: string; X: string; T: number; fill?: Fill; maker?: boolean; er?: string }) {
    const market = this.marketOrders.has(order.exchangeOrderId);
    const type = market ? 'MARKET' : 'LIMIT';
    const traded = e.fill !== undefined;
    const last = e.x === 'TRADE' && e.fill ? e.fill : undefined;
    const { bids, asks } = this.openNotional(k.account, order.symbol);
    return {
      e: 'ORDER_TRADE_UPDATE',
      E: this.core.now(),
      T: e.T,
      o: {
        s: order.symbol,
        c: order.clientOrderId,
        S: order.side.toUpperCase(),
        o: type,
        f: 'GTC',
        q: num(order.amount),
        p: market ? '0' : num(order.price),
        ap: traded ? num(e.fill!.price) : '0',
        sp: '0',
        x: e.x,
        X: e.X,
        i: Number(order.exchangeOrderId),
        l: last ? num(last.amount) : '0',
        z: traded ? num(e.fill!.amount) : '0',
        L: last ? num(last.price) : '0',
        ...(last ? { N: last.feeAsset, n: num(last.feeCost) } : {}),
        T: e.T,
        t: last ? Number(last.fillId) : 0,
        b: bids,
        a: asks,
        m: last ? e.maker === true : false,
        R: order.reduceOnly === true,
        wt: 'CONTRACT_PRICE',
        ot: type,
        ps: 'BOTH',
        cp: false,
        rp: last ? num(last.realizedPnl ?? 0) : '0',
        pP: false,
        si: 0,
        ss: 0,
        V: 'EXPIRE_MAKER',
        pm: 'NONE',
        gtd: 0,
        er: e.er ?? '0',
      },
    };
  }

  /** The account's open orders' value on each side of the symbol ("Bids Notional", "Ask Notional"). */
  private openNotional(account: Account, symbol: string): { bids: string; asks: string } {
    let bids = 0;
    let asks = 0;
    for (const o of this.core.venue.openOrders(account, symbol)) {
      const v = notionalUnits(o.price, o.amount - o.filled);
      if (o.side === 'buy') bids += v;
      else asks += v;
    }
    return { bids: num(fromUnits(bids)), asks: num(fromUnits(asks)) };
  }

  /**
   * ACCOUNT_UPDATE after a trade (`m` ORDER): "When balance or position get updated, this event will be
   * pushed ... Unfilled orders or cancelled orders will not make the event ACCOUNT_UPDATE pushed"; "Only
   * symbols of changed positions will be pushed". The balance of the symbol's margin asset (`bc`, the
   * change except PnL and commission, is 0 for a trade) and the symbol's position: amount, entry and
   * breakeven price (the paper venue has no funding: its entry price), realized profit so far (`cr`,
   * pre-fee), unrealized profit at the last price, margin type, isolated wallet (`cw` = the wallet less every
   * isolated position's margin).
   * https://developers.binance.com/docs/derivatives/usds-margined-futures/user-data-streams/Event-Balance-and-Position-Update
   */
  private accountUpdate(k: LiveKey, symbol: string, T: number) {
    const { venue } = this.core;
    const asset = splitSymbol(symbol).quote;
    const wallet = fromUnits(k.account.assets.get(asset)?.total ?? 0);
    const p = k.account.positions.get(symbol) ?? { qty: 0, cost: 0, leverage: 1, marginMode: 'cross' as const };
    const entry = p.qty === 0 ? 0 : fromUnits(mulDiv(p.cost, SCALE, Math.abs(p.qty)));
    const last = fromUnits(venue.priceUnits(this.core.exchange, symbol));
    const realized = venue.store.fillsSince(k.account, symbol, 0).reduce((s, f) => s + (f.realizedPnl ?? 0), 0);
    const isolatedOf = (q: { qty: number; cost: number; leverage: number; marginMode: string }) => (q.marginMode === 'isolated' && q.qty !== 0 ? mulDiv(q.cost, 1, q.leverage) : 0);
    const isolated = fromUnits(isolatedOf(p));
    const allIsolated = fromUnits([...k.account.positions.values()].reduce((s, q) => s + isolatedOf(q), 0));
    return {
      e: 'ACCOUNT_UPDATE',
      E: this.core.now(),
      T,
      a: {
        m: 'ORDER',
        B: [{ a: asset, wb: num(wallet), cw: num(wallet - allIsolated), bc: '0' }],
        P: [
          {
            s: symbol,
            pa: num(fromUnits(p.qty)),
            ep: num(entry),
            bep: num(entry),
            cr: num(fromUnits(realized)),
            up: num(p.qty === 0 ? 0 : (last - entry) * fromUnits(p.qty)),
            mt: p.marginMode,
            iw: num(isolated),
            ps: 'BOTH',
          },
        ],
      },
    };
  }

  /**
   * The key ends (60 minutes without keepalive, DELETE, or the test's expire()): "When the listenKey used
   * for the user data stream turns expired, this event will be pushed", payload {"e": "listenKeyExpired",
   * "E": "<event time, a string in the example>", "listenKey": "..."}; "No more user data event will be
   * updated after this event received until a new valid listenKey used". The stand-in then closes each
   * connection on the key (1000): ccxt 4.5.84 does not handle the event, a close makes its pending watch
   * reject and its next watch connect again. The key is unknown from then on (PUT → -1125, connect refused).
   * https://developers.binance.com/docs/derivatives/usds-margined-futures/user-data-streams/Event-User-Data-Stream-Expired
   */
  private expireKey(k: LiveKey): void {
    this.keys.delete(k.listenKey);
    if (this.keyOfAccount.get(k.account.userId) === k) this.keyOfAccount.delete(k.account.userId);
    k.stopWatching();
    for (const c of [...k.sockets]) {
      c.socket.send({ e: 'listenKeyExpired', E: String(this.core.now()), listenKey: k.listenKey });
      c.socket.close(1000, 'listenKeyExpired');
    }
    this.sleepIfIdle();
  }

  // -------------------------------------------------------------------------------------------
  // Market streams (/market)

  /**
   * "Raw streams are accessed at /ws/<streamName>", "Combined streams are accessed at
   * /stream?streams=<streamName1>/<streamName2>", combined events wrapped as {"stream": "<streamName>",
   * "data": <rawPayload>}; "All symbols for streams are lowercase". The ticker belongs to the `/market`
   * route. ccxt connects to /market/ws/<n> (a stream index, not a stream name: nothing is subscribed by
   * the path then) and subscribes with requests.
   * https://developers.binance.com/docs/derivatives/usds-margined-futures/websocket-market-streams
   * https://developers.binance.com/docs/derivatives/usds-margined-futures/websocket-market-streams/Important-WebSocket-Change-Notice
   */
  private marketStream(socket: StreamSocket, combined: boolean): void {
    this.sweep();
    const conn: MarketConn = { socket, since: this.core.now(), incoming: [], streams: new Set(), combined };
    const fromPath = combined ? (socket.query.get('streams') ?? '').split('/') : [decodeURIComponent(socket.path.replace(/^\/market\/ws\/?/, ''))];
    for (const s of fromPath) if (/@|^!/.test(s)) conn.streams.add(s);
    this.market.add(conn);
    this.wake();
    socket.onClose(() => {
      this.market.delete(conn);
      this.sleepIfIdle();
    });
    socket.onMessage((m) => {
      if (this.countIncoming(conn)) this.request(conn, m);
    });
  }

  /**
   * Live subscribing: {"method": "SUBSCRIBE", "params": [...], "id": 1} → {"result": null, "id": 1}; UNSUBSCRIBE
   * likewise; LIST_SUBSCRIPTIONS → {"result": [...], "id": 3}; SET_PROPERTY ["combined", true] and GET_PROPERTY
   * ["combined"]; "The id used in the JSON payloads is an unsigned INT".
   * https://developers.binance.com/docs/derivatives/usds-margined-futures/websocket-market-streams/Live-Subscribing-Unsubscribing-to-streams
   * Refusals: the error table of the same request protocol, which the venue publishes with its spot streams
   * (codes 0 unknown property, 1 not a boolean, 2 invalid request, 3 invalid JSON), sent as
   * {"error": {"code", "msg"}, "id"} as ccxt's handleWsError reads them.
   * https://developers.binance.com/docs/binance-spot-api-docs/web-socket-streams#error-messages
   */
  private request(conn: MarketConn, m: any): void {
    const refuse = (code: number, msg: string, id: unknown = null) => conn.socket.send({ error: { code, msg }, id });
    if (typeof m !== 'object' || m === null || Array.isArray(m)) return refuse(3, 'Invalid JSON: expected value at line 1 column 1');
    const id = m.id;
    if (!Number.isSafeInteger(id) || id < 0) return refuse(2, 'Invalid request: request ID must be an unsigned integer');
    if (m.method === undefined) return refuse(2, 'Invalid request: missing field `method` at line 1 column 73', id);
    const methods = ['SUBSCRIBE', 'UNSUBSCRIBE', 'LIST_SUBSCRIPTIONS', 'SET_PROPERTY', 'GET_PROPERTY'];
    if (!methods.includes(m.method)) {
      return refuse(2, `Invalid request: unknown variant \`${String(m.method)}\`, expected one of \`SUBSCRIBE\`, \`UNSUBSCRIBE\`, \`LIST_SUBSCRIPTIONS\`, \`SET_PROPERTY\`, \`GET_PROPERTY\` at line 1 column 28`, id);
    }
    if (Object.keys(m).some((k) => k !== 'method' && k !== 'params' && k !== 'id')) return refuse(2, 'Invalid request: too many parameters', id);
    const params: unknown[] = Array.isArray(m.params) ? m.params : [];
    switch (m.method) {
      case 'SUBSCRIBE':
      case 'UNSUBSCRIBE': {
        if (params.some((p) => typeof p !== 'string')) return refuse(2, 'Invalid request: invalid stream', id);
        for (const p of params as string[]) {
          if (m.method === 'SUBSCRIBE') conn.streams.add(p);
          else conn.streams.delete(p);
        }
        return conn.socket.send({ result: null, id });
      }
      case 'LIST_SUBSCRIPTIONS':
        return conn.socket.send({ result: [...conn.streams], id });
      case 'SET_PROPERTY':
      case 'GET_PROPERTY': {
        if (typeof params[0] !== 'string') return refuse(2, 'Invalid request: property name must be a string', id);
        if (params[0] !== 'combined') return refuse(0, 'Unknown property', id);
        if (m.method === 'GET_PROPERTY') return conn.socket.send({ result: conn.combined, id });
        if (typeof params[1] !== 'boolean') return refuse(1, 'Invalid value type: expected Boolean', id);
        conn.combined = params[1];
        return conn.socket.send({ result: null, id });
      }
    }
  }

  /**
   * `<symbol>@ticker`, "24hr rolling window ticker statistics for a single symbol", event 24hrTicker with
   * e, E, s, p, P, w, c, Q, o, h, l, v, q, O, C, F, L, n;
   * https://developers.binance.com/docs/derivatives/usds-margined-futures/websocket-market-streams/Individual-Symbol-Ticker-Streams
   * `<symbol>@miniTicker`, "24hr rolling window mini-ticker statistics", event 24hrMiniTicker with e, E, s, c, o,
   * h, l, v, q: the stream ccxt 4.5.84's watchTicker subscribes to (it goes through watchTickers, whose
   * `options.watchTickers.name` is 'miniTicker'; `{ name: 'ticker' }` asks for the full ticker).
   * https://developers.binance.com/docs/derivatives/usds-margined-futures/websocket-market-streams/Individual-Symbol-Mini-Ticker-Stream
   * The paper venue has prices and no market trades: the stand-in pushes both on every price tick of the
   * symbol, over the ticks seen in the last 24 h since it began watching (open = the first of them); volume,
   * trade count and last quantity 0, weighted average price = the last price, trade ids 0.
   */
  private onTick(symbol: string, ms: number, priceUnits: number): void {
    const window = this.windows.get(symbol) ?? [];
    window.push({ ms, price: priceUnits });
    while (window.length > 1 && window[0].ms <= ms - DAY) window.shift();
    this.windows.set(symbol, window);
    this.sweep();
    const lower = symbol.toLowerCase();
    const prices = window.map((w) => w.price);
    const open = window[0].price;
    const change = priceUnits - open;
    const stats = {
      c: num(fromUnits(priceUnits)),
      o: num(fromUnits(open)),
      h: num(fromUnits(Math.max(...prices))),
      l: num(fromUnits(Math.min(...prices))),
      v: '0',
      q: '0',
    };
    const events: Record<string, () => unknown> = {
      [`${lower}@ticker`]: () => ({
        e: '24hrTicker',
        E: ms,
        s: symbol,
        p: num(fromUnits(change)),
        P: (open === 0 ? 0 : (change / open) * 100).toFixed(3),
        w: stats.c,
        c: stats.c,
        Q: '0',
        o: stats.o,
        h: stats.h,
        l: stats.l,
        v: stats.v,
        q: stats.q,
        O: ms - DAY,
        C: ms,
        F: 0,
        L: 0,
        n: 0,
      }),
      [`${lower}@miniTicker`]: () => ({ e: '24hrMiniTicker', E: ms, s: symbol, ...stats }),
    };
    for (const [stream, event] of Object.entries(events)) {
      let data: unknown;
      for (const c of this.market) {
        if (!c.streams.has(stream)) continue;
        data ??= event();
        c.socket.send(c.combined ? { stream, data } : data);
      }
    }
  }

  // -------------------------------------------------------------------------------------------
  // Limits and the clock

  /** Counts an incoming message; past the limit the connection is disconnected (false). */
  private countIncoming(conn: Conn): boolean {
    const now = Date.now();
    conn.incoming.push(now);
    while (conn.incoming.length > 0 && conn.incoming[0] <= now - 1000) conn.incoming.shift();
    if (conn.incoming.length <= this.maxPerSecond) return true;
    conn.socket.close(1008, 'Too many requests');
    return false;
  }

  /** Ends what the clock has ended: listenKeys past their validity, connections past their lifetime. */
  private sweep(): void {
    const now = this.core.now();
    for (const k of [...this.keys.values()]) if (k.expiresAt <= now) this.expireKey(k);
    const conns: Conn[] = [...this.market];
    for (const k of this.keys.values()) conns.push(...k.sockets);
    for (const c of conns) if (c.socket.open && now - c.since >= this.lifetimeMs) c.socket.close(1000, 'connection lifetime reached');
  }

  /** Starts watching the venue's prices (tickers, the clock) while anything is open. */
  private wake(): void {
    if (this.watching) return;
    const { venue, exchange, market } = this.core;
    const stops = venue.symbols(exchange, market).map((s) => {
      this.windows.set(s.symbol, [{ ms: this.core.now(), price: venue.priceUnits(exchange, s.symbol) }]);
      return venue.onPrice(exchange, s.symbol, (t) => this.onTick(s.symbol, t.ms, t.price));
    });
    const timer = setInterval(() => this.sweep(), 1000);
    timer.unref();
    this.watching = { stops, timer };
  }

  private sleepIfIdle(): void {
    if (!this.watching || this.keys.size > 0 || this.market.size > 0) return;
    for (const stop of this.watching.stops) stop();
    clearInterval(this.watching.timer);
    this.watching = null;
    this.windows.clear();
  }
}
