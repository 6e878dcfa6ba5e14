// Over 400 lines: canned answers of four venue APIs in their documented shapes.
/**
 * Test helper: small, realistic stand-ins for the REST APIs of binance, binanceusdm, kucoin and
 * kucoinfutures (response shapes as the exchanges document them), with a tiny order state so that
 * create → lookup → cancel → open orders are coherent, and signature checks on private calls.
 */
import { createHmac } from 'node:crypto';
import type { StubHandler, StubRequest, StubResponse } from './exchange-stub.server';
import type { KeyPermissions } from '../venues/key-permissions';
import { BINANCE_SPOT, BINANCE_USDM, KUCOIN_FUTURES, KUCOIN_SPOT, validClientOrderId, type VenueAnswer, type VenueRules } from '../venues/venue-rules';

export type CcxtId = 'binance' | 'binanceusdm' | 'kucoin' | 'kucoinfutures';

export const STUB_KEY = { apiKey: 'stub-api-key-12345', secret: 'stub-secret-abcdefghijkl', passphrase: 'stub-pass' };

export const NOW = 1_732_000_000_000;

interface FakeOrder {
  id: string;
  clientOrderId: string;
  side: 'buy' | 'sell';
  price: string;
  /** Base units (binance, kucoin spot) or contracts (kucoinfutures). */
  qty: string;
  filled: string;
  status: 'open' | 'filled' | 'cancelled';
  reduceOnly: boolean;
  positionSide?: string;
  /** Kucoin futures: what the order carried. */
  leverage?: number;
  marginMode?: string;
}

/** One of the account's trades, as the venue stores it. */
export interface FakeTrade {
  id: string;
  orderId: string;
  side: 'buy' | 'sell';
  price: string;
  /** Base units (contracts on kucoinfutures). */
  qty: string;
  time: number;
  fee: string;
  feeAsset: string;
  realizedPnl?: string;
}

/** The stand-in's account settings the venue rules depend on. */
export interface VenueState {
  /** Futures position mode: hedge needs positionSide on every order. */
  hedge: boolean;
  /** The venue's clock (ms). */
  now: number;
}

/** A venue error answer in the venue's own body format. */
export function venueError(rules: VenueRules, a: VenueAnswer): StubResponse {
  return { status: a.status, body: { code: a.code, msg: a.msg } };
}

/** Which trades a request for [startTime, endTime] sees, as the venue documents it (docs/exchanges.md). */
function tradeWindow(
  rules: VenueRules,
  state: VenueState,
  start: number | undefined,
  end: number | undefined,
): { from: number; to: number; newest: boolean } | 'too-long' {
  const span = rules.tradeHistory.maxWindowMs;
  if (start !== undefined && end !== undefined) return end - start > span ? 'too-long' : { from: start, to: end, newest: false };
  const { startOnlyMs, noRange } = rules.tradeHistory;
  if (start !== undefined) return { from: start, to: start + startOnlyMs, newest: false };
  if (end !== undefined) return { from: end - startOnlyMs, to: end, newest: false };
  if (noRange === 'newest') return { from: -Infinity, to: Infinity, newest: true };
  return { from: state.now - noRange, to: state.now, newest: false };
}

/** Did the request carry a valid signature made with STUB_KEY? */
export function verifySignature(id: CcxtId, req: StubRequest): boolean {
  if (id.startsWith('binance')) {
    if (req.headers['x-mbx-apikey'] !== STUB_KEY.apiKey) return false;
    const payload = req.rawQuery.includes('signature=') ? req.rawQuery : req.body;
    const m = /^(.*)&signature=([0-9a-f]{64})$/.exec(payload);
    if (!m || !/timestamp=\d+/.test(m[1])) return false;
    return createHmac('sha256', STUB_KEY.secret).update(m[1]).digest('hex') === m[2];
  }
  const ts = String(req.headers['kc-api-timestamp'] ?? '');
  if (req.headers['kc-api-key'] !== STUB_KEY.apiKey || !/^\d+$/.test(ts)) return false;
  const endpoint = req.path + (req.rawQuery ? `?${req.rawQuery}` : '');
  const sign = createHmac('sha256', STUB_KEY.secret).update(ts + req.method + endpoint + req.body).digest('base64');
  const pass = createHmac('sha256', STUB_KEY.secret).update(STUB_KEY.passphrase).digest('base64');
  return req.headers['kc-api-sign'] === sign && req.headers['kc-api-passphrase'] === pass;
}

export interface ExchangeFixture {
  routes: Record<string, StubHandler>;
  /** What the venue reports the key may do (issue 30); change it to play another key. */
  keyPermissions: KeyPermissions;
  orders: Map<string, FakeOrder>;
  trades: FakeTrade[];
  state: VenueState;
  rules: VenueRules;
  /** Path (and method) of the calls the tests look at. */
  paths: { create: [string, string]; cancel: [string, string]; balance: [string, string]; lookup: [string, string] };
  /** Canned error answers in the exchange's own format. */
  errors: { badKey: StubResponse; insufficient: StubResponse; rateLimited: StubResponse; down: StubResponse; notFound: StubResponse };
  /** The client order id found in a create request. */
  clientIdOfCreate(req: StubRequest): string | undefined;
  /** Amount field of a create request, as sent (base units or contracts). */
  amountOfCreate(req: StubRequest): string | undefined;
}

/** What the stub key may do on every venue (the key-permissions route answers it); each fixture gets its own copy. */
const STUB_KEY_PERMISSIONS: ExchangeFixture['keyPermissions'] = { withdraw: false, read: true, spot: true, futures: true, ipRestricted: true };
const ok = (body: unknown): StubResponse => ({ status: 200, body });
const params = (req: StubRequest) => new URLSearchParams(req.method === 'GET' || req.method === 'DELETE' ? req.rawQuery : req.body || req.rawQuery);

function seedOrders(): Map<string, FakeOrder> {
  const m = new Map<string, FakeOrder>();
  m.set('grid7-c0-l0-buy', { id: '1001', clientOrderId: 'grid7-c0-l0-buy', side: 'buy', price: '94000', qty: '0.001', filled: '0.001', status: 'filled', reduceOnly: false });
  m.set('grid7-c0-l1-buy', { id: '1002', clientOrderId: 'grid7-c0-l1-buy', side: 'buy', price: '93000', qty: '0.001', filled: '0', status: 'open', reduceOnly: false });
  return m;
}

let nextId = 5000;

function seedTrades(contracts: boolean, futures: boolean): FakeTrade[] {
  return [
    {
      id: '698759', orderId: '1001', side: 'buy', price: '94000', qty: contracts ? '1' : '0.001', time: NOW - 5000,
      fee: futures ? '0.0188' : '0.094', feeAsset: 'USDT', realizedPnl: '0',
    },
  ];
}

/** What each venue's fixture starts from: the seeded orders and trades, the state tests change, the venue's error answer. */
function fixtureStart(rules: VenueRules, trades: FakeTrade[]) {
  const state: VenueState = { hedge: false, now: NOW };
  return { orders: seedOrders(), rules, trades, state, err: (a: VenueAnswer) => venueError(rules, a) };
}

// --------------------------------------------------------------------------------------------------
// Binance (spot and USDT-M futures)

function binanceFixture(futures: boolean): ExchangeFixture {
  const { orders, rules, trades, state, err } = fixtureStart(futures ? BINANCE_USDM : BINANCE_SPOT, seedTrades(false, futures));
  const base = futures ? '/fapi/v1' : '/api/v3';
  const binStatus = { open: 'NEW', filled: 'FILLED', cancelled: 'CANCELED' } as const;
  const toBinance = (o: FakeOrder) => {
    const executed = o.filled;
    const quote = (Number(o.price) * Number(executed)).toFixed(futures ? 5 : 8);
    return futures
      ? {
          orderId: Number(o.id), symbol: 'BTCUSDT', status: binStatus[o.status], clientOrderId: o.clientOrderId, price: o.price,
          avgPrice: Number(executed) > 0 ? o.price : '0', origQty: o.qty, executedQty: executed, cumQuote: quote, timeInForce: 'GTC',
          type: 'LIMIT', reduceOnly: o.reduceOnly, closePosition: false, side: o.side.toUpperCase(), positionSide: o.positionSide ?? 'BOTH', stopPrice: '0',
          workingType: 'CONTRACT_PRICE', priceProtect: false, origType: 'LIMIT', priceMatch: 'NONE', selfTradePreventionMode: 'EXPIRE_MAKER',
          goodTillDate: 0, time: NOW, updateTime: NOW + 1000,
        }
      : {
          symbol: 'BTCUSDT', orderId: Number(o.id), orderListId: -1, clientOrderId: o.clientOrderId, price: o.price, origQty: o.qty,
          executedQty: executed, cummulativeQuoteQty: quote, status: binStatus[o.status], timeInForce: 'GTC', type: 'LIMIT',
          side: o.side.toUpperCase(), stopPrice: '0.00000000', icebergQty: '0.00000000', time: NOW, updateTime: NOW + 1000, isWorking: true,
          workingTime: NOW, origQuoteOrderQty: '0.00000000', selfTradePreventionMode: 'EXPIRE_MAKER',
        };
  };
  const notFound: StubResponse = { status: 400, body: { code: -2013, msg: 'Order does not exist.' } };
  const byRequest = (req: StubRequest) => {
    const p = params(req);
    const cid = p.get('origClientOrderId');
    if (cid) return orders.get(cid);
    const id = p.get('orderId');
    return [...orders.values()].find((o) => o.id === id);
  };
  const filters = futures
    ? [
        { filterType: 'PRICE_FILTER', minPrice: '556.80', maxPrice: '4529764', tickSize: '0.10' },
        { filterType: 'LOT_SIZE', minQty: '0.001', maxQty: '1000', stepSize: '0.001' },
        { filterType: 'MARKET_LOT_SIZE', minQty: '0.001', maxQty: '120', stepSize: '0.001' },
        { filterType: 'MAX_NUM_ORDERS', limit: 200 },
        { filterType: 'MAX_NUM_ALGO_ORDERS', limit: 10 },
        { filterType: 'MIN_NOTIONAL', notional: '100' },
        { filterType: 'PERCENT_PRICE', multiplierUp: '1.0500', multiplierDown: '0.9500', multiplierDecimal: '4' },
      ]
    : [
        { filterType: 'PRICE_FILTER', minPrice: '0.01000000', maxPrice: '1000000.00000000', tickSize: '0.01000000' },
        { filterType: 'LOT_SIZE', minQty: '0.00001000', maxQty: '9000.00000000', stepSize: '0.00001000' },
        { filterType: 'ICEBERG_PARTS', limit: 10 },
        { filterType: 'MARKET_LOT_SIZE', minQty: '0.00000000', maxQty: '107.41681197', stepSize: '0.00000000' },
        { filterType: 'TRAILING_DELTA', minTrailingAboveDelta: 10, maxTrailingAboveDelta: 2000, minTrailingBelowDelta: 10, maxTrailingBelowDelta: 2000 },
        { filterType: 'PERCENT_PRICE_BY_SIDE', bidMultiplierUp: '5', bidMultiplierDown: '0.2', askMultiplierUp: '5', askMultiplierDown: '0.2', avgPriceMins: 5 },
        { filterType: 'NOTIONAL', minNotional: '5.00000000', applyMinToMarket: true, maxNotional: '9000000.00000000', applyMaxToMarket: false, avgPriceMins: 5 },
        { filterType: 'MAX_NUM_ORDERS', maxNumOrders: 200 },
        { filterType: 'MAX_NUM_ALGO_ORDERS', maxNumAlgoOrders: 5 },
      ];
  const symbolInfo = futures
    ? {
        symbol: 'BTCUSDT', pair: 'BTCUSDT', contractType: 'PERPETUAL', deliveryDate: 4133404800000, onboardDate: 1569398400000, status: 'TRADING',
        maintMarginPercent: '2.5000', requiredMarginPercent: '5.0000', baseAsset: 'BTC', quoteAsset: 'USDT', marginAsset: 'USDT',
        pricePrecision: 2, quantityPrecision: 3, baseAssetPrecision: 8, quotePrecision: 8, underlyingType: 'COIN', underlyingSubType: ['PoW'],
        triggerProtect: '0.0500', liquidationFee: '0.012500', marketTakeBound: '0.05', maxMoveOrderLimit: 10000, filters,
        orderTypes: ['LIMIT', 'MARKET', 'STOP', 'STOP_MARKET', 'TAKE_PROFIT', 'TAKE_PROFIT_MARKET', 'TRAILING_STOP_MARKET'],
        timeInForce: ['GTC', 'IOC', 'FOK', 'GTX', 'GTD'], permissionSets: ['GRID', 'COPY'],
      }
    : {
        symbol: 'BTCUSDT', status: 'TRADING', baseAsset: 'BTC', baseAssetPrecision: 8, quoteAsset: 'USDT', quotePrecision: 8, quoteAssetPrecision: 8,
        baseCommissionPrecision: 8, quoteCommissionPrecision: 8,
        orderTypes: ['LIMIT', 'LIMIT_MAKER', 'MARKET', 'STOP_LOSS', 'STOP_LOSS_LIMIT', 'TAKE_PROFIT', 'TAKE_PROFIT_LIMIT'],
        icebergAllowed: true, ocoAllowed: true, otoAllowed: true, quoteOrderQtyMarketAllowed: true, allowTrailingStop: true, cancelReplaceAllowed: true,
        isSpotTradingAllowed: true, isMarginTradingAllowed: true, filters, permissions: [], permissionSets: [['SPOT', 'MARGIN']],
        defaultSelfTradePreventionMode: 'EXPIRE_MAKER', allowedSelfTradePreventionModes: ['EXPIRE_TAKER', 'EXPIRE_MAKER', 'EXPIRE_BOTH'],
      };
  const routes: Record<string, StubHandler> = {
    [`GET ${base}/exchangeInfo`]: () =>
      ok({ timezone: 'UTC', serverTime: NOW, ...(futures ? { futuresType: 'U_MARGINED', assets: [] } : {}), rateLimits: [], exchangeFilters: [], symbols: [symbolInfo] }),
    [`GET ${base}/ticker/24hr`]: () =>
      ok({
        symbol: 'BTCUSDT', priceChange: '-94.99', priceChangePercent: '-0.100', weightedAvgPrice: '95010.20', lastPrice: '95012.34', lastQty: '0.002',
        ...(futures ? {} : { prevClosePrice: '95107.33', bidPrice: '95012.33', bidQty: '1.51', askPrice: '95012.34', askQty: '0.52' }),
        openPrice: '95107.33', highPrice: '96000.00', lowPrice: '94000.00', volume: '12345.678', quoteVolume: '1172850000.12',
        openTime: NOW - 86_400_000, closeTime: NOW, firstId: 1, lastId: 2, count: 2,
      }),
    [`POST ${base}/order`]: (req) => {
      const p = params(req);
      const cid = p.get('newClientOrderId')!;
      if (!validClientOrderId(rules, cid)) return err(rules.answers.badClientOrderId);
      if ([...orders.values()].some((o) => o.clientOrderId === cid && o.status === 'open')) return err(rules.answers.duplicateClientOrderId);
      const positionSide = p.get('positionSide') ?? undefined;
      if (futures) {
        // hedge mode: LONG or SHORT on every order and no reduceOnly; one-way: BOTH or nothing
        if (state.hedge ? positionSide !== 'LONG' && positionSide !== 'SHORT' : positionSide !== undefined && positionSide !== 'BOTH') {
          return err(rules.answers.positionSideMismatch!);
        }
        if (state.hedge && p.has('reduceOnly')) return err(rules.answers.reduceOnlyInHedgeMode!);
      }
      const o: FakeOrder = { id: String(nextId++), clientOrderId: cid, side: p.get('side')!.toLowerCase() as 'buy', price: p.get('price') ?? '0', qty: p.get('quantity')!, filled: '0', status: 'open', reduceOnly: p.get('reduceOnly') === 'true', positionSide };
      orders.set(cid, o);
      return ok({ ...toBinance(o), transactTime: NOW, ...(futures ? {} : { fills: [] }) });
    },
    [`DELETE ${base}/order`]: (req) => {
      const o = byRequest(req);
      if (!o || o.status !== 'open') return err(rules.answers.cancelUnknownOrder);
      o.status = 'cancelled';
      return ok({ ...toBinance(o), origClientOrderId: o.clientOrderId, clientOrderId: 'x-cancel-1', transactTime: NOW });
    },
    [`GET ${base}/order`]: (req) => {
      const o = byRequest(req);
      return o ? ok(toBinance(o)) : notFound;
    },
    [`GET ${base}/openOrders`]: () => ok([...orders.values()].filter((o) => o.status === 'open').map(toBinance)),
    [`GET ${futures ? '/fapi/v1/userTrades' : '/api/v3/myTrades'}`]: (req) => {
      const p = params(req);
      const num = (k: string) => (p.has(k) ? Number(p.get(k)) : undefined);
      const limit = Math.min(num('limit') ?? rules.tradeHistory.defaultLimit, rules.tradeHistory.maxLimit);
      const w = tradeWindow(rules, state, num('startTime'), num('endTime'));
      if (w === 'too-long') return err(rules.answers.tradeWindowTooLong);
      const inWindow = trades.filter((t) => t.time >= w.from && t.time <= w.to).sort((a, b) => Number(a.id) - Number(b.id));
      const page = w.newest ? inWindow.slice(-limit) : inWindow.slice(0, limit);
      return ok(
        page.map((t) => {
          const quoteQty = String(Number(t.price) * Number(t.qty));
          return futures
            ? { buyer: t.side === 'buy', commission: t.fee, commissionAsset: t.feeAsset, id: Number(t.id), maker: true, orderId: Number(t.orderId), price: t.price, qty: t.qty, quoteQty, realizedPnl: t.realizedPnl ?? '0', side: t.side.toUpperCase(), positionSide: 'BOTH', symbol: 'BTCUSDT', time: t.time }
            : { symbol: 'BTCUSDT', id: Number(t.id), orderId: Number(t.orderId), orderListId: -1, price: t.price, qty: t.qty, quoteQty, commission: t.fee, commissionAsset: t.feeAsset, time: t.time, isBuyer: t.side === 'buy', isMaker: true, isBestMatch: true };
        }),
      );
    },
  };
  if (futures) {
    routes['GET /fapi/v3/account'] = () =>
      ok({
        totalInitialMargin: '9.40000000', totalMaintMargin: '0.37600000', totalWalletBalance: '1000.00000000', totalUnrealizedProfit: '1.01000000',
        totalMarginBalance: '1001.01000000', totalPositionInitialMargin: '9.40000000', totalOpenOrderInitialMargin: '0.00000000',
        totalCrossWalletBalance: '1000.00000000', totalCrossUnPnl: '1.01000000', availableBalance: '991.61000000', maxWithdrawAmount: '991.61000000',
        assets: [
          { asset: 'USDT', walletBalance: '1000.00000000', unrealizedProfit: '1.01000000', marginBalance: '1001.01000000', maintMargin: '0.37600000', initialMargin: '9.40000000', positionInitialMargin: '9.40000000', openOrderInitialMargin: '0.00000000', crossWalletBalance: '1000.00000000', crossUnPnl: '1.01000000', availableBalance: '991.61000000', maxWithdrawAmount: '991.61000000', updateTime: NOW },
          { asset: 'USDC', walletBalance: '0.00000000', unrealizedProfit: '0.00000000', marginBalance: '0.00000000', maintMargin: '0.00000000', initialMargin: '0.00000000', positionInitialMargin: '0.00000000', openOrderInitialMargin: '0.00000000', crossWalletBalance: '0.00000000', crossUnPnl: '0.00000000', availableBalance: '0.00000000', maxWithdrawAmount: '0.00000000', updateTime: 0 },
        ],
        positions: [],
      });
    routes['POST /fapi/v1/leverage'] = (req) => ok({ leverage: Number(params(req).get('leverage')), maxNotionalValue: '80000000', symbol: 'BTCUSDT' });
    routes['POST /fapi/v1/marginType'] = () => ok({ code: 200, msg: 'success' });
    routes['GET /fapi/v1/positionSide/dual'] = () => ok({ dualSidePosition: state.hedge });
    routes['GET /fapi/v1/leverageBracket'] = () =>
      ok([{ symbol: 'BTCUSDT', notionalCoef: 1.5, brackets: [{ bracket: 1, initialLeverage: 125, notionalCap: 300000, notionalFloor: 0, maintMarginRatio: 0.004, cum: 0 }] }]);
    routes['GET /fapi/v1/symbolConfig'] = () => ok([{ symbol: 'BTCUSDT', marginType: 'CROSSED', isAutoAddMargin: 'false', leverage: 10, maxNotionalValue: '80000000' }]);
  } else {
    routes['GET /api/v3/account'] = () =>
      ok({
        makerCommission: 10, takerCommission: 10, buyerCommission: 0, sellerCommission: 0,
        commissionRates: { maker: '0.00100000', taker: '0.00100000', buyer: '0.00000000', seller: '0.00000000' },
        canTrade: true, canWithdraw: true, canDeposit: true, brokered: false, requireSelfTradePrevention: false, preventSor: false, updateTime: NOW, accountType: 'SPOT',
        balances: [
          { asset: 'BTC', free: '0.01000000', locked: '0.00200000' },
          { asset: 'ETH', free: '0.00000000', locked: '0.00000000' },
          { asset: 'USDT', free: '1234.50000000', locked: '94.09400000' },
        ],
        permissions: ['SPOT'], uid: 354937868,
      });
  }
  return {
    routes, orders, trades, state, rules, keyPermissions: { ...STUB_KEY_PERMISSIONS },
    paths: { create: ['POST', `${base}/order`], cancel: ['DELETE', `${base}/order`], balance: ['GET', futures ? '/fapi/v3/account' : '/api/v3/account'], lookup: ['GET', `${base}/order`] },
    errors: {
      badKey: { status: 401, body: { code: -2015, msg: 'Invalid API-key, IP, or permissions for action.' } },
      insufficient: futures
        ? { status: 400, body: { code: -2019, msg: 'Margin is insufficient.' } }
        : { status: 400, body: { code: -2010, msg: 'Account has insufficient balance for requested action.' } },
      rateLimited: { status: 429, body: { code: -1003, msg: 'Too many requests; current limit of IP(127.0.0.1) is 6000 requests per minute.' } },
      down: { status: 503, text: '<html><body><h1>503 Service Temporarily Unavailable</h1></body></html>' },
      notFound,
    },
    clientIdOfCreate: (req) => params(req).get('newClientOrderId') ?? undefined,
    amountOfCreate: (req) => params(req).get('quantity') ?? undefined,
  };
}

// --------------------------------------------------------------------------------------------------
// Kucoin (spot and futures)

function kucoinFixture(futures: boolean): ExchangeFixture {
  const { orders, rules, trades, state, err } = fixtureStart(futures ? KUCOIN_FUTURES : KUCOIN_SPOT, seedTrades(futures, futures));
  /** GET fills: the venue's window rule and paging (currentPage, pageSize), newest first. */
  const fills = (req: StubRequest, item: (t: FakeTrade) => unknown): StubResponse => {
    const q = req.query;
    const num = (k: string) => (q.has(k) ? Number(q.get(k)) : undefined);
    const w = tradeWindow(rules, state, num('startAt'), num('endAt'));
    if (w === 'too-long') return err(rules.answers.tradeWindowTooLong);
    const size = Math.min(num('pageSize') ?? rules.tradeHistory.defaultLimit, rules.tradeHistory.maxLimit);
    const current = num('currentPage') ?? 1;
    const all = trades.filter((t) => t.time >= w.from && t.time <= w.to).sort((a, b) => b.time - a.time || Number(b.id) - Number(a.id));
    const items = all.slice((current - 1) * size, current * size).map(item);
    return env({ currentPage: current, pageSize: size, totalNum: all.length, totalPage: Math.ceil(all.length / size), items });
  };
  if (futures) for (const o of orders.values()) (o.qty = '1'), (o.filled = o.status === 'filled' ? '1' : '0');
  const env = (data: unknown) => ok({ code: '200000', data });
  const notFound: StubResponse = { status: 404, body: { code: '100001', msg: 'order_not_exist' } };
  const sym = futures ? 'XBTUSDTM' : 'BTC-USDT';
  const toKucoin = (o: FakeOrder) =>
    futures
      ? {
          id: o.id, symbol: sym, type: 'limit', side: o.side, price: o.price, size: Number(o.qty), value: String(Number(o.price) * Number(o.qty) * 0.001),
          dealValue: String(Number(o.price) * Number(o.filled) * 0.001), dealSize: Number(o.filled), stp: '', stop: '', stopPriceType: '', stopTriggered: false,
          stopPrice: null, timeInForce: 'GTC', postOnly: false, hidden: false, iceberg: false, leverage: '10', forceHold: false, closeOrder: false,
          visibleSize: 0, clientOid: o.clientOrderId, remark: null, tags: '', isActive: o.status === 'open', cancelExist: o.status === 'cancelled',
          createdAt: NOW, updatedAt: NOW + 1000, endAt: o.status === 'open' ? null : NOW + 1000, orderTime: NOW * 1_000_000, settleCurrency: 'USDT',
          marginMode: 'ISOLATED', avgDealPrice: Number(o.filled) > 0 ? o.price : '0', filledSize: Number(o.filled),
          filledValue: String(Number(o.price) * Number(o.filled) * 0.001), status: o.status === 'open' ? 'open' : 'done', reduceOnly: o.reduceOnly,
        }
      : {
          id: o.id, symbol: sym, opType: 'DEAL', type: 'limit', side: o.side, price: o.price, size: o.qty, funds: '0',
          dealFunds: String(Number(o.price) * Number(o.filled)), dealSize: o.filled, fee: String(Number(o.price) * Number(o.filled) * 0.001),
          feeCurrency: 'USDT', stp: '', stop: '', stopTriggered: false, stopPrice: '0', timeInForce: 'GTC', postOnly: false, hidden: false, iceberg: false,
          visibleSize: '0', cancelAfter: 0, channel: 'API', clientOid: o.clientOrderId, remark: null, tags: null, isActive: o.status === 'open',
          cancelExist: o.status === 'cancelled', createdAt: NOW, tradeType: 'TRADE',
        };
  const byClient = (cid: string) => orders.get(decodeURIComponent(cid));
  // the cancel and the two lookups both Kucoin APIs serve (their paths and the cancel's answer differ)
  const lastSegment = (req: StubRequest) => req.path.split('/').pop()!;
  const cancelByClient = (answer: (o: FakeOrder) => unknown): StubHandler => (req) => {
    const o = byClient(lastSegment(req));
    if (!o || o.status !== 'open') return notFound;
    o.status = 'cancelled';
    return env(answer(o));
  };
  const orderFound = (o: FakeOrder | undefined) => (o ? env(toKucoin(o)) : notFound);
  const orderById: StubHandler = (req) => orderFound([...orders.values()].find((x) => x.id === lastSegment(req)));
  const page = (items: unknown[]) => ({ currentPage: 1, pageSize: 50, totalNum: items.length, totalPage: 1, items });
  const routes: Record<string, StubHandler> = {
    'GET /api/v1/hf/accounts/opened': () => env(false),
    // classic (not unified) account: ccxt uses the classic endpoints
    'GET /api/ua/v1/account/mode': () => env({ selfAccountMode: 'CLASSIC' }),
    'POST /api/v1/orders': (req) => {
      const b = JSON.parse(req.body);
      if (!validClientOrderId(rules, b.clientOid)) return err(rules.answers.badClientOrderId);
      if ([...orders.values()].some((o) => o.clientOrderId === b.clientOid && o.status === 'open')) return err(rules.answers.duplicateClientOrderId);
      if (futures && state.hedge && b.positionSide !== 'LONG' && b.positionSide !== 'SHORT') return err(KUCOIN_POSITION_SIDE_REQUIRED);
      const o: FakeOrder = { id: futures ? String(234125150956625920n + BigInt(nextId++)) : `6720ab${nextId++}`, clientOrderId: b.clientOid, side: b.side, price: String(b.price ?? '0'), qty: String(b.size), filled: '0', status: 'open', reduceOnly: b.reduceOnly === true, leverage: b.leverage === undefined ? undefined : Number(b.leverage), marginMode: b.marginMode, positionSide: b.positionSide };
      orders.set(o.clientOrderId, o);
      return env(futures ? { orderId: o.id, clientOid: o.clientOrderId } : { orderId: o.id });
    },
    'GET /api/v1/orders': () => env(page([...orders.values()].filter((o) => o.status === 'open').map(toKucoin))),
  };
  if (futures) {
    routes['GET /api/v1/contracts/active'] = () =>
      env([
        {
          symbol: 'XBTUSDTM', rootSymbol: 'USDT', type: 'FFWCSX', firstOpenDate: 1585555200000, expireDate: null, settleDate: null, baseCurrency: 'XBT',
          quoteCurrency: 'USDT', settleCurrency: 'USDT', maxOrderQty: 1000000, maxPrice: 1000000.0, lotSize: 1, tickSize: 0.1, indexPriceTickSize: 0.01,
          multiplier: 0.001, initialMargin: 0.008, maintainMargin: 0.004, maxRiskLimit: 100000, minRiskLimit: 100000, riskStep: 50000,
          makerFeeRate: 0.0002, takerFeeRate: 0.0006, takerFixFee: 0.0, makerFixFee: 0.0, settlementFee: null, isDeleverage: true, isQuanto: true,
          isInverse: false, markMethod: 'FairPrice', fairMethod: 'FundingRate', fundingBaseSymbol: '.XBTINT8H', fundingQuoteSymbol: '.USDTINT8H',
          fundingRateSymbol: '.XBTUSDTMFPI8H', indexSymbol: '.KXBTUSDT', settlementSymbol: '', status: 'Open', fundingFeeRate: 0.0001,
          predictedFundingFeeRate: 0.0001, fundingRateGranularity: 28800000, openInterest: '8724443', turnoverOf24h: 1.2e9, volumeOf24h: 12600.5,
          markPrice: 95010.1, indexPrice: 95011.2, lastTradePrice: 95012.3, nextFundingRateTime: 21031525, maxLeverage: 125,
          sourceExchanges: ['okex', 'binance', 'kucoin', 'bybit', 'bitmart', 'gateio'], premiumsSymbol1M: '.XBTUSDTMPI', premiumsSymbol8H: '.XBTUSDTMPI8H',
          fundingBaseSymbol1M: '.XBTINT', fundingQuoteSymbol1M: '.USDTINT', lowPrice: 94000, highPrice: 96000, priceChgPct: -0.001, priceChg: -95,
          k: 490.0, m: 300.0, f: 1.3, mmrLimit: 0.3, mmrLevConstant: 125.0, supportCross: true,
        },
      ]);
    routes['GET /api/v1/account-overview'] = () =>
      env({ accountEquity: 1001.01, unrealisedPNL: 1.01, marginBalance: 1001.01, positionMargin: 9.4, orderMargin: 0, frozenFunds: 0, availableBalance: 991.61, currency: 'USDT', riskRatio: 0.0004, maxWithdrawAmount: 991.61 });
    routes['GET /api/v1/ticker'] = () =>
      env({ sequence: 1001, symbol: 'XBTUSDTM', side: 'buy', size: 5, tradeId: '1789', price: '95012.3', bestBidPrice: '95012.2', bestBidSize: 10, bestAskPrice: '95012.4', bestAskSize: 5, ts: NOW * 1_000_000 });
    routes['POST /api/v2/changeCrossUserLeverage'] = () => env(true);
    routes['POST /api/v2/position/changeMarginMode'] = (req) => env({ symbol: JSON.parse(req.body || '{}').symbol ?? 'XBTUSDTM', marginMode: JSON.parse(req.body || '{}').marginMode ?? 'ISOLATED' });
    routes['GET /api/v2/position/getPositionMode'] = () => env({ positionMode: state.hedge ? 1 : 0 });
    routes['GET /api/v1/positions'] = () =>
      env([
        {
          id: '500000000000988255', symbol: 'XBTUSDTM', autoDeposit: false, crossMode: false, marginMode: 'ISOLATED', positionSide: 'BOTH', maintMarginReq: 0.004,
          riskLimit: 100000, realLeverage: 10.1, leverage: 10, delevPercentage: 0.1, openingTimestamp: NOW - 60000, currentTimestamp: NOW, currentQty: 1,
          currentCost: 94, currentComm: 0.0188, unrealisedCost: 94, realisedGrossCost: 0, realisedCost: 0.0188, isOpen: true, markPrice: 95010.1, markValue: 95.0101,
          posCost: 94, posCross: 0, posInit: 9.4, posComm: 0.05, posLoss: 0, posMargin: 9.45, posMaint: 0.43, maintMargin: 9.45, realisedGrossPnl: 0,
          realisedPnl: -0.0188, unrealisedPnl: 1.0101, unrealisedPnlPcnt: 0.0107, unrealisedRoePcnt: 0.1074, avgEntryPrice: 94000, liquidationPrice: 85000,
          bankruptPrice: 84600, settleCurrency: 'USDT', isInverse: false, maintainMargin: 0.004,
        },
      ]);
    routes['DELETE /api/v1/orders/client-order/*'] = cancelByClient((o) => ({ clientOid: o.clientOrderId }));
    routes['GET /api/v1/orders/byClientOid'] = (req) => orderFound(orders.get(req.query.get('clientOid')!));
    routes['GET /api/v1/orders/*'] = orderById;
    routes['GET /api/v1/fills'] = (req) =>
      fills(req, (t) => ({
        symbol: 'XBTUSDTM', tradeId: t.id, orderId: t.orderId, side: t.side, liquidity: 'maker', forceTaker: false, price: t.price, size: Number(t.qty),
        value: String(Number(t.price) * Number(t.qty) * 0.001), openFeePay: t.fee, closeFeePay: '0', stop: '', feeRate: '0.0002', fixFee: '0', feeCurrency: t.feeAsset,
        tradeTime: t.time * 1_000_000, subTradeType: null, marginMode: 'ISOLATED', settleCurrency: 'USDT', displayType: 'limit', fee: t.fee,
        orderType: 'limit', tradeType: 'trade', createdAt: t.time,
      }));
  } else {
    routes['GET /api/v2/symbols'] = () =>
      env([
        {
          symbol: 'BTC-USDT', name: 'BTC-USDT', baseCurrency: 'BTC', quoteCurrency: 'USDT', feeCurrency: 'USDT', market: 'USDS', baseMinSize: '0.00001',
          quoteMinSize: '0.1', baseMaxSize: '10000000000', quoteMaxSize: '99999999', baseIncrement: '0.00000001', quoteIncrement: '0.000001',
          priceIncrement: '0.1', priceLimitRate: '0.1', minFunds: '0.1', isMarginEnabled: true, enableTrading: true, feeCategory: 1,
          makerFeeCoefficient: '1.00', takerFeeCoefficient: '1.00', st: false, callauctionIsEnabled: false, callauctionPriceFloor: null,
          callauctionPriceCeiling: null, callauctionFirstStageStartTime: null, callauctionSecondStageStartTime: null, callauctionThirdStageStartTime: null,
          tradingStartTime: null,
        },
      ]);
    routes['GET /api/v1/accounts'] = () =>
      env([
        { id: '5bd6e9216d99522a52e458d6', currency: 'BTC', type: 'trade', balance: '0.012', available: '0.01', holds: '0.002' },
        { id: '5bd6e9286d99522a52e458de', currency: 'USDT', type: 'trade', balance: '1328.594', available: '1234.5', holds: '94.094' },
        { id: '5bd6e9286d99522a52e458df', currency: 'KCS', type: 'trade', balance: '0', available: '0', holds: '0' },
      ]);
    routes['GET /api/v1/market/stats'] = () =>
      env({ time: NOW, symbol: 'BTC-USDT', buy: '95012.3', sell: '95012.4', changeRate: '-0.001', changePrice: '-95', high: '96000', low: '94000', vol: '1234.5', volValue: '117000000', last: '95012.3', averagePrice: '95000', takerFeeRate: '0.001', makerFeeRate: '0.001', takerCoefficient: '1', makerCoefficient: '1' });
    routes['DELETE /api/v1/order/client-order/*'] = cancelByClient((o) => ({ cancelledOrderId: o.id, clientOid: o.clientOrderId, cancelledOcoOrderIds: null }));
    routes['GET /api/v1/order/client-order/*'] = (req) => orderFound(byClient(lastSegment(req)));
    routes['GET /api/v1/orders/*'] = orderById;
    routes['GET /api/v1/fills'] = (req) =>
      fills(req, (t) => ({
        symbol: 'BTC-USDT', tradeId: t.id, orderId: t.orderId, counterOrderId: '5c1ab46003aa676e487fa8e3', side: t.side, liquidity: 'maker',
        forceTaker: false, price: t.price, size: t.qty, funds: String(Number(t.price) * Number(t.qty)), fee: t.fee, feeRate: '0.001', feeCurrency: t.feeAsset, stop: '', type: 'limit',
        createdAt: t.time, tradeType: 'TRADE',
      }));
  }
  return {
    routes, orders, trades, state, rules, keyPermissions: { ...STUB_KEY_PERMISSIONS },
    paths: futures
      ? { create: ['POST', '/api/v1/orders'], cancel: ['DELETE', '/api/v1/orders/client-order/*'], balance: ['GET', '/api/v1/account-overview'], lookup: ['GET', '/api/v1/orders/byClientOid'] }
      : { create: ['POST', '/api/v1/orders'], cancel: ['DELETE', '/api/v1/order/client-order/*'], balance: ['GET', '/api/v1/accounts'], lookup: ['GET', '/api/v1/order/client-order/*'] },
    errors: {
      badKey: { status: 401, body: { code: '400003', msg: 'KC-API-KEY not exists' } },
      insufficient: { status: 200, body: { code: '200004', msg: 'Balance insufficient!' } },
      rateLimited: { status: 429, body: { code: '429000', msg: 'Too many requests in a short period of time, please retry later.' } },
      down: { status: 503, text: '<html><body>503 Service Unavailable</body></html>' },
      notFound,
    },
    clientIdOfCreate: (req) => (req.body ? JSON.parse(req.body).clientOid : undefined),
    amountOfCreate: (req) => (req.body ? String(JSON.parse(req.body).size) : undefined),
  };
}

/** Kucoin futures in hedge mode: an order without positionSide (docs/exchanges.md). */
const KUCOIN_POSITION_SIDE_REQUIRED: VenueAnswer = { status: 200, code: '400100', msg: 'Parameter Error: positionSide' };

function venueFixture(id: CcxtId): ExchangeFixture {
  switch (id) {
    case 'binance':
      return binanceFixture(false);
    case 'binanceusdm':
      return binanceFixture(true);
    case 'kucoin':
      return kucoinFixture(false);
    case 'kucoinfutures':
      return kucoinFixture(true);
  }
}

/**
 * The key-permission query of each venue (issue 30), answering from `fx.keyPermissions` (default: trading-only,
 * IP-restricted; a test changes the object to play another key). The real venues serve both on their spot
 * host; the futures fixtures answer them too, as a test sends every host of a venue to one stand-in.
 * - binance: GET /sapi/v1/account/apiRestrictions, https://developers.binance.com/docs/wallet/account/api-key-permission
 * - kucoin: GET /api/v1/user/api-key, https://www.kucoin.com/docs-new/rest/account-info/account-funding/get-apikey-info
 *   (`permission` comma-separated, "Transfer" = withdrawal; `ipWhitelist` masked, empty when unrestricted)
 */
export function exchangeFixture(id: CcxtId): ExchangeFixture {
  const fx = venueFixture(id);
  if (id.startsWith('binance')) {
    fx.routes['GET /sapi/v1/account/apiRestrictions'] = () => {
      const p = fx.keyPermissions;
      return ok({
        ipRestrict: p.ipRestricted === true, createTime: 1_698_645_219_000, enableReading: p.read, enableWithdrawals: p.withdraw, enableInternalTransfer: false,
        enableMargin: false, enableFutures: p.futures, permitsUniversalTransfer: false, enableVanillaOptions: false, enableFixApiTrade: false,
        enableFixReadOnly: false, enableSpotAndMarginTrading: p.spot, enablePortfolioMarginTrading: false,
      });
    };
  } else {
    fx.routes['GET /api/v1/user/api-key'] = () => {
      const p = fx.keyPermissions;
      const permission = [p.read && 'General', p.spot && 'Spot', p.futures && 'Futures', p.withdraw && 'Transfer'].filter(Boolean).join(',');
      return ok({ code: '200000', data: { remark: 'stand-in', apiKey: STUB_KEY.apiKey, apiVersion: 3, permission, ipWhitelist: p.ipRestricted ? '127.**.1' : '', isMaster: true, uid: 165111215, createdAt: 1_728_443_843_000 } });
    };
  }
  return fx;
}
