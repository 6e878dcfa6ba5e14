/**
 * The Kucoin spot and futures stand-ins speak the venue's streams (issue 39), checked with ccxt's own
 * pro classes `kucoin` and `kucoinfutures` (4.5.84) configured as CcxtExchange configures the REST ones:
 * bullet tokens, welcome, subscribe/ack, the private order topic ccxt's watchOrders and watchMyTrades
 * share, the ticker topic of watchTicker, a token's end, a dropped stream, a refused token
 * (kucoin.streams.ts, docs/exchanges.md "KuCoin streams (stand-in, issue 39)").
 */
import { WebSocket } from 'ws';
import { ccxt, rewriteOrigin } from '../../ccxt-module';
import { CONTRACT_T0 } from '../../exchange-port.contract';
import type { MarketType } from '../../exchange.port';
import { PaperVenue } from '../../paper.exchange';
import { STUB_KEY } from '../ccxt.fixtures';
import type { VenueStandIn } from './venue-standin';
import { closeContractStandIn, contractStandIn } from './contract-standin';

jest.setTimeout(30_000);

const DAY = 86_400_000;

async function until(cond: () => boolean, what: string, ms = 5_000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** ccxt keeps `client.subscriptions[requestId] = topic` until the venue's ack (handleSubscriptionStatus deletes it). */
function acked(ex: any, topic: string): boolean {
  return Object.values(ex.clients ?? {}).some((c: any) => c.subscriptions?.[topic] !== undefined && !Object.values(c.subscriptions).includes(topic));
}

/** Calls a ccxt watch method again and again, keeping a copy of each answer (ccxt updates its cached objects in place). */
function collect(next: () => Promise<any[]>) {
  const items: any[] = [];
  const errors: unknown[] = [];
  const done = (async () => {
    for (;;) {
      try {
        items.push(...(await next()).map((x) => ({ ...x })));
      } catch (e) {
        errors.push(e);
        return;
      }
    }
  })();
  return { items, errors, done };
}

const MARKETS: Array<{ market: MarketType; ccxtId: 'kucoin' | 'kucoinfutures'; symbol: string; id: string; ordersTopic: string; tickerTopic: string; size: string | number; amount: number }> = [
  { market: 'spot', ccxtId: 'kucoin', symbol: 'BTC/USDT', id: 'BTC-USDT', ordersTopic: '/spotMarket/tradeOrders', tickerTopic: '/market/snapshot:BTC-USDT', size: '0.001', amount: 0.001 },
  // futures sizes are contracts: XBTUSDTM's multiplier is 0.001 BTC
  { market: 'futures', ccxtId: 'kucoinfutures', symbol: 'BTC/USDT:USDT', id: 'XBTUSDTM', ordersTopic: '/contractMarket/tradeOrders', tickerTopic: '/contractMarket/ticker:XBTUSDTM', size: 1, amount: 1 },
];

describe.each(MARKETS)('Kucoin $market stand-in streams, through ccxt pro $ccxtId', ({ market, ccxtId, symbol, id, ordersTopic, tickerTopic, size, amount }) => {
  const futures = market === 'futures';
  let venue: PaperVenue;
  let standIn: VenueStandIn;
  let ex: any;

  const newClient = async (key: { apiKey: string; secret: string; passphrase: string } = STUB_KEY) => {
    const c = new (ccxt as any).pro[ccxtId]({ apiKey: key.apiKey, secret: key.secret, password: key.passphrase, timeout: 5_000 });
    c.urls.api = rewriteOrigin(c.urls.api, standIn.origin);
    // ccxt opens a plain ws:// url (the stand-in's, not the venue's wss://) only with an http agent loaded
    await c.loadHttpProxyAgent();
    // as CcxtExchange configures the instance (ccxt.exchange.ts)
    if (ccxtId === 'kucoin') c.options.fetchMarkets = { ...(c.options.fetchMarkets ?? {}), types: ['spot'], fetchTickersFees: false };
    c.has.fetchCurrencies = false;
    if (futures) c.options.defaultType = 'swap';
    return c;
  };

  beforeEach(async () => {
    ({ venue, standIn } = await contractStandIn('Kucoin', market));
    ex = await newClient();
    await ex.loadMarkets(false, { marginables: false });
  });
  afterEach(async () => {
    await ex?.close();
    await closeContractStandIn({ venue, standIn });
  });

  const rest = async (method: string, path: string, body?: object) => {
    const res = await fetch(`${standIn.origin}${path}`, { method, headers: { 'KC-API-KEY': STUB_KEY.apiKey, 'Content-Type': 'application/json' }, body: body && JSON.stringify(body) });
    return (await res.json()) as { code: string; data?: any; msg?: string };
  };
  const place = async (clientOid: string, price: string) => {
    const r = await rest('POST', '/api/v1/orders', { clientOid, side: 'buy', symbol: id, type: 'limit', price, size, ...(futures ? { leverage: 5, marginMode: 'ISOLATED' } : {}) });
    expect(r.code).toBe('200000');
    return String(r.data.orderId);
  };
  const cancel = async (clientOid: string) => {
    const r = await rest('DELETE', futures ? `/api/v1/orders/client-order/${clientOid}` : `/api/v1/order/client-order/${clientOid}`);
    expect(r.code).toBe('200000');
  };
  const bullets = () => standIn.stub.calls('POST', '/api/v1/bullet-private').length;
  const account = () => venue.account('u1', 'Kucoin', market);

  it('watchOrders and watchMyTrades see an order placed through REST, its fill after a price move (trade id, client order id) and a cancel', async () => {
    const orders = collect(() => ex.watchOrders(symbol));
    const trades = collect(() => ex.watchMyTrades(symbol));
    await until(() => acked(ex, ordersTopic), `the ack of ${ordersTopic}`);
    // one private bullet, one connection: both watches share the topic
    expect(bullets()).toBe(1);
    expect(standIn.streams.openCount).toBe(1);

    const orderId = await place('ws-buy', '94000');
    await until(() => orders.items.some((o) => o.clientOrderId === 'ws-buy'), 'the open order');
    expect(orders.items.find((o) => o.clientOrderId === 'ws-buy')).toMatchObject({ id: orderId, symbol, side: 'buy', type: 'limit', price: 94000, amount, filled: 0, status: 'open' });

    venue.advanceTo(CONTRACT_T0 + 3 * DAY); // 93900: the buy at 94000 fills, as a maker
    await until(() => orders.items.some((o) => o.clientOrderId === 'ws-buy' && o.status === 'closed'), 'the filled order');
    await until(() => trades.items.length > 0, 'the trade');
    expect(orders.items.filter((o) => o.clientOrderId === 'ws-buy').at(-1)).toMatchObject({ id: orderId, status: 'closed', filled: amount, average: 94000 });
    const [fill] = venue.fills(account(), 'BTCUSDT', 0);
    expect(trades.items).toHaveLength(1);
    expect(trades.items[0]).toMatchObject({ id: String(fill.id), order: orderId, symbol, side: 'buy', price: 94000, amount, takerOrMaker: 'maker' });
    expect(trades.items[0].info).toMatchObject({ clientOid: 'ws-buy', tradeId: String(fill.id), type: 'match', status: 'open', feeType: 'makerFee' });

    const restingId = await place('ws-rest', '80000');
    await until(() => orders.items.some((o) => o.clientOrderId === 'ws-rest'), 'the second open order');
    await cancel('ws-rest');
    await until(() => orders.items.some((o) => o.clientOrderId === 'ws-rest' && o.status === 'canceled'), 'the cancel');
    expect(orders.items.filter((o) => o.clientOrderId === 'ws-rest').map((o) => o.status)).toEqual(['open', 'canceled']);
    expect(orders.items.filter((o) => o.clientOrderId === 'ws-rest').at(-1)).toMatchObject({ id: restingId, filled: 0 });
    expect(trades.items).toHaveLength(1);
  });

  // the paper core keeps no order type (a market order is stored at the price of the moment), so the
  // stand-in reports every order as a limit one, as its REST dialect does
  it('a market order is one taker trade of the order, at the price of the moment', async () => {
    const trades = collect(() => ex.watchMyTrades(symbol));
    await until(() => acked(ex, ordersTopic), `the ack of ${ordersTopic}`);
    const r = await rest('POST', '/api/v1/orders', { clientOid: 'ws-mkt', side: 'buy', symbol: id, type: 'market', size, ...(futures ? { leverage: 5, marginMode: 'ISOLATED' } : {}) });
    expect(r.code).toBe('200000');
    await until(() => trades.items.length > 0, 'the trade');
    expect(trades.items[0]).toMatchObject({ order: String(r.data.orderId), price: 95000, amount, takerOrMaker: 'taker' });
    expect(trades.items[0].info).toMatchObject({ clientOid: 'ws-mkt', status: 'match', feeType: 'takerFee' });
  });

  it(futures ? 'the per-symbol topic /contractMarket/tradeOrders:XBTUSDTM pushes symbolOrderChange' : 'the V2 topic /spotMarket/tradeOrdersV2 adds "received" (status new) before "open"', async () => {
    const b = await rest('POST', '/api/v1/bullet-private');
    const ws = new WebSocket(`${b.data.instanceServers[0].endpoint}?token=${b.data.token}&connectId=c-v`);
    try {
      const got: any[] = [];
      ws.on('message', (d) => got.push(JSON.parse(String(d))));
      await until(() => got.length === 1, 'the welcome');
      const topic = futures ? `/contractMarket/tradeOrders:${id}` : '/spotMarket/tradeOrdersV2';
      ws.send(JSON.stringify({ id: 's-1', type: 'subscribe', topic, privateChannel: true, response: true }));
      await until(() => got.length === 2, 'the ack');
      const orderId = await place('ws-v', '94000');
      venue.advanceTo(CONTRACT_T0 + 3 * DAY);
      const expected = [...(futures ? [] : [['received', 'new']]), ['open', 'open'], ['match', 'open'], ['filled', 'done']];
      await until(() => got.length === 2 + expected.length, 'the order messages');
      const messages = got.slice(2);
      expect(messages.map((m) => [m.data.type, m.data.status])).toEqual(expected);
      expect(new Set(messages.map((m) => `${m.topic} ${m.subject} ${m.channelType}`))).toEqual(new Set([`${topic} ${futures ? 'symbolOrderChange' : 'orderChange'} private`]));
      const [fill] = venue.fills(account(), 'BTCUSDT', 0);
      expect(messages.find((m) => m.data.type === 'match').data).toMatchObject({
        symbol: id, orderId, clientOid: 'ws-v', side: 'buy', orderType: 'limit', price: '94000', size: String(size), matchPrice: '94000', matchSize: String(size),
        filledSize: String(size), remainSize: '0', tradeId: String(fill.id), liquidity: 'maker', feeType: 'makerFee',
      });
    } finally {
      ws.close();
    }
  });

  it('watchTicker sees the new price after the venue moves', async () => {
    const first = ex.watchTicker(symbol);
    await until(() => acked(ex, tickerTopic), `the ack of ${tickerTopic}`);
    venue.advanceTo(CONTRACT_T0 + 3 * DAY);
    expect(await first).toMatchObject({ symbol, last: 93900, bid: 93900, ask: 93900 });
    const next = ex.watchTicker(symbol);
    venue.advanceTo(CONTRACT_T0 + 9 * DAY);
    expect(await next).toMatchObject({ symbol, last: 92900 });
    // one public bullet
    expect(standIn.stub.calls('POST', '/api/v1/bullet-public')).toHaveLength(1);
  });

  if (!futures) {
    it('the spot /market/ticker topic (ccxt option spotMethod) is served too', async () => {
      const first = ex.watchTicker(symbol, { spotMethod: '/market/ticker' });
      await until(() => acked(ex, `/market/ticker:${id}`), 'the ack of /market/ticker');
      venue.advanceTo(CONTRACT_T0 + 3 * DAY);
      expect(await first).toMatchObject({ symbol, last: 93900 });
    });
  }

  it('expireStreams() ends the tokens and closes the stream: the old token is refused as expired, a new bullet works', async () => {
    const first = collect(() => ex.watchOrders(symbol));
    await until(() => acked(ex, ordersTopic), `the ack of ${ordersTopic}`);
    standIn.expireStreams();
    await first.done;
    expect(first.errors[0]).toBeInstanceOf((ccxt as any).NetworkError);
    await until(() => standIn.streams.openCount === 0, 'the stream to close');
    // ccxt still holds the bullet's url: the venue refuses the old token, and ccxt drops the url
    await expect(ex.watchOrders(symbol)).rejects.toThrow(/token is expired/);
    const again = collect(() => ex.watchOrders(symbol));
    await until(() => acked(ex, ordersTopic), `the ack of ${ordersTopic} on a new token`);
    expect(bullets()).toBe(2);
    await place('ws-after', '80000');
    await until(() => again.items.some((o) => o.clientOrderId === 'ws-after' && o.status === 'open'), 'the order on the new stream');
  });

  it('streams.cut() drops the stream; a new watch connects again with the same token and sees the orders', async () => {
    const first = collect(() => ex.watchOrders(symbol));
    await until(() => acked(ex, ordersTopic), `the ack of ${ordersTopic}`);
    const before = standIn.streams.connections.get('/');
    expect(before).toBe(1);
    standIn.streams.cut();
    await first.done;
    expect(first.errors[0]).toBeInstanceOf((ccxt as any).NetworkError);
    const again = collect(() => ex.watchOrders(symbol));
    await until(() => acked(ex, ordersTopic), `the ack of ${ordersTopic} after the cut`);
    expect(standIn.streams.connections.get('/')).toBe(2);
    expect(bullets()).toBe(1);
    await place('ws-cut', '80000');
    await until(() => again.items.some((o) => o.clientOrderId === 'ws-cut' && o.status === 'open'), 'the order on the new connection');
  });

  it('refuses a bad token (401 "token is invalid") and an unknown key\'s private bullet (400003); a public token gets no private topic (403)', async () => {
    const wsOrigin = standIn.origin.replace(/^http/, 'ws');
    const talk = async (url: string, send: object[] = []) => {
      const ws = new WebSocket(url);
      const got: any[] = [];
      ws.on('message', (d) => {
        const m = JSON.parse(String(d));
        got.push(m);
        if (m.type === 'welcome') for (const s of send) ws.send(JSON.stringify(s));
        if (got.length === send.length + 1) ws.close();
      });
      await new Promise((resolve) => ws.on('close', resolve));
      return got;
    };
    expect(await talk(`${wsOrigin}/?token=not-a-token&connectId=c-1`)).toEqual([{ id: 'c-1', type: 'error', code: 401, data: 'token is invalid' }]);

    const unknown = await fetch(`${standIn.origin}/api/v1/bullet-private`, { method: 'POST', headers: { 'KC-API-KEY': 'no-such-key' } });
    expect(unknown.status).toBe(401);
    expect(await unknown.json()).toEqual({ code: '400003', msg: 'KC-API-KEY not exists' });
    const other = await newClient({ apiKey: 'no-such-key', secret: 'x', passphrase: 'y' });
    other.setMarketsFromExchange(ex);
    other.options.uta = false;
    try {
      await expect(other.watchOrders(symbol)).rejects.toBeInstanceOf((ccxt as any).AuthenticationError);
    } finally {
      await other.close();
    }

    const pub = (await (await fetch(`${standIn.origin}/api/v1/bullet-public`, { method: 'POST' })).json()) as any;
    expect(pub).toMatchObject({ code: '200000', data: { instanceServers: [{ endpoint: `${wsOrigin}/`, encrypt: true, protocol: 'websocket', pingInterval: 18000, pingTimeout: 10000 }] } });
    const got = await talk(`${pub.data.instanceServers[0].endpoint}?token=${pub.data.token}&connectId=c-2`, [
      { id: '1', type: 'ping' },
      { id: '2', type: 'subscribe', topic: ordersTopic, privateChannel: true, response: true },
      { id: '3', type: 'subscribe', topic: tickerTopic, privateChannel: false, response: true },
      { id: '4', type: 'subscribe', topic: futures ? '/contractMarket/ticker:NOPEUSDTM' : '/market/ticker:NOPE-USDT', response: true },
      { id: '5', type: 'unsubscribe', topic: tickerTopic, privateChannel: false, response: true },
    ]);
    expect(got).toEqual([
      { id: 'c-2', type: 'welcome' },
      { id: '1', type: 'pong' },
      { id: '2', type: 'error', code: 403, data: 'login is required' },
      { id: '3', type: 'ack' },
      { id: '4', type: 'error', code: 404, data: 'topic does not exist' },
      { id: '5', type: 'ack' },
    ]);
  });
});
