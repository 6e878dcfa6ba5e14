/**
 * Binance spot (/api/v3) and USDⓈ-M futures (/fapi) REST dialect over the venue core (stand-in).
 * Shapes as Binance documents them (docs/exchanges.md); only the calls the ccxt adapter makes. The symbol
 * filters of exchangeInfo (PRICE_FILTER, LOT_SIZE, NOTIONAL / MIN_NOTIONAL, MAX_NUM_ORDERS,
 * PERCENT_PRICE_BY_SIDE / PERCENT_PRICE) follow https://developers.binance.com/docs/binance-spot-api-docs/filters
 * with each market's values (venues/markets.ts); the venue lists what its core lists (STANDIN_SYMBOLS:
 * pairs beyond the paper catalogue too, issue 39).
 */
import { splitSymbol } from '../../exchange.port';
import type { FillRow, OrderRow } from '../../paper.store';
import type { StubRequest, StubResponse } from '../exchange-stub.server';
import type { Dialect, StandInCore } from './standin.types';
import { binanceKlines } from './binance-klines';

const ok = (body: unknown): StubResponse => ({ status: 200, body });
const params = (req: StubRequest) => new URLSearchParams(req.method === 'GET' || req.method === 'DELETE' ? req.rawQuery : req.body || req.rawQuery);
const STATUS = { open: 'NEW', filled: 'FILLED', cancelled: 'CANCELED' } as const;

export const binanceDialect: Dialect = (core: StandInCore) => {
  const { venue, rules } = core;
  const futures = core.market === 'futures';
  const base = futures ? '/fapi/v1' : '/api/v3';
  const u = core.units;
  const badKey: StubResponse = { status: 401, body: { code: -2015, msg: 'Invalid API-key, IP, or permissions for action.' } };
  /** Runs `fn` with the request's account, or answers the venue's bad-key error. */
  const authed = (fn: (req: StubRequest, account: NonNullable<ReturnType<StandInCore['account']>>) => StubResponse) => (req: StubRequest) => {
    const account = core.account(req);
    return account ? fn(req, account) : badKey;
  };

  const order = (o: OrderRow) => {
    const cum = o.fillCost;
    const avg = o.filled > 0 ? String(cum / o.filled) : '0';
    const common = {
      symbol: o.symbol, orderId: o.id, clientOrderId: o.clientOrderId, price: o.price ? u(o.price) : '0', origQty: u(o.amount), executedQty: u(o.filled),
      status: o.status === 'cancelled' && o.filled === o.amount ? 'FILLED' : STATUS[o.status], timeInForce: 'GTC', type: o.price ? 'LIMIT' : 'MARKET',
      side: o.side.toUpperCase(), time: o.createdAt, updateTime: o.updatedAt,
    };
    return futures
      ? { ...common, avgPrice: avg, cumQuote: u(cum), reduceOnly: o.reduceOnly, closePosition: false, positionSide: 'BOTH', stopPrice: '0', workingType: 'CONTRACT_PRICE', origType: common.type, priceMatch: 'NONE', selfTradePreventionMode: 'EXPIRE_MAKER', goodTillDate: 0 }
      : { ...common, orderListId: -1, cummulativeQuoteQty: u(cum), stopPrice: '0.00000000', icebergQty: '0.00000000', isWorking: true, workingTime: o.createdAt, origQuoteOrderQty: '0.00000000', selfTradePreventionMode: 'EXPIRE_MAKER' };
  };
  const trade = (f: FillRow) => {
    const quoteQty = u(Math.round((f.price * f.amount) / 1e8));
    return futures
      ? { buyer: f.side === 'buy', commission: u(f.feeCost), commissionAsset: f.feeAsset, id: f.id, maker: true, orderId: f.orderId, price: u(f.price), qty: u(f.amount), quoteQty, realizedPnl: u(f.realizedPnl ?? 0), side: f.side.toUpperCase(), positionSide: 'BOTH', symbol: f.symbol, time: f.ts }
      : { symbol: f.symbol, id: f.id, orderId: f.orderId, orderListId: -1, price: u(f.price), qty: u(f.amount), quoteQty, commission: u(f.feeCost), commissionAsset: f.feeAsset, time: f.ts, isBuyer: f.side === 'buy', isMaker: true, isBestMatch: true };
  };
  const symbolInfo = () =>
    venue.symbols(core.exchange, core.market).map((s) => {
      const { base: b, quote } = splitSymbol(s.symbol);
      const minQty = s.minAmount ?? s.amountStep;
      // issue 39: the market's maximums where its row states them (venues/markets.ts, enforced by the venue
      // core: paper-order-rules.ts); elsewhere 9000000, beyond any order a bot may carry (bot.rules.ts bounds)
      const maxQty = s.maxAmount ?? '9000000';
      const p = s.percentPrice;
      const filters = [
        { filterType: 'PRICE_FILTER', minPrice: s.priceStep, maxPrice: '10000000', tickSize: s.priceStep },
        { filterType: 'LOT_SIZE', minQty, maxQty, stepSize: s.amountStep },
        ...(futures ? [{ filterType: 'MARKET_LOT_SIZE', minQty, maxQty, stepSize: s.amountStep }] : []),
        futures ? { filterType: 'MIN_NOTIONAL', notional: s.minNotional } : { filterType: 'NOTIONAL', minNotional: s.minNotional, applyMinToMarket: true, maxNotional: s.maxNotional ?? '9000000', applyMaxToMarket: false, avgPriceMins: 5 },
        // "the maximum number of orders an account is allowed to have open on a symbol" (spot maxNumOrders, USDⓈ-M limit)
        ...(s.maxNumOrders === undefined ? [] : [futures ? { filterType: 'MAX_NUM_ORDERS', limit: s.maxNumOrders } : { filterType: 'MAX_NUM_ORDERS', maxNumOrders: s.maxNumOrders }]),
        // spot PERCENT_PRICE_BY_SIDE (bid/ask multipliers of the average price), USDⓈ-M PERCENT_PRICE (of the mark price)
        ...(!p ? [] : futures
          ? [{ filterType: 'PERCENT_PRICE', multiplierUp: String(p.bidUp ?? 5), multiplierDown: String(p.askDown ?? 0.2), multiplierDecimal: '4' }]
          : [{ filterType: 'PERCENT_PRICE_BY_SIDE', bidMultiplierUp: String(p.bidUp), bidMultiplierDown: String(p.bidDown), askMultiplierUp: String(p.askUp), askMultiplierDown: String(p.askDown), avgPriceMins: 5 }]),
      ];
      return futures
        ? { symbol: s.symbol, pair: s.symbol, contractType: 'PERPETUAL', deliveryDate: 4133404800000, onboardDate: 1569398400000, status: 'TRADING', baseAsset: b, quoteAsset: quote, marginAsset: quote, pricePrecision: 8, quantityPrecision: 8, baseAssetPrecision: 8, quotePrecision: 8, underlyingType: 'COIN', filters, orderTypes: ['LIMIT', 'MARKET'], timeInForce: ['GTC'] }
        : { symbol: s.symbol, status: 'TRADING', baseAsset: b, baseAssetPrecision: 8, quoteAsset: quote, quotePrecision: 8, quoteAssetPrecision: 8, orderTypes: ['LIMIT', 'MARKET'], isSpotTradingAllowed: true, isMarginTradingAllowed: false, filters, permissions: [], permissionSets: [['SPOT']] };
    });
  const find = (account: NonNullable<ReturnType<StandInCore['account']>>, p: URLSearchParams) => {
    const cid = p.get('origClientOrderId');
    if (cid) return venue.findOrder(account, p.get('symbol')!, cid);
    const id = p.get('orderId');
    return id ? venue.findOrderById(account, Number(id)) : null;
  };

  const routes: Record<string, (req: StubRequest) => StubResponse> = {
    [`GET ${base}/exchangeInfo`]: () => ok({ timezone: 'UTC', serverTime: core.now(), ...(futures ? { futuresType: 'U_MARGINED', assets: [] } : {}), rateLimits: [], exchangeFilters: [], symbols: symbolInfo() }),
    [`GET ${base}/ticker/24hr`]: (req) => {
      const symbol = req.query.get('symbol')!;
      const last = u(venue.priceUnits(core.exchange, symbol));
      return ok({ symbol, lastPrice: last, openPrice: last, highPrice: last, lowPrice: last, volume: '0', quoteVolume: '0', openTime: core.now() - 86_400_000, closeTime: core.now(), count: 0 });
    },
    // issue 40: candles, for backtests over the venue's history (binance-klines.ts: the docs and what is played)
    [`GET ${base}/klines`]: binanceKlines(core, core.klines),
    [`POST ${base}/order`]: authed((req, account) => {
      const p = params(req);
      const cid = p.get('newClientOrderId') ?? '';
      if (futures && p.has('positionSide') && p.get('positionSide') !== 'BOTH') return core.venueAnswer(rules.answers.positionSideMismatch!);
      const request = { symbol: p.get('symbol')!, side: p.get('side')!.toLowerCase() as 'buy' | 'sell', amount: Number(p.get('quantity')), clientOrderId: cid, reduceOnly: p.get('reduceOnly') === 'true' };
      const o = p.get('type') === 'MARKET' ? venue.createOrder(account, { ...request, price: undefined }) : venue.createOrder(account, { ...request, price: Number(p.get('price')) });
      return ok({ ...order(o), transactTime: o.createdAt, ...(futures ? {} : { fills: [] }) });
    }),
    [`DELETE ${base}/order`]: authed((req, account) => {
      const p = params(req);
      const o = find(account, p);
      // a filled or cancelled order cannot be cancelled: the venue answers "Unknown order sent."
      if (!o || o.status !== 'open') return core.venueAnswer(rules.answers.cancelUnknownOrder);
      const c = venue.cancelOrder(account, o.symbol, o.clientOrderId);
      return ok({ ...order(c), origClientOrderId: c.clientOrderId, transactTime: c.updatedAt });
    }),
    [`GET ${base}/order`]: authed((req, account) => {
      const o = find(account, params(req));
      return o ? ok(order(o)) : core.venueAnswer(rules.answers.lookupUnknownOrder);
    }),
    // without a symbol: every symbol's open orders ("If the symbol is not sent, orders for all symbols will be returned in an array", GET /api/v3/openOrders; /fapi/v1/openOrders likewise)
    [`GET ${base}/openOrders`]: authed((req, account) => ok(venue.openOrders(account, req.query.get('symbol') ?? undefined).map(order))),
    [`GET ${futures ? '/fapi/v1/userTrades' : '/api/v3/myTrades'}`]: authed((req, account) => {
      const p = params(req);
      const num = (k: string) => (p.has(k) ? Number(p.get(k)) : undefined);
      const w = core.window(num('startTime'), num('endTime'));
      if ('refused' in w) return w.refused;
      const limit = Math.min(num('limit') ?? rules.tradeHistory.defaultLimit, rules.tradeHistory.maxLimit);
      const all = core.fillsBetween(account, p.get('symbol')!, w.from, w.to);
      return ok((w.newest ? all.slice(-limit) : all.slice(0, limit)).map(trade));
    }),
  };
  /**
   * "Get API Key Permission (USER_DATA)", GET /sapi/v1/account/apiRestrictions, signed, weight 1: the key's
   * flags as booleans (https://developers.binance.com/docs/wallet/account/api-key-permission). The real venue
   * serves it on the spot/wallet host only; the futures stand-in answers it too because a test sends every
   * host of the venue to one stand-in. enableWithdrawals needs ipRestrict on the venue (same page); the
   * stand-in reports what the test configured, so a test can also play the impossible combination.
   */
  routes['GET /sapi/v1/account/apiRestrictions'] = (req) => {
    const k = core.keyPermissions(req);
    if (!k) return badKey;
    const p = k.permissions;
    return ok({
      ipRestrict: p.ipRestricted === true, createTime: 1_698_645_219_000, enableReading: p.read, enableWithdrawals: p.withdraw, enableInternalTransfer: false,
      enableMargin: false, enableFutures: p.futures, permitsUniversalTransfer: false, enableVanillaOptions: false, enableFixApiTrade: false, enableFixReadOnly: false,
      enableSpotAndMarginTrading: p.spot, enablePortfolioMarginTrading: false,
    });
  };
  if (futures) {
    routes['GET /fapi/v3/account'] = authed((_req, account) => {
      const usdt = venue.balances(account).find((b) => b.symbol === 'USDT') ?? { balance: 0, available: 0 };
      const a = { asset: 'USDT', walletBalance: String(usdt.balance), unrealizedProfit: '0', marginBalance: String(usdt.balance), availableBalance: String(usdt.available), maxWithdrawAmount: String(usdt.available), crossWalletBalance: String(usdt.balance), updateTime: core.now() };
      return ok({ totalWalletBalance: a.walletBalance, availableBalance: a.availableBalance, assets: [a], positions: [] });
    });
    // "Change Initial Leverage" (POST /fapi/v1/leverage, leverage "int from 1 to 125") and "Change Margin Type"
    // (POST /fapi/v1/marginType, ISOLATED or CROSSED), with the venue's refusals (docs/exchanges.md "Leverage and
    // margin mode"): -4046 when the type is already that, -4047 with open orders, -4048 with a position, -4028 a
    // leverage above the bracket's, -4161 a lower leverage of an isolated position (the paper core's rules)
    routes['POST /fapi/v1/leverage'] = authed((req, account) => {
      const p = params(req);
      const symbol = p.get('symbol')!;
      const lev = Number(p.get('leverage'));
      const mode = account.positions.get(symbol)?.marginMode ?? 'cross';
      venue.setLeverage(account, symbol, lev, mode);
      return ok({ leverage: lev, maxNotionalValue: '80000000', symbol });
    });
    routes['POST /fapi/v1/marginType'] = authed((req, account) => {
      const p = params(req);
      const type = p.get('marginType');
      if (type !== 'ISOLATED' && type !== 'CROSSED') return core.venueAnswer({ status: 400, code: -1116, msg: 'Invalid marginType.' });
      const changed = venue.setMarginMode(account, p.get('symbol')!, type === 'ISOLATED' ? 'isolated' : 'cross');
      if (!changed) return core.venueAnswer(rules.answers.futuresSettings!.marginModeUnchanged!);
      return ok({ code: 200, msg: 'success' });
    });
    routes['GET /fapi/v1/leverageBracket'] = () =>
      ok(venue.symbols().map((s) => ({ symbol: s.symbol, notionalCoef: 1, brackets: [{ bracket: 1, initialLeverage: 125, notionalCap: 1e9, notionalFloor: 0, maintMarginRatio: 0.004, cum: 0 }] })));
    routes['GET /fapi/v1/positionSide/dual'] = authed(() => ok({ dualSidePosition: false }));
    routes['GET /fapi/v1/symbolConfig'] = authed((_req, account) =>
      ok(venue.positionRisk(account).map((r) => ({ symbol: r.symbol, marginType: account.positions.get(r.symbol)?.marginMode === 'isolated' ? 'ISOLATED' : 'CROSSED', isAutoAddMargin: 'false', leverage: r.leverage, maxNotionalValue: '80000000' }))),
    );
    const positionRisk = authed((req, account) =>
      ok(
        venue.positions(account, req.query.get('symbol') ?? undefined).map((p) => ({
          symbol: p.symbol, positionSide: 'BOTH', positionAmt: String(p.amount), entryPrice: String(p.entryPrice), breakEvenPrice: String(p.entryPrice),
          markPrice: u(venue.priceUnits(core.exchange, p.symbol)), unRealizedProfit: '0', liquidationPrice: '0', isolatedMargin: '0', notional: String(p.amount * p.entryPrice),
          marginAsset: 'USDT', isolatedWallet: '0', initialMargin: '0', maintMargin: '0', positionInitialMargin: '0', openOrderInitialMargin: '0', adl: 0,
          bidNotional: '0', askNotional: '0', leverage: String(p.leverage), marginType: p.marginMode === 'isolated' ? 'isolated' : 'cross', updateTime: core.now(),
        })),
      ),
    );
    routes['GET /fapi/v3/positionRisk'] = positionRisk;
    routes['GET /fapi/v2/positionRisk'] = positionRisk;
  } else {
    routes['GET /api/v3/account'] = authed((_req, account) =>
      ok({
        makerCommission: 10, takerCommission: 10, canTrade: true, canWithdraw: true, canDeposit: true, updateTime: core.now(), accountType: 'SPOT', permissions: ['SPOT'],
        commissionRates: { maker: String(rules.fees.maker), taker: String(rules.fees.taker), buyer: '0', seller: '0' },
        balances: venue.balances(account).map((b) => ({ asset: b.symbol, free: String(b.available), locked: String(Math.round((b.balance - b.available) * 1e8) / 1e8) })),
      }),
    );
  }
  return routes;
};
