/**
 * Kucoin spot (classic account, /api/v1) and futures (/api/v1, /api/v2) REST dialect over the venue
 * core (stand-in). Shapes as Kucoin documents them (docs/exchanges.md); only what the adapter calls.
 * Futures sizes are contracts of `multiplier` base units (the market's, venues/markets.ts), lotSize 1.
 */
import { splitSymbol } from '../../exchange.port';
import type { FillRow, OrderRow } from '../../paper.store';
import type { StubRequest, StubResponse } from '../exchange-stub.server';
import type { Dialect, StandInCore } from './standin.types';

const env = (data: unknown): StubResponse => ({ status: 200, body: { code: '200000', data } });

export const kucoinDialect: Dialect = (core: StandInCore) => {
  const { venue, rules } = core;
  const futures = core.market === 'futures';
  const u = core.units;
  const badKey: StubResponse = { status: 401, body: { code: '400003', msg: 'KC-API-KEY not exists' } };
  type Account = NonNullable<ReturnType<StandInCore['account']>>;
  const authed = (fn: (req: StubRequest, account: Account) => StubResponse) => (req: StubRequest) => {
    const account = core.account(req);
    return account ? fn(req, account) : badKey;
  };
  const specs = () => venue.symbols(core.exchange, core.market);
  /** Kucoin's symbol id of a paper symbol: spot BTC-USDT, futures XBTUSDTM. */
  const idOf = (symbol: string) => {
    const { base, quote } = splitSymbol(symbol);
    return futures ? `${base === 'BTC' ? 'XBT' : base}${quote}M` : `${base}-${quote}`;
  };
  const symbolOf = (id: string) => {
    if (!futures) return id.replace('-', '');
    const s = id.replace(/M$/, '');
    return s.startsWith('XBT') ? `BTC${s.slice(3)}` : s;
  };
  const lot = (symbol: string) => {
    const s = specs().find((x) => x.symbol === symbol)!;
    return Number(s.contract?.multiplier ?? s.amountStep);
  };
  const size = (symbol: string, unitsAmount: number) => (futures ? Math.round(unitsAmount / 1e8 / lot(symbol)) : u(unitsAmount));

  const order = (o: OrderRow) => {
    const avg = o.filled > 0 ? String(o.fillCost / o.filled) : '0';
    const active = o.status === 'open';
    return futures
      ? {
          id: String(o.id), symbol: idOf(o.symbol), type: o.price ? 'limit' : 'market', side: o.side, price: o.price ? u(o.price) : '0', size: size(o.symbol, o.amount),
          value: u(o.fillCost), dealValue: u(o.fillCost), dealSize: size(o.symbol, o.filled), filledSize: size(o.symbol, o.filled), filledValue: u(o.fillCost),
          stp: '', stop: '', timeInForce: 'GTC', postOnly: false, hidden: false, iceberg: false, leverage: String(venue.positionOf(account(o), o.symbol).leverage),
          forceHold: false, closeOrder: false, clientOid: o.clientOrderId, remark: null, tags: '', isActive: active, cancelExist: o.status === 'cancelled',
          createdAt: o.createdAt, updatedAt: o.updatedAt, endAt: active ? null : o.updatedAt, orderTime: o.createdAt * 1_000_000, settleCurrency: 'USDT',
          marginMode: (venue.positions(account(o), o.symbol)[0]?.marginMode ?? 'isolated').toUpperCase(), avgDealPrice: avg, status: active ? 'open' : 'done', reduceOnly: o.reduceOnly,
        }
      : {
          id: String(o.id), symbol: idOf(o.symbol), opType: 'DEAL', type: o.price ? 'limit' : 'market', side: o.side, price: o.price ? u(o.price) : '0', size: u(o.amount),
          funds: '0', dealFunds: u(o.fillCost), dealSize: u(o.filled), fee: u(o.fee), feeCurrency: splitSymbol(o.symbol).quote, stp: '', stop: '', stopTriggered: false,
          stopPrice: '0', timeInForce: 'GTC', postOnly: false, hidden: false, iceberg: false, visibleSize: '0', cancelAfter: 0, channel: 'API', clientOid: o.clientOrderId,
          remark: null, tags: null, isActive: active, cancelExist: o.status === 'cancelled', createdAt: o.createdAt, tradeType: 'TRADE',
        };
  };
  const account = (o: OrderRow) => venue.account(o.userId, o.exchange, o.market);
  const fill = (f: FillRow) =>
    futures
      ? {
          symbol: idOf(f.symbol), tradeId: String(f.id), orderId: String(f.orderId), side: f.side, liquidity: 'maker', forceTaker: false, price: u(f.price),
          size: size(f.symbol, f.amount), value: u(Math.round((f.price * f.amount) / 1e8)), openFeePay: u(f.feeCost), closeFeePay: '0', stop: '', feeRate: String(rules.fees.maker),
          fixFee: '0', feeCurrency: f.feeAsset, tradeTime: f.ts * 1_000_000, subTradeType: null, marginMode: 'ISOLATED', settleCurrency: 'USDT', displayType: 'limit',
          fee: u(f.feeCost), orderType: 'limit', tradeType: 'trade', createdAt: f.ts,
        }
      : {
          symbol: idOf(f.symbol), tradeId: String(f.id), orderId: String(f.orderId), counterOrderId: '0', side: f.side, liquidity: 'maker', forceTaker: false,
          price: u(f.price), size: u(f.amount), funds: u(Math.round((f.price * f.amount) / 1e8)), fee: u(f.feeCost), feeRate: String(rules.fees.maker),
          feeCurrency: f.feeAsset, stop: '', type: 'limit', createdAt: f.ts, tradeType: 'TRADE',
        };
  const page = (items: unknown[], current = 1, pageSize = 50, total = items.length) => ({ currentPage: current, pageSize, totalNum: total, totalPage: Math.ceil(total / pageSize), items });
  const byClientOid = (a: Account, cid: string) => {
    for (const s of specs()) {
      const o = venue.findOrder(a, s.symbol, decodeURIComponent(cid));
      if (o) return o;
    }
    return null;
  };

  const routes: Record<string, (req: StubRequest) => StubResponse> = {
    // a classic (not unified, not high-frequency) account: ccxt then uses the classic endpoints
    'GET /api/v1/hf/accounts/opened': () => env(false),
    'GET /api/ua/v1/account/mode': () => env({ selfAccountMode: 'CLASSIC' }),
    'POST /api/v1/orders': authed((req, a) => {
      const b = JSON.parse(req.body || '{}');
      const symbol = symbolOf(String(b.symbol));
      if (futures) {
        if (b.leverage === undefined) return core.venueAnswer({ status: 200, code: '400100', msg: 'Parameter Error: leverage' });
        if (b.positionSide !== undefined && b.positionSide !== 'BOTH') return core.venueAnswer({ status: 200, code: '400100', msg: 'Parameter Error: positionSide' });
        // an isolated order carries its leverage; the position takes it
        const mode = String(b.marginMode ?? 'ISOLATED') === 'CROSS' ? 'cross' : 'isolated';
        venue.setLeverage(a, symbol, Number(b.leverage), mode);
      }
      const amount = futures ? Number(b.size) * lot(symbol) : Number(b.size);
      const request = { symbol, side: b.side, amount, clientOrderId: b.clientOid, reduceOnly: b.reduceOnly === true };
      const o = b.type === 'market' ? venue.createOrder(a, { ...request, price: undefined }) : venue.createOrder(a, { ...request, price: Number(b.price) });
      return env(futures ? { orderId: String(o.id), clientOid: o.clientOrderId } : { orderId: String(o.id) });
    }),
    // status=active: the open orders, of a symbol or of all, in pages: spot "Get Orders List - Old" pageSize
    // 10 to 500, default 50 (https://www.kucoin.com/docs-new/api-3470346); futures "Get Order List" default 50,
    // "The maximum cannot exceed 1000" (api-3470244); currentPage from 1
    'GET /api/v1/orders': authed((req, a) => {
      const sym = req.query.get('symbol');
      const open = (sym ? venue.openOrders(a, symbolOf(sym)) : specs().flatMap((s) => venue.openOrders(a, s.symbol))).map(order);
      const asked = Number(req.query.get('pageSize') ?? 50);
      const pageSize = futures ? Math.min(1000, Math.max(1, asked)) : Math.min(500, Math.max(10, asked));
      const current = Math.max(1, Number(req.query.get('currentPage') ?? 1));
      return env(page(open.slice((current - 1) * pageSize, current * pageSize), current, pageSize, open.length));
    }),
    'GET /api/v1/orders/*': authed((req, a) => {
      const id = Number(req.path.split('/').pop());
      const o = Number.isFinite(id) ? venue.findOrderById(a, id) : null;
      return o ? env(order(o)) : core.venueAnswer(rules.answers.lookupUnknownOrder);
    }),
    'GET /api/v1/fills': authed((req, a) => {
      const q = req.query;
      const num = (k: string) => (q.has(k) ? Number(q.get(k)) : undefined);
      const w = core.window(num('startAt'), num('endAt'));
      if ('refused' in w) return w.refused;
      const pageSize = Math.min(num('pageSize') ?? rules.tradeHistory.defaultLimit, rules.tradeHistory.maxLimit);
      const current = num('currentPage') ?? 1;
      const all = core.fillsBetween(a, symbolOf(q.get('symbol')!), w.from, w.to).reverse(); // newest first
      return env(page(all.slice((current - 1) * pageSize, current * pageSize).map(fill), current, pageSize, all.length));
    }),
  };
  const cancel = authed((req, a) => {
    const o = byClientOid(a, req.path.split('/').pop()!);
    if (!o || o.status !== 'open') return core.venueAnswer(rules.answers.cancelUnknownOrder);
    const c = venue.cancelOrder(a, o.symbol, o.clientOrderId);
    return env(futures ? { clientOid: c.clientOrderId } : { cancelledOrderId: String(c.id), clientOid: c.clientOrderId, cancelledOcoOrderIds: null });
  });
  if (futures) {
    routes['GET /api/v1/contracts/active'] = () =>
      env(
        specs().map((s) => {
          const { base, quote } = splitSymbol(s.symbol);
          const last = Number(u(venue.priceUnits(core.exchange, s.symbol)));
          return {
            symbol: idOf(s.symbol), rootSymbol: quote, type: 'FFWCSX', firstOpenDate: 1585555200000, expireDate: null, settleDate: null, baseCurrency: base === 'BTC' ? 'XBT' : base,
            quoteCurrency: quote, settleCurrency: quote, maxOrderQty: 1000000, maxPrice: 10000000, lotSize: Number(s.contract?.lotSize ?? 1), tickSize: Number(s.priceStep), indexPriceTickSize: Number(s.priceStep),
            multiplier: Number(s.contract?.multiplier ?? s.amountStep), initialMargin: 0.008, maintainMargin: 0.004, maxRiskLimit: 100000, minRiskLimit: 100000, riskStep: 50000,
            makerFeeRate: rules.fees.maker, takerFeeRate: rules.fees.taker, takerFixFee: 0, makerFixFee: 0, isDeleverage: true, isQuanto: false, isInverse: false,
            markMethod: 'FairPrice', fairMethod: 'FundingRate', status: 'Open', fundingFeeRate: 0.0001, predictedFundingFeeRate: 0.0001,
            fundingRateGranularity: 28800000, nextFundingRateTime: 28800000, markPrice: last, indexPrice: last, lastTradePrice: last, maxLeverage: 125, supportCross: true,
          };
        }),
      );
    routes['GET /api/v1/ticker'] = (req) => {
      const symbol = symbolOf(req.query.get('symbol')!);
      const p = u(venue.priceUnits(core.exchange, symbol));
      return env({ sequence: 1, symbol: idOf(symbol), side: 'buy', size: 1, tradeId: '1', price: p, bestBidPrice: p, bestBidSize: 1, bestAskPrice: p, bestAskSize: 1, ts: core.now() * 1_000_000 });
    };
    routes['GET /api/v1/account-overview'] = authed((_req, a) => {
      const usdt = venue.balances(a).find((b) => b.symbol === 'USDT') ?? { balance: 0, available: 0 };
      return env({ accountEquity: usdt.balance, unrealisedPNL: 0, marginBalance: usdt.balance, positionMargin: 0, orderMargin: 0, frozenFunds: 0, availableBalance: usdt.available, currency: 'USDT', riskRatio: 0, maxWithdrawAmount: usdt.available });
    });
    routes['DELETE /api/v1/orders/client-order/*'] = cancel;
    routes['GET /api/v1/orders/byClientOid'] = authed((req, a) => {
      const o = byClientOid(a, req.query.get('clientOid') ?? '');
      return o ? env(order(o)) : core.venueAnswer(rules.answers.lookupUnknownOrder);
    });
    // the margin mode (KF-NEW; refused with open orders or a position: paper-accounts.ts checkMarginModeChange) and the
    // cross leverage ("supports only marginMode cross"; above the contract's highest: 300016, KF `_errors.md`)
    routes['POST /api/v2/position/changeMarginMode'] = authed((req, a) => {
      const b = JSON.parse(req.body || '{}');
      const mode = String(b.marginMode);
      if (mode !== 'ISOLATED' && mode !== 'CROSS') return core.venueAnswer({ status: 200, code: '400100', msg: 'Parameter Error: marginMode' });
      venue.setMarginMode(a, symbolOf(String(b.symbol)), mode === 'CROSS' ? 'cross' : 'isolated');
      return env({ symbol: b.symbol, marginMode: b.marginMode });
    });
    routes['POST /api/v2/changeCrossUserLeverage'] = authed((req, a) => {
      const b = JSON.parse(req.body || '{}');
      const symbol = symbolOf(String(b.symbol));
      if (a.positions.get(symbol)?.marginMode !== 'cross') return core.venueAnswer({ status: 200, code: '400100', msg: 'Parameter Error: marginMode is not cross' });
      venue.setLeverage(a, symbol, Number(b.leverage), 'cross');
      return env(true);
    });
    routes['GET /api/v2/position/getPositionMode'] = authed(() => env({ positionMode: 0 }));
    const position = (a: Account, symbol: string) => {
      const p = venue.positions(a, symbol)[0];
      const lots = p ? Math.round(p.amount / lot(symbol)) : 0;
      const info = venue.positionOf(a, symbol);
      return {
        id: `pos-${symbol}`, symbol: idOf(symbol), autoDeposit: false, crossMode: p?.marginMode === 'cross', marginMode: (p?.marginMode ?? 'isolated').toUpperCase(), positionSide: 'BOTH',
        maintMarginReq: 0.004, riskLimit: 100000, realLeverage: info.leverage, leverage: info.leverage, delevPercentage: 0, openingTimestamp: core.now(), currentTimestamp: core.now(),
        currentQty: lots, currentCost: p ? p.amount * p.entryPrice : 0, currentComm: 0, unrealisedCost: 0, realisedGrossCost: 0, realisedCost: 0, isOpen: lots !== 0,
        markPrice: Number(u(venue.priceUnits(core.exchange, symbol))), markValue: 0, posCost: 0, posCross: 0, posInit: info.margin, posComm: 0, posLoss: 0, posMargin: info.margin,
        posMaint: 0, maintMargin: 0, realisedGrossPnl: 0, realisedPnl: 0, unrealisedPnl: 0, unrealisedPnlPcnt: 0, unrealisedRoePcnt: 0, avgEntryPrice: p?.entryPrice ?? 0,
        liquidationPrice: 0, bankruptPrice: 0, settleCurrency: 'USDT', isInverse: false, maintainMargin: 0.004,
      };
    };
    routes['GET /api/v1/positions'] = authed((req, a) => {
      const only = req.query.get('symbol');
      return env(venue.positions(a, only ? symbolOf(only) : undefined).map((p) => position(a, p.symbol)));
    });
    routes['GET /api/v1/position'] = authed((req, a) => env(position(a, symbolOf(req.query.get('symbol')!))));
  } else {
    routes['GET /api/v2/symbols'] = () =>
      env(
        specs().map((s) => {
          const { base, quote } = splitSymbol(s.symbol);
          return {
            symbol: idOf(s.symbol), name: idOf(s.symbol), baseCurrency: base, quoteCurrency: quote, feeCurrency: quote, market: 'USDS', baseMinSize: s.minAmount ?? s.amountStep,
            quoteMinSize: s.minNotional, baseMaxSize: '10000000000', quoteMaxSize: '99999999', baseIncrement: s.amountStep, quoteIncrement: '0.00000001',
            priceIncrement: s.priceStep, priceLimitRate: '0.1', minFunds: s.minNotional, isMarginEnabled: false, enableTrading: true, feeCategory: 1,
            makerFeeCoefficient: '1.00', takerFeeCoefficient: '1.00', st: false,
          };
        }),
      );
    routes['GET /api/v1/market/stats'] = (req) => {
      const symbol = symbolOf(req.query.get('symbol')!);
      const p = u(venue.priceUnits(core.exchange, symbol));
      return env({ time: core.now(), symbol: idOf(symbol), buy: p, sell: p, changeRate: '0', changePrice: '0', high: p, low: p, vol: '0', volValue: '0', last: p, averagePrice: p, takerFeeRate: String(rules.fees.taker), makerFeeRate: String(rules.fees.maker), takerCoefficient: '1', makerCoefficient: '1' });
    };
    routes['GET /api/v1/accounts'] = authed((_req, a) =>
      env(venue.balances(a).map((b, i) => ({ id: `acc-${i}`, currency: b.symbol, type: 'trade', balance: String(b.balance), available: String(b.available), holds: String(Math.round((b.balance - b.available) * 1e8) / 1e8) }))),
    );
    routes['DELETE /api/v1/order/client-order/*'] = cancel;
    routes['GET /api/v1/order/client-order/*'] = authed((req, a) => {
      const o = byClientOid(a, req.path.split('/').pop()!);
      return o ? env(order(o)) : core.venueAnswer(rules.answers.lookupUnknownOrder);
    });
  }
  /**
   * "Get Apikey Info", GET /api/v1/user/api-key (https://www.kucoin.com/docs-new/rest/account-info/account-funding/get-apikey-info):
   * `permission` is a comma-separated list (General, Spot, Margin, Futures, Earn, InnerTransfer, Transfer…;
   * "Transfer" is the withdrawal permission, https://www.kucoin.com/docs-new/introduction "api-permission"),
   * `ipWhitelist` the key's IP list, masked ('127.**.1'), empty when the key is not restricted. The real
   * venue serves it on the spot host; the futures stand-in answers it too (a test sends every host to one).
   */
  routes['GET /api/v1/user/api-key'] = (req) => {
    const k = core.keyPermissions(req);
    if (!k) return badKey;
    const p = k.permissions;
    const permission = [p.read && 'General', p.spot && 'Spot', p.futures && 'Futures', p.withdraw && 'Transfer'].filter(Boolean).join(',');
    return env({ remark: 'stand-in', apiKey: k.apiKey, apiVersion: 3, permission, ipWhitelist: p.ipRestricted ? '127.**.1' : '', isMaster: true, uid: 165111215, createdAt: 1_728_443_843_000 });
  };
  return routes;
};
