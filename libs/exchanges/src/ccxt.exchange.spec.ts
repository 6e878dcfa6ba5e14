// Over 400 lines: the ccxt adapter against the stand-in of each of its four venues, one suite run per venue, each call with its venue quirks.
/**
 * The ccxt adapter, offline: each of binance, binanceusdm, kucoin and kucoinfutures talks to a local
 * HTTP server on 127.0.0.1 standing in for the exchange (every `urls.api` entry points at it).
 */
import { CcxtExchange, mapCcxtError } from './ccxt.exchange';
import { CcxtExchangeProvider } from './ccxt-provider';
import {
  BadApiKeyError,
  DuplicateOrderError,
  InvalidOrderError,
  ExchangeDownError,
  ExchangeNotSupportedError,
  InsufficientFundsError,
  KeyRefusedError,
  MissingCredentialError,
  OrderNotFoundError,
  RateLimitedError,
} from './exchange.errors';
import type { ExchangeName, MarketType } from './exchange.port';
import { exchangeFixture, NOW, STUB_KEY, verifySignature, type CcxtId, type ExchangeFixture } from './testing/ccxt.fixtures';
import { ExchangeStub } from './testing/exchange-stub.server';

const CASES: Array<{ id: CcxtId; exchange: ExchangeName; market: MarketType }> = [
  { id: 'binance', exchange: 'Binance', market: 'spot' },
  { id: 'binanceusdm', exchange: 'Binance', market: 'futures' },
  { id: 'kucoin', exchange: 'Kucoin', market: 'spot' },
  { id: 'kucoinfutures', exchange: 'Kucoin', market: 'futures' },
];

/** Issue 39: with each venue's maximums and its names of them (venues/market-maximums.ts); KuCoin futures' maxOrderQty 1,000,000 lots × 0.001 BTC. */
const EXPECTED_RULES: Record<CcxtId, object> = {
  binance: {
    priceStep: 0.01, amountStep: 0.00001, minNotional: 5, minAmount: 0.00001, makerFee: 0.001, takerFee: 0.001,
    maxAmount: 9000, maxNotional: 9000000, maxNumOrders: 200, percentPrice: { bidUp: 5, bidDown: 0.2, askUp: 5, askDown: 0.2 },
    ruleNames: { maxAmount: 'LOT_SIZE maxQty', maxNotional: 'NOTIONAL maxNotional', maxNumOrders: 'MAX_NUM_ORDERS maxNumOrders', percentPrice: 'PERCENT_PRICE_BY_SIDE' },
  },
  binanceusdm: {
    priceStep: 0.1, amountStep: 0.001, minNotional: 100, minAmount: 0.001, makerFee: 0.0002, takerFee: 0.0005,
    maxAmount: 1000, maxNumOrders: 200, percentPrice: { bidUp: 1.05, askDown: 0.95 },
    ruleNames: { maxAmount: 'LOT_SIZE maxQty', maxNumOrders: 'MAX_NUM_ORDERS limit', percentPrice: 'PERCENT_PRICE' },
  },
  kucoin: {
    priceStep: 0.1, amountStep: 1e-8, minNotional: 0.1, minAmount: 0.00001, makerFee: 0.001, takerFee: 0.001,
    maxAmount: 10000000000, maxNotional: 99999999, ruleNames: { maxAmount: 'baseMaxSize', maxNotional: 'quoteMaxSize' },
  },
  kucoinfutures: { priceStep: 0.1, amountStep: 0.001, minNotional: 0, minAmount: 0.001, makerFee: 0.0002, takerFee: 0.0006, maxAmount: 1000, ruleNames: { maxAmount: 'maxOrderQty' } },
};

describe.each(CASES)('ccxt adapter: $id against a local stand-in', ({ id, exchange, market }) => {
  let stub: ExchangeStub;
  let fx: ExchangeFixture;
  let port: CcxtExchange;
  const sleeps: number[] = [];

  beforeEach(async () => {
    fx = exchangeFixture(id);
    stub = await ExchangeStub.start(fx.routes);
    sleeps.length = 0;
    port = new CcxtExchange({
      exchange,
      market,
      mode: 'live',
      credential: STUB_KEY,
      apiOrigin: stub.origin,
      timeoutMs: 400,
      retry: { attempts: 3, baseDelayMs: 10 },
      sleep: async (ms) => void sleeps.push(ms),
      clock: () => NOW,
    });
  });
  afterEach(async () => {
    await stub.close();
  });

  const unrouted = () => stub.requests.filter((r) => !fx.routes[`${r.method} ${r.path}`] && !Object.keys(fx.routes).some((k) => k.endsWith('*') && `${r.method} ${r.path}`.startsWith(k.slice(0, -1))));

  it('loads markets from the stand-in and reports market rules in base units', async () => {
    expect(await port.marketRules('BTCUSDT')).toEqual(EXPECTED_RULES[id]);
    expect(unrouted().map((r) => `${r.method} ${r.path}`)).toEqual([]);
  });

  it('parses balances from a signed request', async () => {
    const balances = await port.balances();
    const usdt = balances.find((b) => b.symbol === 'USDT')!;
    if (market === 'spot') {
      expect(usdt).toEqual({ symbol: 'USDT', exchange, balance: 1328.594, available: 1234.5 });
      expect(balances.find((b) => b.symbol === 'BTC')).toEqual({ symbol: 'BTC', exchange, balance: 0.012, available: 0.01 });
      expect(balances.map((b) => b.symbol)).not.toContain(id === 'kucoin' ? 'KCS' : 'ETH'); // zero balances left out
    } else {
      expect(usdt.exchange).toBe(exchange);
      expect(usdt.available).toBe(991.61);
      expect(usdt.balance).toBeGreaterThanOrEqual(1000);
    }
    const [method, path] = fx.paths.balance;
    const calls = stub.calls(method, path);
    expect(calls).toHaveLength(1);
    expect(verifySignature(id, calls[0])).toBe(true);
  });

  it('reads the ticker price without a key', async () => {
    expect(await port.price('BTCUSDT')).toBe(id.startsWith('kucoin') ? 95012.3 : 95012.34);
  });

  it('creates a limit order with our client order id, signed, amount converted to the exchange unit', async () => {
    const order = await port.createLimitOrder({ symbol: 'BTCUSDT', side: 'buy', price: 93500, amount: 0.002, clientOrderId: 'bot42-c1-l3-buy' });
    expect(order).toMatchObject({ clientOrderId: 'bot42-c1-l3-buy', symbol: 'BTCUSDT', side: 'buy', price: 93500, amount: 0.002, filled: 0, status: 'open' });
    expect(order.exchangeOrderId).not.toBe('');
    const [method, path] = fx.paths.create;
    const [req] = stub.calls(method, path);
    expect(verifySignature(id, req)).toBe(true);
    expect(fx.clientIdOfCreate(req)).toBe('bot42-c1-l3-buy');
    expect(fx.amountOfCreate(req)).toBe(id === 'kucoinfutures' ? '2' : '0.002'); // 2 contracts of 0.001 BTC
  });

  it('finds orders by client order id (null when unknown), lists open orders and cancels by client id', async () => {
    const found = await port.orderByClientId('BTCUSDT', 'grid7-c0-l1-buy');
    expect(found).toMatchObject({ clientOrderId: 'grid7-c0-l1-buy', exchangeOrderId: '1002', side: 'buy', price: 93000, amount: 0.001, filled: 0, status: 'open' });
    const filled = await port.orderByClientId('BTCUSDT', 'grid7-c0-l0-buy');
    expect(filled).toMatchObject({ status: 'filled', filled: 0.001, avgFillPrice: 94000 });
    expect(await port.orderByClientId('BTCUSDT', 'never-placed')).toBeNull();

    const open = await port.openOrders('BTCUSDT');
    expect(open.map((o) => [o.clientOrderId, o.status, o.amount])).toEqual([['grid7-c0-l1-buy', 'open', 0.001]]);

    const cancelled = await port.cancelOrder('BTCUSDT', 'grid7-c0-l1-buy');
    expect(cancelled).toMatchObject({ clientOrderId: 'grid7-c0-l1-buy', status: 'cancelled' });
    const [method, path] = fx.paths.cancel;
    const [req] = stub.calls(method, path);
    expect(verifySignature(id, req)).toBe(true);
    expect(req.path + '?' + req.rawQuery).toContain('grid7-c0-l1-buy');
    // idempotent: cancelling a closed order returns its state; an unknown one is OrderNotFound
    expect(await port.cancelOrder('BTCUSDT', 'grid7-c0-l0-buy')).toMatchObject({ status: 'filled' });
    await expect(port.cancelOrder('BTCUSDT', 'never-placed')).rejects.toBeInstanceOf(OrderNotFoundError);
  });

  it('returns recent fills with our client order id and the fee in quote', async () => {
    const fills = await port.recentFills('BTCUSDT', NOW - 60_000);
    expect(fills).toHaveLength(1);
    expect(fills[0]).toMatchObject({ clientOrderId: 'grid7-c0-l0-buy', exchangeOrderId: '1001', side: 'buy', price: 94000, amount: 0.001, timestamp: NOW - 5000 });
    expect(fills[0].fee).toBeCloseTo(market === 'spot' ? 0.094 : 0.0188, 10);
  });

  it('maps a rejected key to BadApiKeyError with a safe message', async () => {
    const [method, path] = fx.paths.balance;
    stub.once(method, path, fx.errors.badKey);
    const err = await port.balances().catch((e) => e);
    expect(err).toBeInstanceOf(BadApiKeyError);
    expect(err.message).not.toMatch(/stub-|API-key|KC-API|127\.0\.0\.1|signature/);
    expect(JSON.stringify(err)).not.toContain(STUB_KEY.secret);
  });

  it('maps insufficient funds', async () => {
    const [method, path] = fx.paths.create;
    stub.once(method, path, fx.errors.insufficient);
    await expect(port.createLimitOrder({ symbol: 'BTCUSDT', side: 'buy', price: 93500, amount: 1, clientOrderId: 'too-big' })).rejects.toBeInstanceOf(
      InsufficientFundsError,
    );
  });

  it('retries a rate limit with exponential backoff, a bounded number of times', async () => {
    const [method, path] = fx.paths.balance;
    stub.once(method, path, fx.errors.rateLimited, 2);
    await expect(port.balances()).resolves.toBeDefined();
    expect(stub.calls(method, path)).toHaveLength(3);
    expect(sleeps).toEqual([10, 20]);

    stub.once(method, path, fx.errors.rateLimited, 5);
    await expect(port.balances()).rejects.toBeInstanceOf(RateLimitedError);
    expect(stub.calls(method, path)).toHaveLength(6);
  });

  it('waits at least the venue\'s Retry-After; a ban longer than our longest backoff is handed to the caller', async () => {
    const [method, path] = fx.paths.balance;
    stub.once(method, path, { ...fx.errors.rateLimited, headers: { 'Retry-After': '2' } });
    await expect(port.balances()).resolves.toBeDefined();
    expect(sleeps).toEqual([2000]);
    // Binance 418: the IP is banned for the Retry-After seconds
    stub.once(method, path, { status: 418, body: { code: -1003, msg: 'Way too many requests; IP banned until 1732000120000.' }, headers: { 'Retry-After': '120' } });
    const err = await port.balances().catch((e) => e);
    expect(err).toBeInstanceOf(RateLimitedError);
    expect(err.retryAfterMs).toBe(120_000);
    expect(sleeps).toEqual([2000]);
  });

  it('maps an outage to ExchangeDownError', async () => {
    const [method, path] = fx.paths.balance;
    stub.once(method, path, fx.errors.down);
    await expect(port.balances()).rejects.toBeInstanceOf(ExchangeDownError);
  });

  it('resolves a timed-out order placement by looking it up by client order id: never a duplicate', async () => {
    const [method, path] = fx.paths.create;
    // The exchange accepts the order but the answer arrives after our timeout.
    const create = fx.routes[`${method} ${path}`];
    fx.routes[`${method} ${path}`] = (req) => ({ ...create(req), delayMs: 1000 });
    const order = await port.createLimitOrder({ symbol: 'BTCUSDT', side: 'buy', price: 93500, amount: 0.001, clientOrderId: 'slow-1' });
    expect(order).toMatchObject({ clientOrderId: 'slow-1', status: 'open' });
    expect(stub.calls(method, path)).toHaveLength(1);
    expect(stub.calls(fx.paths.lookup[0], fx.paths.lookup[1]).length).toBeGreaterThanOrEqual(1);
    expect([...fx.orders.values()].filter((o) => o.clientOrderId === 'slow-1')).toHaveLength(1);
  });

  it('retries a timed-out placement that never reached the exchange, once the lookup says it is not there', async () => {
    const [method, path] = fx.paths.create;
    stub.once(method, path, { status: 504, text: 'gateway timeout', delayMs: 1000 });
    const order = await port.createLimitOrder({ symbol: 'BTCUSDT', side: 'sell', price: 99000, amount: 0.001, clientOrderId: 'lost-1' });
    expect(order).toMatchObject({ clientOrderId: 'lost-1', status: 'open' });
    expect(stub.calls(method, path)).toHaveLength(2);
  });

  it('refuses a client order id that an open order has, as the venue does (the port contract)', async () => {
    const first = await port.createLimitOrder({ symbol: 'BTCUSDT', side: 'buy', price: 93500, amount: 0.001, clientOrderId: 'dup-1' });
    await expect(port.createLimitOrder({ symbol: 'BTCUSDT', side: 'buy', price: 93500, amount: 0.001, clientOrderId: 'dup-1' })).rejects.toBeInstanceOf(
      DuplicateOrderError,
    );
    expect([...fx.orders.values()].filter((o) => o.clientOrderId === 'dup-1').map((o) => o.id)).toEqual([first.exchangeOrderId]);
  });

  it('finding 1: recovers fills from the run start across the venue windows and pages, never asking outside a window', async () => {
    const DAY = 86_400_000;
    const size = id === 'kucoinfutures' ? '1' : '0.001';
    // a trade 9 days ago, a full page and more 2 days ago (one ms apart), and the seeded one 5 s ago
    fx.trades.push({ id: '100', orderId: '1001', side: 'buy', price: '94000', qty: size, time: NOW - 9 * DAY, fee: '0.01', feeAsset: 'USDT' });
    const page = fx.rules.tradeHistory.maxLimit;
    for (let i = 0; i < page + 3; i++) {
      fx.trades.push({ id: String(200 + i), orderId: '1001', side: 'buy', price: '94000', qty: size, time: NOW - 2 * DAY + i, fee: '0.01', feeAsset: 'USDT' });
    }
    const fills = await port.recentFills('BTCUSDT', NOW - 10 * DAY);
    expect(fills).toHaveLength(1 + page + 3 + 1);
    expect(new Set(fills.map((f) => f.fillId)).size).toBe(fills.length);
    expect(fills[0].timestamp).toBe(NOW - 9 * DAY);
    expect(fills.at(-1)!.timestamp).toBe(NOW - 5000);
    // every request stayed inside the venue's window, from the run start (never 0)
    const path = id === 'binance' ? '/api/v3/myTrades' : id === 'binanceusdm' ? '/fapi/v1/userTrades' : '/api/v1/fills';
    const calls = stub.calls('GET', path).map((r) => new URLSearchParams(r.rawQuery));
    const [startKey, endKey] = id.startsWith('kucoin') ? ['startAt', 'endAt'] : ['startTime', 'endTime'];
    for (const q of calls) {
      expect(Number(q.get(startKey))).toBeGreaterThanOrEqual(NOW - 10 * DAY);
      expect(Number(q.get(endKey)) - Number(q.get(startKey))).toBeLessThanOrEqual(fx.rules.tradeHistory.maxWindowMs);
    }
    // and recovery from 0 is refused by the adapter itself
    await expect(port.recentFills('BTCUSDT', 0)).rejects.toBeInstanceOf(InvalidOrderError);
  });

  it('finding 1: the stand-in refuses a window longer than the venue allows, in the venue\'s words', async () => {
    const path = id === 'binance' ? '/api/v3/myTrades' : id === 'binanceusdm' ? '/fapi/v1/userTrades' : '/api/v1/fills';
    const [startKey, endKey] = id.startsWith('kucoin') ? ['startAt', 'endAt'] : ['startTime', 'endTime'];
    const q = `symbol=X&${startKey}=0&${endKey}=${fx.rules.tradeHistory.maxWindowMs + 1}`;
    const answer = fx.routes[`GET ${path}`]({ method: 'GET', path, rawQuery: q, query: new URLSearchParams(q), headers: {}, body: '' });
    expect(answer.body).toEqual({ code: fx.rules.answers.tradeWindowTooLong.code, msg: fx.rules.answers.tradeWindowTooLong.msg });
  });

  it('fees in the base coin or in BNB/KCS come with their asset and are converted to quote', async () => {
    if (market !== 'spot') return;
    fx.trades.length = 0;
    fx.trades.push({ id: '300', orderId: '1001', side: 'buy', price: '94000', qty: '0.001', time: NOW - 1000, fee: '0.000001', feeAsset: 'BTC' });
    const [fill] = await port.recentFills('BTCUSDT', NOW - 60_000);
    expect(fill).toMatchObject({ feeAsset: 'BTC', feeCost: 0.000001 });
    expect(fill.fee).toBeCloseTo(0.094, 10);
  });

  if (market === 'futures') {
    it('finding 7: in hedge mode orders carry positionSide (and Binance gets no reduceOnly); without it the venue refuses', async () => {
      fx.state.hedge = true;
      expect(await port.positionMode()).toBe('hedge');
      if (id === 'kucoinfutures') await port.setLeverage('BTCUSDT', 3);
      await expect(port.createLimitOrder({ symbol: 'BTCUSDT', side: 'buy', price: 93500, amount: 0.001, clientOrderId: 'h-0' })).rejects.toBeInstanceOf(
        InvalidOrderError,
      );
      const o = await port.createLimitOrder({ symbol: 'BTCUSDT', side: 'sell', price: 96000, amount: 0.001, clientOrderId: 'h-1', reduceOnly: true, positionSide: 'LONG' });
      expect(o).toMatchObject({ clientOrderId: 'h-1', status: 'open' });
      expect(fx.orders.get('h-1')!.positionSide).toBe('LONG');
      fx.state.hedge = false;
      expect(await port.positionMode()).toBe('oneway');
    });

    it('sets leverage and reports it per symbol', async () => {
      await port.setLeverage('BTCUSDT', 10);
      expect(await port.positionRisk()).toEqual([{ symbol: 'BTCUSDT', leverage: 10 }]);
      if (id === 'kucoinfutures') {
        await port.createLimitOrder({ symbol: 'BTCUSDT', side: 'buy', price: 93500, amount: 0.001, clientOrderId: 'lev-1' });
        const [method, path] = fx.paths.create;
        expect(JSON.parse(stub.calls(method, path)[0].body).leverage).toBe(10);
      }
    });

    if (id === 'kucoinfutures') {
      it('finding 6: after the adapter is recreated, orders carry the set leverage and margin mode; isolated never goes to the cross endpoint', async () => {
        await port.setLeverage('BTCUSDT', 7, 'isolated');
        const again = new CcxtExchange({ exchange, market, mode: 'live', credential: STUB_KEY, apiOrigin: stub.origin, timeoutMs: 400, clock: () => NOW });
        await again.setLeverage('BTCUSDT', 7, 'isolated'); // the runner sets it on every resume
        await again.createLimitOrder({ symbol: 'BTCUSDT', side: 'buy', price: 93500, amount: 0.001, clientOrderId: 'lev-2' });
        expect(fx.orders.get('lev-2')).toMatchObject({ leverage: 7, marginMode: 'ISOLATED' });
        expect(stub.calls('POST', '/api/v2/changeCrossUserLeverage')).toHaveLength(0);
        expect(stub.calls('POST', '/api/v2/position/changeMarginMode').map((r) => JSON.parse(r.body).marginMode)).toEqual(['ISOLATED', 'ISOLATED']);
        // a recreated adapter that was not told takes the position's settings (10×, isolated), never a silent 1×
        const fresh = new CcxtExchange({ exchange, market, mode: 'live', credential: STUB_KEY, apiOrigin: stub.origin, timeoutMs: 400, clock: () => NOW });
        await fresh.createLimitOrder({ symbol: 'BTCUSDT', side: 'buy', price: 93500, amount: 0.001, clientOrderId: 'lev-3' });
        expect(fx.orders.get('lev-3')).toMatchObject({ leverage: 10, marginMode: 'ISOLATED' });
      });
    }

    it('reports positions in base units with leverage and margin mode', async () => {
      if (id !== 'kucoinfutures') return; // the Binance stand-in serves no positions (yet)
      expect(await port.positions('BTCUSDT')).toEqual([{ symbol: 'BTCUSDT', amount: 0.001, entryPrice: 94000, leverage: 10, marginMode: 'isolated' }]);
    });

    it('sends reduce-only orders', async () => {
      await port.createLimitOrder({ symbol: 'BTCUSDT', side: 'sell', price: 96000, amount: 0.001, clientOrderId: 'tp-1', reduceOnly: true });
      const [method, path] = fx.paths.create;
      const req = stub.calls(method, path)[0];
      expect(id === 'kucoinfutures' ? JSON.parse(req.body).reduceOnly : new URLSearchParams(req.body || req.rawQuery).get('reduceOnly')).toBe(
        id === 'kucoinfutures' ? true : 'true',
      );
    });
  } else {
    it('has no leverage on spot', async () => {
      expect(await port.positionRisk()).toEqual([]);
    });
  }
});

describe('ccxt provider', () => {
  const stubs: ExchangeStub[] = [];
  afterAll(() => Promise.all(stubs.map((s) => s.close())));
  it('refuses without a credential and reuses one instance per user, exchange and market', async () => {
    const fx = exchangeFixture('binance');
    const stub = await ExchangeStub.start(fx.routes);
    stubs.push(stub);
    const creds = new Map([['u1', STUB_KEY]]);
    const provider = new CcxtExchangeProvider({ mode: 'live', apiOrigin: stub.origin, resolveCredential: async (u) => creds.get(u) ?? null, pricePollMs: 20 });
    await expect(provider.for({ userId: 'nobody', exchange: 'Binance', market: 'spot' })).rejects.toBeInstanceOf(MissingCredentialError);
    const a = await provider.for({ userId: 'u1', exchange: 'Binance', market: 'spot' });
    const b = await provider.for({ userId: 'u1', exchange: 'Binance', market: 'spot' });
    expect(a).toBe(b);
    expect(stub.calls('GET', '/api/v3/exchangeInfo')).toHaveLength(1); // markets shared from the public instance
    expect((await a.balances()).find((x) => x.symbol === 'USDT')!.available).toBe(1234.5);
    // secrets are not reachable through serialisation
    expect(JSON.stringify(a)).not.toContain(STUB_KEY.secret);

    // one poller per symbol for many listeners
    const seen: number[] = [];
    const off1 = provider.prices.subscribe({ exchange: 'Binance', market: 'spot', symbol: 'BTCUSDT' }, (t) => seen.push(t.price));
    const off2 = provider.prices.subscribe({ exchange: 'Binance', market: 'spot', symbol: 'BTCUSDT' }, (t) => seen.push(t.price));
    expect(provider.prices.activeCount()).toBe(1);
    for (let i = 0; i < 100 && seen.length < 4; i++) await new Promise((r) => setTimeout(r, 30));
    off1();
    off2();
    expect(provider.prices.activeCount()).toBe(0);
    expect(seen.length).toBeGreaterThanOrEqual(4); // two listeners × at least two polls
    expect(stub.calls('GET', '/api/v3/ticker/24hr').length).toBe(seen.length / 2);
    expect(seen.every((p) => p === 95012.34)).toBe(true);
    await provider.close();
  });

  it.each(['Binance', 'Kucoin'] as const)('asks %s what a key may do, signed with that key, on the spot host (issue 30)', async (exchange) => {
    const fx = exchangeFixture(exchange === 'Binance' ? 'binance' : 'kucoin');
    const stub = await ExchangeStub.start(fx.routes);
    stubs.push(stub);
    const provider = new CcxtExchangeProvider({ mode: 'live', apiOrigin: stub.origin, resolveCredential: async () => null, enableRateLimit: false });
    expect(await provider.keyPermissions(exchange, STUB_KEY)).toEqual({ withdraw: false, read: true, spot: true, futures: true, ipRestricted: true });
    fx.keyPermissions = { withdraw: true, read: true, spot: true, futures: false, ipRestricted: false };
    expect(await provider.keyPermissions(exchange, STUB_KEY)).toEqual(fx.keyPermissions);
    const path = exchange === 'Binance' ? '/sapi/v1/account/apiRestrictions' : '/api/v1/user/api-key';
    const asked = stub.calls('GET', path);
    expect(asked).toHaveLength(2);
    for (const r of asked) expect(verifySignature(exchange === 'Binance' ? 'binance' : 'kucoin', r)).toBe(true);
    // a key the venue does not know is the venue's bad-key answer: BadApiKeyError, never a permission guess
    stub.once('GET', path, fx.errors.badKey);
    await expect(provider.keyPermissions(exchange, STUB_KEY)).rejects.toBeInstanceOf(BadApiKeyError);
    await provider.close();
  });

  it('testnet keys cannot be asked (no /sapi on Binance\'s testnet, no Kucoin testnet): trading-only, IP n/a, no call made', async () => {
    const provider = new CcxtExchangeProvider({ mode: 'testnet', apiOrigin: 'http://127.0.0.1:9', resolveCredential: async () => null });
    expect(await provider.keyPermissions('Binance', STUB_KEY)).toEqual({ withdraw: false, read: true, spot: true, futures: true, ipRestricted: null });
    await provider.close();
  });

  it('testnet is ccxt sandbox mode; Kucoin has none', () => {
    expect(() => new CcxtExchange({ exchange: 'Kucoin', market: 'spot', mode: 'testnet' })).toThrow(ExchangeNotSupportedError);
    expect(() => new CcxtExchange({ exchange: 'Binance', market: 'futures', mode: 'testnet' })).not.toThrow();
  });

  it('maps binance -2015 on a key that worked before (ccxt: DDoSProtection) to KeyRefusedError: a refused key, retried like a ban (issue 29)', async () => {
    const { ccxt } = await import('./ccxt-module');
    const body = '{"code":-2015,"msg":"Invalid API-key, IP, or permissions for action."}';
    const refused = mapCcxtError(new ccxt.DDoSProtection(`binance ${body}`));
    expect(refused).toBeInstanceOf(KeyRefusedError);
    expect(refused).toBeInstanceOf(BadApiKeyError);
    expect(refused.retryable).toBe(true);
    expect(refused.message).not.toContain('API-key');
    // a real ban (HTTP 418/429) stays a rate limit
    expect(mapCcxtError(new ccxt.DDoSProtection('binance 429 Too Many Requests {"code":-1003,"msg":"Too many requests."}'))).toBeInstanceOf(RateLimitedError);
  });

  it('maps unknown failures to ExchangeDownError without copying their text', () => {
    const e = mapCcxtError(new Error('secret sauce'));
    expect(e).toBeInstanceOf(ExchangeDownError);
    expect(e.message).not.toContain('secret');
  });
});
