/**
 * The Binance spot stand-in serves the venue's streams as ccxt's pro class uses them (issue 39; rules and
 * sources in binance-spot.streams.ts and docs/exchanges.md): user data through the WebSocket API's
 * `userDataStream.subscribe.signature`, prices through `<symbol>@ticker` market streams.
 */
import { ccxt, observeStreamFutures, rewriteOrigin } from '../../ccxt-module';
import { CONTRACT_T0, DAY } from '../../exchange-port.contract';
import { PaperVenue } from '../../paper.exchange';
import { STUB_KEY } from '../ccxt.fixtures';
import type { VenueStandIn } from './venue-standin';
import { closeContractStandIn, contractStandIn } from './contract-standin';

/** Waits (bounded) until `ok()` holds: a watch is in place before the test moves the market. */
async function until(ok: () => boolean, ms = 5000) {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error('condition not reached');
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('Binance spot stand-in: streams', () => {
  let venue: PaperVenue;
  let standIn: VenueStandIn;
  let ex: any;
  beforeEach(async () => {
    ({ venue, standIn } = await contractStandIn('Binance', 'spot'));
    ex = new (ccxt as any).pro.binance({ apiKey: STUB_KEY.apiKey, secret: STUB_KEY.secret });
    ex.urls.api = rewriteOrigin(ex.urls.api, standIn.origin);
    ex.options.fetchMarkets = { types: ['spot'] };
    ex.options.fetchMargins = false;
    ex.has.fetchCurrencies = false;
    await ex.loadHttpProxyAgent(); // ccxt needs an http agent for plain ws:// urls
    await ex.loadMarkets();
  });
  afterEach(async () => {
    await ex?.close();
    await closeContractStandIn({ venue, standIn });
  });

  it('pushes the order, its fill (trade id, client id, fee) and a cancel over the WebSocket API subscription', async () => {
    const orders = ex.watchOrders('BTC/USDT');
    await until(() => standIn.subscriptions().user === 1); // a stream carries what happens after it is subscribed
    await ex.createOrder('BTC/USDT', 'limit', 'buy', 0.001, 94000, { clientOrderId: 'grid-b0' });
    const first = await orders;
    expect(first.map((o: any) => [o.clientOrderId, o.status])).toEqual([['grid-b0', 'open']]);

    const trades = ex.watchMyTrades('BTC/USDT');
    venue.advanceTo(CONTRACT_T0 + 3 * DAY); // 93900 crosses the buy at 94000
    const [trade] = await trades;
    expect(trade).toMatchObject({ side: 'buy', price: 94000, amount: 0.001, info: { c: 'grid-b0', x: 'TRADE' } });
    expect(Number(trade.id)).toBeGreaterThan(0);
    expect(trade.fee.cost).toBeGreaterThan(0);
    const rest = await ex.fetchMyTrades('BTC/USDT', trade.timestamp - 1000);
    expect(rest.map((t: any) => t.id)).toEqual([trade.id]); // the same trade id as REST's

    const placing = ex.watchOrders('BTC/USDT'); // a watch gets what arrives while it waits
    await ex.createOrder('BTC/USDT', 'limit', 'buy', 0.001, 90000, { clientOrderId: 'grid-b1' });
    const placed = await placing;
    expect(placed.some((o: any) => o.clientOrderId === 'grid-b1')).toBe(true);
    const cancelled = ex.watchOrders('BTC/USDT');
    await ex.cancelOrder(undefined, 'BTC/USDT', { clientOrderId: 'grid-b1' });
    expect((await cancelled).find((o: any) => o.clientOrderId === 'grid-b1').status).toBe('canceled');
  });

  it('refuses a subscription with a wrong signature or an unknown key', async () => {
    const bad = new (ccxt as any).pro.binance({ apiKey: STUB_KEY.apiKey, secret: 'not-the-secret-at-all' });
    bad.urls.api = rewriteOrigin(bad.urls.api, standIn.origin);
    bad.setMarketsFromExchange(ex);
    observeStreamFutures(bad); // ccxt rejects an internal future nobody awaits (ccxt-module.ts)
    await bad.loadHttpProxyAgent();
    await expect(bad.watchOrders('BTC/USDT')).rejects.toThrow(/Signature for this request is not valid/);
    await bad.close();
    const unknown = new (ccxt as any).pro.binance({ apiKey: 'someone-else', secret: STUB_KEY.secret });
    unknown.urls.api = rewriteOrigin(unknown.urls.api, standIn.origin);
    unknown.setMarketsFromExchange(ex);
    observeStreamFutures(unknown);
    await unknown.loadHttpProxyAgent();
    await expect(unknown.watchOrders('BTC/USDT')).rejects.toThrow(/Invalid API-key/);
    await unknown.close();
  });

  it('pushes the price of a ticker stream on every move of the market, and a cut stream is opened again', async () => {
    const next = ex.watchTicker('BTC/USDT');
    await until(() => standIn.subscriptions().market === 1);
    venue.advanceTo(CONTRACT_T0 + 3 * DAY);
    expect((await next).last).toBe(93900);
    expect(standIn.streams.connections.get('/ws')).toBe(1);

    const lost = ex.watchTicker('BTC/USDT');
    standIn.streams.cut();
    await expect(lost).rejects.toThrow(); // the watcher learns of the cut
    await until(() => standIn.subscriptions().market === 0);
    const again = ex.watchTicker('BTC/USDT');
    await until(() => standIn.subscriptions().market === 1);
    venue.advanceTo(CONTRACT_T0 + 9 * DAY);
    expect((await again).last).toBe(92900);
    expect(standIn.streams.connections.get('/ws')).toBe(2);
  });
});
