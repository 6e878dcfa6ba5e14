/**
 * Kucoin spot and futures streams (issue 39) over the venue core: the bullet token calls and the
 * websocket they point to, as Kucoin documents them and as ccxt 4.5.84's pro classes `kucoin` and
 * `kucoinfutures` use them (node_modules/ccxt/js/src/pro/kucoin.js: negotiate, subscribe, watchOrders,
 * watchMyTrades, watchTicker, handleMessage). One factory; `core.market` picks the spot or futures side,
 * each stand-in answering its own market on its own port (Kucoin: "if you subscribe to futures data,
 * you need to obtain tokens through the futures base URL, which cannot be mixed",
 * https://www.kucoin.com/docs-new/websocket-api/base-info/introduction).
 *
 * Sources (docs/exchanges.md "KuCoin streams (stand-in, issue 39)" lists each rule with its source):
 * - KS-WS: Kucoin spot API docs, "Websocket Feed" and "Private Channels"
 *   (https://github.com/Kucoin/kucoin-api-docs/blob/master/source/localizable/index.html.md; the current
 *   page: https://www.kucoin.com/docs-new/websocket-api/base-info/introduction).
 * - KF-WS: Kucoin futures API docs, "Websocket" and "Private Channels"
 *   (https://github.com/Kucoin/kucoin-futures-api-docs/blob/master/source/localizable/index.en.html.md;
 *   the current orders page, as ccxt cites it: https://www.kucoin.com/docs-new/3470090w0).
 * - KS-ORDER: "Private Order Change" /spotMarket/tradeOrders
 *   (https://www.kucoin.com/docs/websocket/spot-trading/private-channels/private-order-change) and V2
 *   (https://www.kucoin.com/docs/websocket/spot-trading/private-channels/private-order-change-v2).
 * - KS-TICKER: spot "Ticker" /market/ticker (https://www.kucoin.com/docs-new/3470063w0) and "Symbol Snapshot"
 *   /market/snapshot (https://www.kucoin.com/docs/websocket/spot-trading/public-channels/symbol-snapshot).
 * - KF-TICKER: futures "Ticker V1" /contractMarket/ticker (https://www.kucoin.com/docs-new/3470081w0).
 * - KWS-ERR: websocket error codes (https://www.kucoin.com/docs-new/error-code/websocket).
 * - CCXT: ccxt 4.5.84 pro/kucoin.js (https://github.com/ccxt/ccxt/blob/master/ts/src/pro/kucoin.ts).
 */
import { randomBytes } from 'node:crypto';
import { splitSymbol, type Fill, type Order, type OrderUpdate } from '../../exchange.port';
import type { StubRequest, StubResponse } from '../exchange-stub.server';
import type { StreamSocket } from './stream-server';
import type { StandInCore, StreamDialectFactory } from './standin.types';

type Account = ReturnType<StandInCore['venue']['account']>;

interface Token {
  /** The account of a private token (bullet-private); none for a public one. */
  account?: Account;
  /** Past its end (expire()): a connection with it is refused with "token is expired". */
  expired: boolean;
}

type PrivateTopic = { kind: 'orders'; topic: string; v2: boolean; symbol?: string };
type TickerTopic = { kind: 'ticker' | 'snapshot' | 'contractTicker'; topic: string; symbols: string[] };
type Topic = PrivateTopic | TickerTopic;

/** The websocket path of the endpoint the bullets hand out: KS-WS "wss://ws-api-spot.kucoin.com/" (futures: ws-api-futures). */
const ENDPOINT_PATH = '/';
/** How long a refused connection stays open for the client's first message (see `refuse`). */
const REFUSAL_GRACE_MS = 200;

export const kucoinStreams: StreamDialectFactory = (core: StandInCore) => {
  const { venue } = core;
  const futures = core.market === 'futures';
  const tokens = new Map<string, Token>();
  const sockets = new Set<StreamSocket>();
  /** Live subscriptions of every connection (VenueStandIn.subscriptions). */
  const live = new Set<{ topic: Topic }>();
  let sequence = 0;

  const specs = () => venue.symbols(core.exchange, core.market);
  /** Kucoin's symbol id of a paper symbol (as kucoin.dialect.ts): spot BTC-USDT, futures XBTUSDTM. */
  const idOf = (symbol: string) => {
    const { base, quote } = splitSymbol(symbol);
    return futures ? `${base === 'BTC' ? 'XBT' : base}${quote}M` : `${base}-${quote}`;
  };
  /** The paper symbol of a Kucoin id, or undefined when the market does not list it. */
  const symbolOf = (id: string): string | undefined => {
    const s = specs().find((x) => idOf(x.symbol) === id);
    return s?.symbol;
  };
  /** Futures sizes are contracts of `multiplier` base units (kucoin.dialect.ts, venues/markets.ts). */
  const size = (symbol: string, amount: number): string => {
    if (!futures) return String(amount);
    const s = specs().find((x) => x.symbol === symbol)!;
    return String(Math.round(amount / Number(s.contract?.multiplier ?? s.amountStep)));
  };
  /** KS-WS/KF-WS send nanosecond timestamps (`ts`, futures `orderTime`). */
  const ns = (ms: number) => ms * 1_000_000;

  // ---------------------------------------------------------------------------------------------
  // REST: the bullets (KS-WS "Apply connect token"; KF-WS "Apply for Connection Token")

  /** The same answer as kucoin.dialect.ts for a key the venue does not know (KWS-ERR gateway table 400003). */
  const badKey: StubResponse = { status: 401, body: { code: '400003', msg: 'KC-API-KEY not exists' } };
  const bullet = (req: StubRequest, account?: Account): StubResponse => {
    const token = randomBytes(48).toString('base64url');
    tokens.set(token, { account, expired: false });
    // the endpoint is this stand-in's own websocket origin, as the request reached it (its Host header)
    const endpoint = `ws://${req.headers.host ?? '127.0.0.1'}${ENDPOINT_PATH}`;
    // KS-WS: pingInterval 18000, pingTimeout 10000, encrypt true, protocol websocket
    return { status: 200, body: { code: '200000', data: { token, instanceServers: [{ endpoint, encrypt: true, protocol: 'websocket', pingInterval: 18000, pingTimeout: 10000 }] } } };
  };
  const rest = {
    // public token: no key needed
    'POST /api/v1/bullet-public': (req: StubRequest) => bullet(req),
    // private token: a signed call; the token carries the key's account
    'POST /api/v1/bullet-private': (req: StubRequest) => {
      const account = core.account(req);
      return account ? bullet(req, account) : badKey;
    },
  };

  // ---------------------------------------------------------------------------------------------
  // Topics

  /**
   * What a topic names, or an error code: KWS-ERR 404 "topic does not exist" for a topic or symbol this
   * market does not serve, 403 "login is required" for a private topic on a public token.
   */
  const parseTopic = (topic: unknown, token: Token): Topic | { code: number; data: string } => {
    if (typeof topic !== 'string' || topic === '') return { code: 406, data: 'topic is required' };
    const [prefix, list] = topic.split(':', 2);
    const symbols = list === undefined ? [] : list.split(',').map((id) => symbolOf(id.trim()));
    const known = (s: Array<string | undefined>): s is string[] => s.length > 0 && s.every((x) => x !== undefined);
    const missing = { code: 404, data: 'topic does not exist' };
    const login = { code: 403, data: 'login is required' };
    if (!futures) {
      // KS-TICKER: /market/ticker:{symbol},{symbol}… and /market/snapshot:{symbol}
      if (prefix === '/market/ticker') return known(symbols) ? { kind: 'ticker', topic, symbols } : missing;
      if (prefix === '/market/snapshot') return known(symbols) && symbols.length === 1 ? { kind: 'snapshot', topic, symbols } : missing;
      // KS-ORDER: /spotMarket/tradeOrders (what ccxt's watchOrders and watchMyTrades use) and /spotMarket/tradeOrdersV2
      if ((prefix === '/spotMarket/tradeOrders' || prefix === '/spotMarket/tradeOrdersV2') && list === undefined) {
        return token.account ? { kind: 'orders', topic, v2: prefix.endsWith('V2') } : login;
      }
      return missing;
    }
    // KF-TICKER: /contractMarket/ticker:{symbol} (what ccxt's watchTicker uses on contracts)
    if (prefix === '/contractMarket/ticker') return known(symbols) && symbols.length === 1 ? { kind: 'contractTicker', topic, symbols } : missing;
    // KF-WS "Trade Orders" /contractMarket/tradeOrders (ccxt) and "According To The Market" /contractMarket/tradeOrders:{symbol}
    if (prefix === '/contractMarket/tradeOrders') {
      if (list !== undefined && !(known(symbols) && symbols.length === 1)) return missing;
      return token.account ? { kind: 'orders', topic, v2: false, symbol: symbols[0] } : login;
    }
    return missing;
  };

  // ---------------------------------------------------------------------------------------------
  // Messages

  /** A price tick as the topic pushes it (the paper venue has no book: bid = ask = last, sizes 1 as the REST ticker answers). */
  const tickerMessage = (t: TickerTopic, symbol: string, priceUnits: number, ms: number) => {
    const id = idOf(symbol);
    const p = core.units(priceUnits);
    const seq = ++sequence;
    if (t.kind === 'ticker') {
      // KS-TICKER "Ticker": subject trade.ticker
      return { type: 'message', topic: t.topic, subject: 'trade.ticker', data: { sequence: String(seq), price: p, size: '1', bestAsk: p, bestAskSize: '1', bestBid: p, bestBidSize: '1', time: ms } };
    }
    if (t.kind === 'snapshot') {
      // KS-TICKER "Symbol Snapshot": subject trade.snapshot, numbers, not strings
      const { base, quote } = splitSymbol(symbol);
      const n = Number(p);
      return {
        type: 'message', topic: t.topic, subject: 'trade.snapshot',
        data: { sequence: String(seq), data: { trading: true, symbol: id, buy: n, sell: n, sort: 100, volValue: 0, baseCurrency: base, market: quote, quoteCurrency: quote, symbolCode: id, datetime: ms, high: n, vol: 0, low: n, changePrice: 0, changeRate: 0, lastTradedPrice: n, board: 0, mark: 0 } },
      };
    }
    // KF-TICKER "Ticker V1": subject ticker, sizes in contracts, ts in nanoseconds
    return { topic: t.topic, type: 'message', subject: 'ticker', sn: seq, data: { symbol: id, sequence: seq, side: 'buy', size: 1, price: p, bestBidSize: 1, bestBidPrice: p, bestAskPrice: p, tradeId: String(seq), bestAskSize: 1, ts: ns(ms) } };
  };

  /**
   * The orderChange messages of one paper order update (KS-ORDER, KF-WS "Trade Orders"), in order:
   * V2 only: "received" (status new) when the order enters the matching system;
   * "open" (status open) when it rests in the book;
   * "match" with tradeId, matchPrice, matchSize, liquidity and feeType for a fill: status "open" for a
   *   resting (maker) order, "match" for a taker (KS-ORDER V2: "When the status is open and the type is
   *   match, it is a maker match. When the status is match and the type is match, it is a taker match");
   * "filled" (status done) once fully executed; "canceled" (status done) when cancelled, or when a fill
   *   capped at the position (reduce-only) leaves the rest unfilled.
   */
  const orderMessages = (t: PrivateTopic, account: Account, u: OrderUpdate) => {
    const o: Order = u.order;
    if (t.symbol && o.symbol !== t.symbol) return [];
    const row = venue.findOrderById(account, Number(o.exchangeOrderId));
    const createdAt = row?.createdAt ?? o.updatedAt;
    const market = !o.price;
    const base = {
      symbol: idOf(o.symbol), orderType: market ? 'market' : 'limit', side: o.side, orderId: o.exchangeOrderId,
      // spot orderTime is in milliseconds (KS-ORDER), futures in nanoseconds (KF-WS)
      orderTime: futures ? ns(createdAt) : createdAt,
      size: size(o.symbol, o.amount), price: market ? '0' : String(o.price), clientOid: o.clientOrderId,
      ...(futures ? { marginMode: 'ISOLATED', tradeType: 'trade' } : {}),
    };
    const done = (type: string, ts: number, remain = 0) => ({
      ...base, type, filledSize: size(o.symbol, o.filled), remainSize: size(o.symbol, remain), status: 'done', ts: ns(ts),
      ...(futures ? { canceledSize: size(o.symbol, type === 'canceled' ? o.amount - o.filled : 0) } : {}),
    });
    const data: object[] = [];
    const f: Fill | undefined = u.fill;
    if (!f) {
      if (o.status === 'open') {
        if (t.v2) data.push({ ...base, type: 'received', filledSize: '0', remainSize: base.size, status: 'new', ts: ns(o.updatedAt) });
        data.push({ ...base, type: 'open', filledSize: '0', remainSize: base.size, status: 'open', ts: ns(o.updatedAt), ...(futures ? { canceledSize: '0' } : {}) });
      } else if (o.status === 'cancelled') {
        data.push(done('canceled', o.updatedAt));
      }
    } else {
      // a fill at the order's creation is a taker's (placed across the price, or at market); later, a resting order's
      const taker = f.timestamp === createdAt;
      if (t.v2 && taker) data.push({ ...base, type: 'received', filledSize: '0', remainSize: base.size, status: 'new', ts: ns(createdAt) });
      data.push({
        ...base, type: 'match', liquidity: taker ? 'taker' : 'maker', feeType: taker ? 'takerFee' : 'makerFee', filledSize: size(o.symbol, o.filled),
        matchPrice: String(f.price), matchSize: size(o.symbol, f.amount), tradeId: f.fillId, remainSize: size(o.symbol, o.amount - o.filled),
        status: taker ? 'match' : 'open', ts: ns(f.timestamp), ...(futures ? { canceledSize: '0' } : {}),
      });
      data.push(o.status === 'filled' ? done('filled', f.timestamp) : done('canceled', o.updatedAt));
    }
    // KF-WS: the per-symbol topic's subject is symbolOrderChange, the account-wide one's orderChange
    const subject = t.symbol ? 'symbolOrderChange' : 'orderChange';
    return data.map((d) => ({ type: 'message', topic: t.topic, subject, channelType: 'private', data: d }));
  };

  // ---------------------------------------------------------------------------------------------
  // The websocket

  /**
   * A refused token: an error message in place of the welcome (KS-WS/KF-WS: "Both the id of the welcome
   * message and the id of the error message are connectId"; KWS-ERR 401), then the venue drops the
   * connection. Recorded answers: {"type":"error","code":401,"data":"token is expired"} on a reconnection
   * after 24 hours (https://github.com/knowm/XChange/issues/4740), followed by the connection's end
   * (https://github.com/bmoscon/cryptofeed/issues/1023). The stand-in ends it once the client's first
   * message is in, or after REFUSAL_GRACE_MS: on loopback an immediate close would race the subscribe a
   * client sends right after the upgrade, which a real venue's round trip lets through (ccxt 4.5.84 leaves
   * the failed send of a throttled subscribe unhandled).
   */
  const refuse = (socket: StreamSocket, connectId: string, data: string) => {
    socket.send({ id: connectId, type: 'error', code: 401, data });
    const end = () => {
      clearTimeout(timer);
      socket.close();
    };
    const timer = setTimeout(end, REFUSAL_GRACE_MS);
    timer.unref?.();
    socket.onMessage(end);
    socket.onClose(() => clearTimeout(timer));
  };

  const route = (socket: StreamSocket) => {
    const connectId = socket.query.get('connectId') || randomBytes(6).toString('hex');
    const token = tokens.get(socket.query.get('token') ?? '');
    // KWS-ERR: 401 "token is invalid" when establishing the connection; a token past its end: "token is
    // expired", the text ccxt's handleErrorMessage matches to drop the cached bullet and apply for a new one (CCXT)
    if (!token) return refuse(socket, connectId, 'token is invalid');
    if (token.expired) return refuse(socket, connectId, 'token is expired');
    sockets.add(socket);
    const subscriptions = new Map<string, { topic: Topic; stop: () => void }>();
    socket.onClose(() => {
      sockets.delete(socket);
      for (const s of subscriptions.values()) s.stop();
      subscriptions.clear();
    });
    // KS-WS "Create connection": the welcome message once the connection is up
    socket.send({ id: connectId, type: 'welcome' });

    const error = (id: unknown, code: number, data: string) => socket.send({ id: id === undefined ? connectId : String(id), type: 'error', code, data });
    const subscribe = (t: Topic): (() => void) => {
      if (t.kind === 'orders') {
        const account = token.account!;
        return venue.watchOrders(account, (u) => {
          for (const m of orderMessages(t, account, u)) socket.send(m);
        });
      }
      const stops = t.symbols.map((symbol) => venue.onPrice(core.exchange, symbol, (tick) => socket.send(tickerMessage(t, symbol, tick.price, tick.ms))));
      return () => stops.forEach((s) => s());
    };

    socket.onMessage((m: any) => {
      if (!m || typeof m !== 'object') return error(undefined, 415, 'type is not supported');
      const id = m.id;
      switch (m.type) {
        // KS-WS "Ping": answered with a pong of the same id
        case 'ping':
          return socket.send({ id: String(id), type: 'pong' });
        // KS-WS "Subscribe": an ack of the same id when `response` is true
        case 'subscribe': {
          const t = parseTopic(m.topic, token);
          if ('code' in t) return error(id, t.code, t.data);
          if (!subscriptions.has(t.topic)) {
            const entry = { topic: t };
            live.add(entry);
            const stop = subscribe(t);
            subscriptions.set(t.topic, {
              topic: t,
              stop: () => {
                stop();
                live.delete(entry);
              },
            });
          }
          if (m.response === true) socket.send({ id: String(id), type: 'ack' });
          return;
        }
        // KS-WS "UnSubscribe": likewise
        case 'unsubscribe': {
          const t = parseTopic(m.topic, token);
          if ('code' in t) return error(id, t.code, t.data);
          subscriptions.get(t.topic)?.stop();
          subscriptions.delete(t.topic);
          if (m.response === true) socket.send({ id: String(id), type: 'ack' });
          return;
        }
        // KWS-ERR 415; the text is what the venue sends (CCXT handleErrorMessage's recorded answer).
        // Multiplex tunnels (openTunnel, closeTunnel) are not served by the stand-in.
        default:
          return error(id, 415, 'type is not supported');
      }
    });
  };

  return {
    rest,
    streams: { [ENDPOINT_PATH]: route },
    subscriptions: () => {
      const all = [...live].map((e) => e.topic);
      return { user: all.filter((t) => t.kind === 'orders').length, market: all.filter((t) => t.kind !== 'orders').reduce((n, t) => n + ('symbols' in t ? t.symbols.length : 1), 0) };
    },
    /**
     * Every token reaches its end now (KS-WS: "Validity period for token: 24 hours") and every stream is
     * closed. A token "will expire in 24 hours but remain valid if there is no disconnection"
     * (https://www.kucoin.com/docs-new/websocket-api/base-info/introduction): the end is noticed when the
     * client connects again, so the stand-in plays the end and the disconnection together; the client's
     * reconnection with the old token is refused ("token is expired") and a new bullet works.
     */
    expire() {
      for (const t of tokens.values()) t.expired = true;
      for (const s of [...sockets]) s.close();
    },
  };
};
