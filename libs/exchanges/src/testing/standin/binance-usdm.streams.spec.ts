/**
 * The Binance USDⓈ-M stand-in's streams (issue 39), as ccxt 4.5.84's pro class `binanceusdm` uses them:
 * the listenKey over REST, the user data stream on /private (ORDER_TRADE_UPDATE, ACCOUNT_UPDATE,
 * listenKeyExpired) and the ticker on /market, over the paper venue (real matching, prices moved with
 * `venue.advanceTo`). Rules and sources: binance-usdm.streams.ts and docs/exchanges.md ("Binance USDⓈ-M streams").
 */
import WebSocket from 'ws';
import { ccxt, rewriteOrigin } from '../../ccxt-module';
import { PaperVenue } from '../../paper.exchange';
import { CsvReplayFeed } from '../../paper-price-feed';
import { STUB_KEY } from '../ccxt.fixtures';
import { startVenueStandIn, type VenueStandIn } from './venue-standin';

jest.setTimeout(20_000);

const T0 = 1_700_000_000_000;
const MIN = 60_000;
const SYM = 'BTC/USDT:USDT';
/** BTCUSDT on Binance: a tick a minute for ten minutes (95010 … 95100), then the moves the tests make. */
const PRICES: Array<[number, string]> = [
  [0, '95000'],
  ...Array.from({ length: 10 }, (_, i): [number, string] => [(i + 1) * MIN, String(95_000 + (i + 1) * 10)]),
  [20 * MIN, '93900'], // a buy at 94000 fills (maker)
  [30 * MIN, '96100'], // a sell at 96000 fills (maker)
  [90 * MIN, '95500'], // past a listenKey's 60 minutes
  [25 * 60 * MIN, '95600'], // past a connection's 24 hours
];

function csv(): string {
  return ['ms,exchange,symbol,price', ...PRICES.map(([dt, p]) => `${T0 + dt},Binance,BTCUSDT,${p}`)].join('\n');
}

/** Polls `check` until it holds (bounded). */
async function until(check: () => boolean, what: string, ms = 3000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** A raw client of the stand-in's streams: every message it received, in order. */
class RawSocket {
  readonly messages: any[] = [];
  closed: { code: number; reason: string } | null = null;
  private constructor(readonly ws: WebSocket) {
    ws.on('message', (d) => this.messages.push(JSON.parse(String(d))));
    ws.on('close', (code, reason) => (this.closed = { code, reason: String(reason) }));
  }
  static async open(url: string): Promise<RawSocket> {
    const ws = new WebSocket(url);
    const s = new RawSocket(ws);
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    return s;
  }
  send(m: unknown): void {
    this.ws.send(typeof m === 'string' ? m : JSON.stringify(m));
  }
  async next(pred: (m: any) => boolean = () => true, what = 'a message'): Promise<any> {
    let found: any;
    await until(() => (found = this.messages.find(pred)) !== undefined, what);
    this.messages.splice(this.messages.indexOf(found), 1);
    return found;
  }
  async closedWith(): Promise<{ code: number; reason: string }> {
    await until(() => this.closed !== null, 'the close');
    return this.closed!;
  }
  close(): void {
    this.ws.terminate();
  }
}

describe('Binance USDⓈ-M stand-in streams (ccxt pro binanceusdm)', () => {
  let venue: PaperVenue;
  let standIn: VenueStandIn;
  let ex: any;
  let timers: NodeJS.Timeout[];
  const raws: RawSocket[] = [];

  beforeEach(async () => {
    venue = new PaperVenue({ store: ':memory:', feed: new CsvReplayFeed(csv()) });
    venue.advanceTo(T0);
    standIn = await startVenueStandIn(venue, 'Binance', 'futures', [{ ...STUB_KEY, userId: 'u1' }], { now: () => venue.nowMs() });
    ex = new (ccxt as any).pro.binanceusdm({ apiKey: STUB_KEY.apiKey, secret: STUB_KEY.secret });
    ex.urls.api = rewriteOrigin(ex.urls.api, standIn.origin);
    ex.has.fetchCurrencies = false; // the stand-in has no wallet endpoints (as ccxt.exchange.ts)
    await ex.loadHttpProxyAgent(); // ccxt connects to a plain ws:// url only with an http agent loaded
    // no REST snapshot of the positions beside the stream: its future would be rejected, unobserved, when a
    // test drops the stream while the snapshot is under way (ccxt's own promise, not the test's)
    ex.options.watchPositions = { ...ex.options.watchPositions, fetchPositionsSnapshot: false };
    // ccxt schedules its listenKey keepalive with a bare setTimeout that close() does not clear: track them
    timers = [];
    ex.delay = (ms: number, method: (...a: unknown[]) => unknown, ...args: unknown[]) => void timers.push(setTimeout(() => ex.spawn(method, ...args), ms));
  });

  afterEach(async () => {
    await ex.close();
    for (const t of timers) clearTimeout(t);
    for (const r of raws.splice(0)) r.close();
    await standIn.close();
    venue.close();
  });

  const wsOrigin = () => standIn.origin.replace(/^http/, 'ws');
  const raw = async (path: string) => {
    const r = await RawSocket.open(`${wsOrigin()}${path}`);
    raws.push(r);
    return r;
  };
  const rest = async (method: string, apiKey: string | null = STUB_KEY.apiKey) => {
    const res = await fetch(`${standIn.origin}/fapi/v1/listenKey`, { method, headers: apiKey === null ? {} : { 'X-MBX-APIKEY': apiKey } });
    return { status: res.status, body: (await res.json()) as any };
  };
  const connections = (route: string) => standIn.streams.connections.get(route) ?? 0;
  const order = (side: 'buy' | 'sell', price: number | undefined, clientOrderId: string, amount = 0.002) =>
    ex.createOrder(SYM, price === undefined ? 'market' : 'limit', side, amount, price, { clientOrderId });

  it('listenKey over REST: one live key per account, kept alive by PUT, closed by DELETE, then -1125; an unknown API key is refused', async () => {
    expect(await rest('POST', 'not-a-key')).toEqual({ status: 401, body: { code: -2015, msg: 'Invalid API-key, IP, or permissions for action.' } });
    expect(await rest('POST', null)).toEqual({ status: 401, body: { code: -2014, msg: 'API-key format invalid.' } });
    expect(await rest('PUT')).toEqual({ status: 400, body: { code: -1125, msg: 'This listenKey does not exist.' } });

    const first = await rest('POST');
    expect(first.status).toBe(200);
    expect(first.body.listenKey).toMatch(/^[A-Za-z0-9]{64}$/);
    expect(await rest('POST')).toEqual(first); // the account's live key, extended
    standIn.addKey({ apiKey: 'second-key-of-u1', secret: 's', userId: 'u1' });
    expect(await rest('POST', 'second-key-of-u1')).toEqual(first); // one live key per account, whichever API key asks
    expect(await rest('PUT')).toEqual({ status: 200, body: { listenKey: first.body.listenKey } });

    expect(await rest('DELETE')).toEqual({ status: 200, body: {} });
    expect(await rest('PUT')).toEqual({ status: 400, body: { code: -1125, msg: 'This listenKey does not exist.' } });
    const second = await rest('POST');
    expect(second.body.listenKey).not.toBe(first.body.listenKey);
  });

  it('watchOrders and watchMyTrades see an order placed through REST, its fill after a price move (trade id, client order id, fee) and a cancel', async () => {
    await ex.loadMarkets();
    let orders = ex.watchOrders(SYM);
    await until(() => connections('/private/ws') === 1, 'the user data stream');
    expect(standIn.stub.calls('POST', '/fapi/v1/listenKey')).toHaveLength(1);
    const placed = await order('buy', 94_000, 'grid-buy-1');
    let seen = await orders;
    expect(seen.at(-1)).toMatchObject({ id: placed.id, clientOrderId: 'grid-buy-1', status: 'open', side: 'buy', type: 'limit', price: 94_000, amount: 0.002, filled: 0 });

    // the price falls through the buy: it fills at its price, as the maker
    orders = ex.watchOrders(SYM);
    const trades = ex.watchMyTrades(SYM);
    venue.advanceTo(T0 + 20 * MIN);
    const [mine] = await trades;
    const fill = venue.fills(venue.account('u1', 'Binance', 'futures'), 'BTCUSDT', 0)[0];
    expect(mine).toMatchObject({ id: String(fill.id), order: placed.id, symbol: SYM, side: 'buy', price: 94_000, amount: 0.002, takerOrMaker: 'maker' });
    expect(mine.fee).toEqual({ cost: fill.feeCost / 1e8, currency: 'USDT' });
    expect(mine.fee.cost).toBeCloseTo(94_000 * 0.002 * 0.0002, 8); // the maker rate
    seen = await orders;
    expect(seen.at(-1)).toMatchObject({ id: placed.id, clientOrderId: 'grid-buy-1', status: 'closed', filled: 0.002, average: 94_000 });
    expect(seen.at(-1).fee).toEqual({ cost: mine.fee.cost, currency: 'USDT' });

    // a second order, cancelled through REST
    orders = ex.watchOrders(SYM);
    const second = await order('buy', 93_000, 'grid-buy-2');
    expect((await orders).at(-1)).toMatchObject({ id: second.id, clientOrderId: 'grid-buy-2', status: 'open' });
    orders = ex.watchOrders(SYM);
    await ex.cancelOrder(second.id, SYM);
    expect((await orders).at(-1)).toMatchObject({ id: second.id, clientOrderId: 'grid-buy-2', status: 'canceled', filled: 0 });
    expect(connections('/private/ws')).toBe(1);
  });

  it('pushes the documented ORDER_TRADE_UPDATE and ACCOUNT_UPDATE: a market order is announced, then trades as the taker; a resting order trades as the maker, with realized profit', async () => {
    const { body } = await rest('POST');
    const user = await raw(`/private/ws?listenKey=${body.listenKey}`);
    await ex.loadMarkets();
    await order('buy', undefined, 'open-long'); // taken at once at 95000
    const fields = ['s', 'c', 'S', 'o', 'f', 'q', 'p', 'ap', 'sp', 'x', 'X', 'i', 'l', 'z', 'L', 'T', 't', 'b', 'a', 'm', 'R', 'wt', 'ot', 'ps', 'cp', 'rp', 'pP', 'si', 'ss', 'V', 'pm', 'gtd', 'er'];
    const announced = await user.next((m) => m.e === 'ORDER_TRADE_UPDATE', 'the NEW');
    expect(Object.keys(announced).sort()).toEqual(['E', 'T', 'e', 'o']);
    expect(Object.keys(announced.o).sort()).toEqual([...fields].sort()); // no commission yet: no N, n
    expect(announced.o).toMatchObject({ s: 'BTCUSDT', c: 'open-long', S: 'BUY', o: 'MARKET', ot: 'MARKET', p: '0', q: '0.002', x: 'NEW', X: 'NEW', z: '0', ap: '0', t: 0, ps: 'BOTH', R: false });
    const taken = await user.next((m) => m.e === 'ORDER_TRADE_UPDATE', 'the TRADE');
    expect(Object.keys(taken.o).sort()).toEqual([...fields, 'N', 'n'].sort());
    expect(taken.o).toMatchObject({ c: 'open-long', i: announced.o.i, x: 'TRADE', X: 'FILLED', l: '0.002', z: '0.002', L: '95000', ap: '95000', N: 'USDT', m: false, rp: '0' });
    expect(Number(taken.o.n)).toBeCloseTo(95_000 * 0.002 * 0.0005, 8); // the taker rate
    const account = await user.next((m) => m.e === 'ACCOUNT_UPDATE', 'the ACCOUNT_UPDATE');
    expect(account).toMatchObject({ e: 'ACCOUNT_UPDATE', T: taken.o.T, a: { m: 'ORDER', B: [{ a: 'USDT', bc: '0' }], P: [{ s: 'BTCUSDT', pa: '0.002', ep: '95000', bep: '95000', cr: '0', up: '0', mt: 'cross', iw: '0', ps: 'BOTH' }] } });
    expect(Object.keys(account.a.B[0]).sort()).toEqual(['a', 'bc', 'cw', 'wb']);
    const usdt = venue.balances(venue.account('u1', 'Binance', 'futures')).find((b) => b.symbol === 'USDT')!;
    expect(Number(account.a.B[0].wb)).toBeCloseTo(usdt.balance, 8);

    // a take-profit resting above: announced with its notional on the ask side, then filled as the maker
    await order('sell', 96_000, 'take-profit');
    const resting = await user.next((m) => m.e === 'ORDER_TRADE_UPDATE', 'the take-profit');
    expect(resting.o).toMatchObject({ c: 'take-profit', o: 'LIMIT', p: '96000', x: 'NEW', X: 'NEW', a: '192', b: '0' });
    expect(user.messages.filter((m) => m.e === 'ACCOUNT_UPDATE')).toEqual([]); // an unfilled order changes no balance
    venue.advanceTo(T0 + 30 * MIN);
    const closed = await user.next((m) => m.e === 'ORDER_TRADE_UPDATE', 'the take-profit trade');
    expect(closed.o).toMatchObject({ c: 'take-profit', x: 'TRADE', X: 'FILLED', L: '96000', m: true, rp: '2', a: '0' }); // (96000 − 95000) × 0.002
    const flat = await user.next((m) => m.e === 'ACCOUNT_UPDATE', 'the flat position');
    expect(flat.a.P).toEqual([{ s: 'BTCUSDT', pa: '0', ep: '0', bep: '0', cr: '2', up: '0', mt: 'cross', iw: '0', ps: 'BOTH' }]);
  });

  /** Moves the price a minute at a time until `watch` resolves (the venue pushes nothing before the SUBSCRIBE has landed). */
  const firstTicker = async (watch: Promise<any>, from = 0): Promise<{ ticker: any; minute: number }> => {
    let ticker: any;
    let failed: unknown;
    watch.then((t) => (ticker = t), (e) => (failed = e));
    for (let minute = from + 1; minute <= 10; minute++) {
      venue.advanceTo(T0 + minute * MIN);
      await until(() => ticker !== undefined || failed !== undefined, 'a ticker', 50).catch(() => undefined);
      if (failed) throw failed;
      if (ticker) return { ticker, minute };
    }
    throw new Error('no ticker');
  };

  it('watchTicker sees the new price after venue.advanceTo (the mini ticker, as ccxt subscribes; the full ticker on request), on the /market route', async () => {
    await ex.loadMarkets();
    const watch = ex.watchTicker(SYM);
    await until(() => connections('/market/ws') === 1, 'the market stream');
    const { ticker, minute } = await firstTicker(watch);
    expect(ticker).toMatchObject({ symbol: SYM, last: 95_000 + minute * 10, open: 95_000, high: 95_000 + minute * 10, low: 95_000, timestamp: T0 + minute * MIN });
    expect(ticker.info.e).toBe('24hrMiniTicker');
    const next = ex.watchTicker(SYM);
    venue.advanceTo(T0 + (minute + 1) * MIN);
    expect(await next).toMatchObject({ symbol: SYM, last: 95_000 + (minute + 1) * 10 });

    const full = await firstTicker(ex.watchTicker(SYM, { name: 'ticker' }), minute + 1);
    expect(full.ticker).toMatchObject({ symbol: SYM, last: 95_000 + full.minute * 10, open: 95_000, change: full.minute * 10, vwap: 95_000 + full.minute * 10 });
    expect(full.ticker.info.e).toBe('24hrTicker');
    expect(connections('/market/ws')).toBe(2); // ccxt gives each new subscription its own stream index: /market/ws/0, /market/ws/1
  });

  it('market stream requests as documented: SUBSCRIBE, LIST_SUBSCRIPTIONS, UNSUBSCRIBE, properties; the 24hrTicker fields; malformed requests refused', async () => {
    let market = await raw('/market/ws');
    market.send({ method: 'SUBSCRIBE', params: ['btcusdt@ticker', 'ethusdt@ticker'], id: 1 });
    expect(await market.next()).toEqual({ result: null, id: 1 });
    market.send({ method: 'LIST_SUBSCRIPTIONS', id: 2 });
    expect(await market.next()).toEqual({ result: ['btcusdt@ticker', 'ethusdt@ticker'], id: 2 });
    venue.advanceTo(T0 + MIN);
    const ticker = await market.next((m) => m.e === '24hrTicker');
    expect(Object.keys(ticker).sort()).toEqual(['C', 'E', 'F', 'L', 'O', 'P', 'Q', 'c', 'e', 'h', 'l', 'n', 'o', 'p', 'q', 's', 'v', 'w'].sort());
    expect(ticker).toMatchObject({ s: 'BTCUSDT', E: T0 + MIN, C: T0 + MIN, O: T0 + MIN - 24 * 60 * MIN, c: '95010', o: '95000', h: '95010', l: '95000', p: '10', P: '0.011' });

    market.send({ method: 'SET_PROPERTY', params: ['combined', true], id: 3 });
    expect(await market.next()).toEqual({ result: null, id: 3 });
    market.send({ method: 'GET_PROPERTY', params: ['combined'], id: 4 });
    expect(await market.next()).toEqual({ result: true, id: 4 });
    venue.advanceTo(T0 + 2 * MIN);
    expect(await market.next()).toMatchObject({ stream: 'btcusdt@ticker', data: { e: '24hrTicker', c: '95020' } });
    market.send({ method: 'UNSUBSCRIBE', params: ['btcusdt@ticker'], id: 5 });
    expect(await market.next()).toEqual({ result: null, id: 5 });
    venue.advanceTo(T0 + 3 * MIN);
    market.send({ method: 'LIST_SUBSCRIPTIONS', id: 6 });
    expect(await market.next()).toEqual({ result: ['ethusdt@ticker'], id: 6 }); // pushed after the tick's ticker, had there been one
    expect(market.messages).toEqual([]);

    // refusals, on a connection of their own (a connection takes at most 10 messages a second)
    market = await raw('/market/ws');
    market.send({ method: 'SUBSCRIBE', params: ['btcusdt@ticker'], id: -1 });
    expect(await market.next()).toEqual({ error: { code: 2, msg: 'Invalid request: request ID must be an unsigned integer' }, id: null });
    market.send({ method: 'SUBSCRIBES', params: [], id: 6 });
    expect(await market.next()).toMatchObject({ error: { code: 2, msg: expect.stringMatching(/^Invalid request: unknown variant `SUBSCRIBES`/) }, id: 6 });
    market.send({ method: 'LIST_SUBSCRIPTIONS', id: 9, extra: true });
    expect(await market.next()).toEqual({ error: { code: 2, msg: 'Invalid request: too many parameters' }, id: 9 });
    market.send({ method: 'GET_PROPERTY', params: ['colour'], id: 7 });
    expect(await market.next()).toEqual({ error: { code: 0, msg: 'Unknown property' }, id: 7 });
    market.send({ method: 'SET_PROPERTY', params: ['combined', 'yes'], id: 8 });
    expect(await market.next()).toEqual({ error: { code: 1, msg: 'Invalid value type: expected Boolean' }, id: 8 });
    market.send('{not json');
    expect(await market.next()).toMatchObject({ error: { code: 3 }, id: null });
    market.send({ method: 'LIST_SUBSCRIPTIONS', id: 10 });
    expect(await market.next()).toEqual({ result: [], id: 10 }); // the refused SUBSCRIBE subscribed nothing

    // a raw stream named in the path is subscribed on connect
    const named = await raw('/market/ws/btcusdt@ticker');
    venue.advanceTo(T0 + 4 * MIN);
    expect(await named.next()).toMatchObject({ e: '24hrTicker', c: '95040' });
  });

  it('more than 10 incoming messages in a second disconnect a market stream', async () => {
    const market = await raw('/market/ws');
    for (let id = 1; id <= 11; id++) market.send({ method: 'LIST_SUBSCRIPTIONS', id });
    expect((await market.closedWith()).code).toBe(1008);
    expect(market.messages).toHaveLength(10);
  });

  it('expireStreams(): listenKeyExpired on every user stream, which is closed: ccxt\'s pending watch rejects; the key is unknown until ccxt makes a new one', async () => {
    await ex.loadMarkets();
    const pending = ex.watchOrders(SYM);
    await until(() => connections('/private/ws') === 1, 'the user data stream');
    const oldKey = ex.options.future.listenKey;
    const user = await raw(`/private/ws?listenKey=${oldKey}`); // a second connection on the same key
    standIn.expireStreams();
    await expect(pending).rejects.toThrow(/connection closed by remote server, closing code 1000/);
    expect(await user.next()).toEqual({ e: 'listenKeyExpired', E: String(T0), listenKey: oldKey });
    expect(await user.closedWith()).toEqual({ code: 1000, reason: 'listenKeyExpired' });
    expect(await rest('PUT')).toEqual({ status: 400, body: { code: -1125, msg: 'This listenKey does not exist.' } });
    const late = await raw(`/private/ws?listenKey=${oldKey}`);
    expect((await late.closedWith()).code).toBe(1008);

    // ccxt's keepalive meets -1125 and forgets the key; its next watch asks for a new one and gets the events again
    await ex.keepAliveListenKey();
    expect(ex.options.future.listenKey).toBeUndefined();
    const again = ex.watchOrders(SYM);
    await until(() => standIn.stub.calls('POST', '/fapi/v1/listenKey').length === 2 && standIn.streams.openCount === 1, 'a new user data stream');
    expect(ex.options.future.listenKey).not.toBe(oldKey);
    await order('buy', 94_000, 'after-expiry');
    expect((await again).at(-1)).toMatchObject({ clientOrderId: 'after-expiry', status: 'open' });
  });

  it('cut(): open streams are dropped, pending watches reject, and new watches connect again', async () => {
    await ex.loadMarkets();
    const orders = ex.watchOrders(SYM);
    const ticker = ex.watchTicker(SYM);
    await until(() => connections('/private/ws') === 1 && connections('/market/ws') === 1, 'both streams');
    standIn.streams.cut();
    // both at once: a rejection must find its handler before the next turn
    await Promise.all([expect(orders).rejects.toThrow(/closing code 1006/), expect(ticker).rejects.toThrow(/closing code 1006/)]);

    const orders2 = ex.watchOrders(SYM);
    const ticker2 = ex.watchTicker(SYM);
    await until(() => connections('/private/ws') === 2 && connections('/market/ws') === 2, 'the reconnections');
    await order('sell', 96_000, 'after-cut');
    expect((await orders2).at(-1)).toMatchObject({ clientOrderId: 'after-cut', status: 'open' });
    const after = await firstTicker(ticker2);
    expect(after.ticker).toMatchObject({ symbol: SYM, last: 95_000 + after.minute * 10 });
  });

  it('an unknown listenKey is refused, on the raw route and through ccxt', async () => {
    const byQuery = await raw('/private/ws?listenKey=NoSuchKey');
    expect(await byQuery.closedWith()).toEqual({ code: 1008, reason: 'Invalid listenKey' });
    const byPath = await raw('/private/ws/NoSuchKey');
    expect((await byPath.closedWith()).code).toBe(1008);
    expect(byQuery.messages.concat(byPath.messages)).toEqual([]);

    await ex.loadMarkets();
    ex.options.future = { ...ex.options.future, listenKey: 'NoSuchKey', lastAuthenticatedTime: Date.now() }; // as if issued a moment ago
    await expect(ex.watchOrders(SYM)).rejects.toThrow(/closing code 1008/);
  });

  it('in the venue\'s time: a listenKey not kept alive ends 60 minutes after its last POST/PUT; a connection is cut after 24 hours', async () => {
    const { body } = await rest('POST');
    const user = await raw(`/private/ws/${body.listenKey}`);
    const market = await raw('/market/ws/btcusdt@ticker');
    venue.advanceTo(T0 + 10 * MIN);
    expect(await rest('PUT')).toEqual({ status: 200, body }); // valid until 70 min now
    venue.advanceTo(T0 + 30 * MIN);
    expect(user.closed).toBeNull();
    venue.advanceTo(T0 + 90 * MIN);
    expect(await user.next((m) => m.e === 'listenKeyExpired')).toEqual({ e: 'listenKeyExpired', E: String(T0 + 90 * MIN), listenKey: body.listenKey });
    expect((await user.closedWith()).code).toBe(1000);
    expect(await rest('PUT')).toMatchObject({ status: 400, body: { code: -1125 } });
    expect(market.closed).toBeNull();
    venue.advanceTo(T0 + 25 * 60 * MIN);
    expect(await market.closedWith()).toEqual({ code: 1000, reason: 'connection lifetime reached' });
  });

  it('ccxt keeps its listenKey alive with PUT on its own schedule: the same key, no new POST', async () => {
    await ex.loadMarkets();
    ex.options.listenKeyRefreshRate = 50;
    const pending = ex.watchOrders(SYM);
    void pending.catch(() => undefined);
    await until(() => connections('/private/ws') === 1, 'the user data stream');
    const key = ex.options.future.listenKey;
    await until(() => standIn.stub.calls('PUT', '/fapi/v1/listenKey').length >= 2, 'two keepalives');
    expect(standIn.stub.calls('POST', '/fapi/v1/listenKey')).toHaveLength(1);
    expect(ex.options.future.listenKey).toBe(key);
    expect(standIn.streams.openCount).toBe(1);
  });
});
