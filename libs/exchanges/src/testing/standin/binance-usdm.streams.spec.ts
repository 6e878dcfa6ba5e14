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
});
