/**
 * The paper exchange: a simulated Binance/Kucoin, spot and USDT-margined futures, for every user.
 *
 * PaperVenue is the one simulated exchange of the process: it owns the price feed, the SQLite store,
 * the accounts and the index of open orders, and matches orders on every feed tick. PaperExchange is
 * one user's ExchangePort onto it (cheap; one per user, exchange and market).
 *
 * Rules (documented simplifications of a real exchange):
 * - A resting limit buy fills when a trade prints at or below its price, a sell at or above: at the
 *   limit price, in full (no liquidity model), as a maker. An order that crosses the current price
 *   when it is placed takes liquidity: it fills at once at the current price (the book's), as a
 *   taker with the taker fee. A market order fills at the current price as a taker.
 * - Fees as the venue charges them (venues/venue-rules.ts): maker/taker rates of the venue; on
 *   Binance spot a buy's fee is taken from the coin received (the account gets amount − fee), every
 *   other fee is in the quote currency. Each fill reports feeAsset/feeCost and the fee in quote.
 * - Spot: a buy holds price × amount (+ the fee when it is charged in quote), a sell the base amount.
 * - Client order ids in the venue's format (Binance 36 of [.A-Z:/a-z0-9_-], Kucoin 40 of [A-Za-z0-9_-]).
 * - Futures (one-way mode only, one wallet, no funding, no liquidation): an order holds
 *   notional ÷ leverage + fee; a position holds entry value ÷ leverage; available = wallet − held.
 *   Reduce-only orders are refused without an opposite position and are capped at its size on fill.
 * - Client order ids are unique among open orders (Binance's rule); a lookup returns the latest.
 * - Money is integer 1e-8 units throughout (fixed-point.ts): results are exact, not just to the cent.
 * - Time is the feed's time, so a replayed CSV gives identical orders and fills on every run.
 */
import { join } from 'node:path';
import {
  splitSymbol,
  type BalanceRecord,
  type ExchangeMode,
  type ExchangeName,
  type ExchangePort,
  type ExchangeProvider,
  type ExchangeRef,
  type Fill,
  type LimitOrderRequest,
  type MarginMode,
  type MarketOrderRequest,
  type MarketRules,
  type MarketType,
  type Order,
  type OrderUpdate,
  type Position as PortPosition,
  type PositionMode,
  type PositionRisk,
  type PriceSubscriptions,
  type Unsubscribe,
} from './exchange.port';
import {
  DuplicateOrderError,
  InsufficientFundsError,
  InvalidOrderError,
  OrderNotFoundError,
  UnknownSymbolError,
} from './exchange.errors';
import { feeUnits, fromUnits, isMultipleOf, mulDiv, notionalUnits, parseUnits, SCALE, toUnits } from './fixed-point';
import {
  PAPER_DEFAULT_LEVERAGE,
  PAPER_MAX_LEVERAGE,
  PAPER_STARTING_USDT,
  PAPER_SYMBOLS,
  type PaperSymbolSpec,
} from './paper.constants';
import { CsvReplayFeed, RandomWalkFeed, type FeedTick, type PaperPriceFeed } from './paper-price-feed';
import { PaperOrderBook } from './paper-order-book';
import { PaperStore, type AccountRow, type FillRow, type OrderRow, type PositionRow } from './paper.store';
import { PriceHub } from './price-hub';
import { validClientOrderId, venueRules, type VenueRules } from './venues/venue-rules';

/** A venue's fee rate as integer basis points (0.001 → 10). */
const bps = (rate: number) => Math.round(rate * 10_000);

interface SymbolRules {
  spec: PaperSymbolSpec;
  base: string;
  quote: string;
  priceStep: number;
  amountStep: number;
  minNotional: number;
  minAmount: number;
}

interface Asset {
  total: number;
  locked: number;
}

interface Position {
  qty: number;
  cost: number;
  leverage: number;
  marginMode: MarginMode;
}

interface Account extends AccountRow {
  key: string;
  assets: Map<string, Asset>;
  positions: Map<string, Position>;
  /** Open orders by client order id. */
  open: Map<string, OrderRow>;
  listeners: Set<(u: OrderUpdate) => void>;
}

/** What changed during one call or one feed advance; written in one transaction. */
class UnitOfWork {
  readonly balances = new Map<string, { account: Account; asset: string }>();
  readonly positions = new Map<string, { account: Account; symbol: string }>();
  readonly orders = new Set<OrderRow>();
  readonly fills: FillRow[] = [];
  readonly updates: Array<{ account: Account; order: OrderRow; fill?: FillRow }> = [];

  balance(account: Account, asset: string): void {
    this.balances.set(`${account.key}|${asset}`, { account, asset });
  }
  position(account: Account, symbol: string): void {
    this.positions.set(`${account.key}|${symbol}`, { account, symbol });
  }
}

export interface PaperVenueOptions {
  /** Path of the SQLite file (e.g. `<data>/paper-exchange.sqlite`), or an open store. */
  store: string | PaperStore;
  feed: PaperPriceFeed;
  startingUsdt?: string;
  symbols?: readonly PaperSymbolSpec[];
  /**
   * Stamps orders and fills with this clock instead of the feed's time (a stand-in venue serving a
   * live runner, whose fill recovery runs on the wall clock). Default: the feed's time.
   */
  clock?: () => number;
}

const accountKey = (userId: string, exchange: ExchangeName, market: MarketType) => `${userId}\u0001${exchange}\u0001${market}`;
const bookKey = (exchange: ExchangeName, symbol: string) => `${exchange}:${symbol}`;

export class PaperVenue {
  readonly store: PaperStore;
  readonly feed: PaperPriceFeed;
  private readonly ownsStore: boolean;
  private readonly startingUsdt: number;
  private readonly rules = new Map<string, SymbolRules>();
  private readonly accounts = new Map<string, Account>();
  private readonly book = new PaperOrderBook<OrderRow>();
  private readonly priceListeners = new Map<string, Set<(tick: FeedTick) => void>>();
  private nextOrderId: number;
  private nextFillId: number;
  private readonly clock: (() => number) | undefined;

  constructor(options: PaperVenueOptions) {
    this.ownsStore = typeof options.store === 'string';
    this.store = typeof options.store === 'string' ? new PaperStore(options.store) : options.store;
    this.feed = options.feed;
    this.startingUsdt = parseUnits(options.startingUsdt ?? PAPER_STARTING_USDT);
    this.clock = options.clock;
    for (const spec of options.symbols ?? PAPER_SYMBOLS) {
      const { base, quote } = splitSymbol(spec.symbol);
      const amountStep = parseUnits(spec.amountStep);
      this.rules.set(spec.symbol, {
        spec,
        base,
        quote,
        priceStep: parseUnits(spec.priceStep),
        amountStep,
        minNotional: parseUnits(spec.minNotional),
        minAmount: amountStep,
      });
    }
    this.load();
  }

  /** Opens the venue on `<dataDir>/paper-exchange.sqlite` with a CSV replay or a seeded random walk. */
  static open(options: { dataDir?: string; dbPath?: string; pricesCsv?: string; seed?: number | string; startingUsdt?: string }): PaperVenue {
    const dbPath = options.dbPath ?? join(options.dataDir ?? 'data', 'paper-exchange.sqlite');
    const feed = options.pricesCsv ? CsvReplayFeed.fromFile(options.pricesCsv) : new RandomWalkFeed({ seed: options.seed ?? 1 });
    return new PaperVenue({ store: dbPath, feed, startingUsdt: options.startingUsdt });
  }

  private load(): void {
    const snapshot = this.store.getMeta('feed');
    if (snapshot) this.feed.restore(snapshot);
    for (const a of this.store.accounts()) this.accountRecord(a.userId, a.exchange, a.market);
    for (const b of this.store.balances()) {
      this.accountRecord(b.userId, b.exchange, b.market).assets.set(b.asset, { total: b.total, locked: b.locked });
    }
    for (const p of this.store.positions()) {
      this.accountRecord(p.userId, p.exchange, p.market).positions.set(p.symbol, { qty: p.qty, cost: p.cost, leverage: p.leverage, marginMode: p.marginMode ?? 'cross' });
    }
    for (const o of this.store.openOrders()) {
      this.accountRecord(o.userId, o.exchange, o.market).open.set(o.clientOrderId, o);
      this.book.add(bookKey(o.exchange, o.symbol), o);
    }
    this.nextOrderId = this.store.maxOrderId() + 1;
    this.nextFillId = this.store.maxFillId() + 1;
  }

  private accountRecord(userId: string, exchange: ExchangeName, market: MarketType): Account {
    const key = accountKey(userId, exchange, market);
    let a = this.accounts.get(key);
    if (!a) {
      a = { key, userId, exchange, market, assets: new Map(), positions: new Map(), open: new Map(), listeners: new Set() };
      this.accounts.set(key, a);
    }
    return a;
  }

  /** The user's account, created with the starting USDT on first use. */
  account(userId: string, exchange: ExchangeName, market: MarketType): Account {
    const existing = this.accounts.get(accountKey(userId, exchange, market));
    if (existing) return existing;
    const a = this.accountRecord(userId, exchange, market);
    a.assets.set('USDT', { total: this.startingUsdt, locked: 0 });
    this.store.transaction(() => {
      this.store.insertAccount(a);
      this.store.upsertBalance({ userId, exchange, market, asset: 'USDT', total: this.startingUsdt, locked: 0 });
    });
    return a;
  }

  exchangeFor(ref: ExchangeRef): PaperExchange {
    return new PaperExchange(this, ref);
  }

  nowMs(): number {
    return this.feed.nowMs();
  }

  /** The time orders and fills are stamped with. */
  private stamp(feedMs: number): number {
    return this.clock ? this.clock() : feedMs;
  }

  symbolRules(symbol: string): SymbolRules {
    const r = this.rules.get(String(symbol).toUpperCase());
    if (!r) throw new UnknownSymbolError(symbol);
    return r;
  }

  priceUnits(exchange: ExchangeName, symbol: string): number {
    const rules = this.symbolRules(symbol);
    const p = this.feed.priceUnits(exchange, rules.spec.symbol);
    if (p === undefined) throw new UnknownSymbolError(symbol);
    return p;
  }

  openOrderCount(): number {
    return this.book.size();
  }

  // ---------------------------------------------------------------------------------------------
  // Feed and matching

  /**
   * Advances the feed to `ms`, fills every crossing order tick by tick, commits all of it together
   * with the feed's new position in one transaction, then notifies order and price listeners.
   */
  advanceTo(ms: number): FeedTick[] {
    const before = this.feed.nowMs();
    const ticks = this.feed.advanceTo(ms);
    if (ticks.length === 0 && this.feed.nowMs() === before) return ticks;
    const uow = new UnitOfWork();
    for (const tick of ticks) {
      const crossed = this.book.takeCrossed(bookKey(tick.exchange, tick.symbol), tick.price);
      for (const order of crossed) this.fill(order, this.stamp(tick.ms), uow);
    }
    this.commit(uow, true);
    this.notify(uow);
    for (const tick of ticks) {
      const listeners = this.priceListeners.get(bookKey(tick.exchange, tick.symbol));
      if (!listeners) continue;
      for (const l of listeners) {
        try {
          l(tick);
        } catch {
          // a listener's failure never stops the feed
        }
      }
    }
    return ticks;
  }

  onPrice(exchange: ExchangeName, symbol: string, listener: (tick: FeedTick) => void): Unsubscribe {
    const k = bookKey(exchange, symbol);
    let set = this.priceListeners.get(k);
    if (!set) this.priceListeners.set(k, (set = new Set()));
    set.add(listener);
    return () => {
      set!.delete(listener);
      if (set!.size === 0) this.priceListeners.delete(k);
    };
  }

  watchOrders(account: Account, listener: (u: OrderUpdate) => void): Unsubscribe {
    account.listeners.add(listener);
    return () => account.listeners.delete(listener);
  }

  private commit(uow: UnitOfWork, withFeed: boolean): void {
    this.store.transaction(() => {
      for (const { account, asset } of uow.balances.values()) {
        const a = account.assets.get(asset)!;
        this.store.upsertBalance({ userId: account.userId, exchange: account.exchange, market: account.market, asset, total: a.total, locked: a.locked });
      }
      for (const { account, symbol } of uow.positions.values()) {
        const p = account.positions.get(symbol)!;
        this.store.upsertPosition({ userId: account.userId, exchange: account.exchange, market: account.market, symbol, ...p });
      }
      for (const o of uow.orders) this.store.upsertOrder(o);
      for (const f of uow.fills) this.store.insertFill(f);
      if (withFeed) this.store.setMeta('feed', this.feed.snapshot());
    });
  }

  private notify(uow: UnitOfWork): void {
    for (const { account, order, fill } of uow.updates) {
      if (account.listeners.size === 0) continue;
      const update: OrderUpdate = { order: toOrder(order), fill: fill ? toFill(fill) : undefined };
      for (const l of account.listeners) {
        try {
          l(update);
        } catch {
          // ignore listener failures
        }
      }
    }
  }

  private asset(account: Account, asset: string): Asset {
    let a = account.assets.get(asset);
    if (!a) account.assets.set(asset, (a = { total: 0, locked: 0 }));
    return a;
  }

  private position(account: Account, symbol: string): Position {
    let p = account.positions.get(symbol);
    if (!p) account.positions.set(symbol, (p = { qty: 0, cost: 0, leverage: PAPER_DEFAULT_LEVERAGE, marginMode: 'cross' }));
    return p;
  }

  private positionMargin(account: Account): number {
    let sum = 0;
    for (const p of account.positions.values()) if (p.qty !== 0) sum += mulDiv(p.cost, 1, p.leverage);
    return sum;
  }

  private futuresAvailable(account: Account): number {
    const usdt = this.asset(account, 'USDT');
    return usdt.total - usdt.locked - this.positionMargin(account);
  }

  /**
   * Fills `order` in full (reduce-only: capped at the position): a resting order at its limit price
   * as a maker, a crossing or market order at `takerPrice` (the current price) as a taker.
   */
  private fill(order: OrderRow, ms: number, uow: UnitOfWork, takerPrice?: number): void {
    const account = this.accounts.get(accountKey(order.userId, order.exchange, order.market))!;
    const rules = this.symbolRules(order.symbol);
    const venue = venueRules(order.exchange, order.market);
    const rateBps = bps(takerPrice === undefined ? venue.fees.maker : venue.fees.taker);
    const price = takerPrice ?? order.price;
    account.open.delete(order.clientOrderId);
    let amount = order.amount;
    let realizedPnl: number | null = null;
    let fillFee = 0;
    let feeAsset = rules.quote;
    let feeCost = 0;
    if (order.market === 'spot') {
      const notional = notionalUnits(price, amount);
      const base = this.asset(account, rules.base);
      const quote = this.asset(account, rules.quote);
      if (order.side === 'buy' && venue.fees.buyFeeIn === 'base') {
        // Binance spot: the fee comes out of the coin received
        const feeBase = mulDiv(amount, rateBps, 10_000);
        quote.locked -= order.reserved;
        quote.total -= notional;
        base.total += amount - feeBase;
        feeAsset = rules.base;
        feeCost = feeBase;
        fillFee = notionalUnits(price, feeBase);
      } else if (order.side === 'buy') {
        const fee = feeUnits(notional, rateBps);
        quote.locked -= order.reserved;
        quote.total -= notional + fee;
        base.total += amount;
        feeCost = fillFee = fee;
      } else {
        const fee = feeUnits(notional, rateBps);
        base.locked -= order.reserved;
        base.total -= amount;
        quote.total += notional - fee;
        feeCost = fillFee = fee;
      }
      uow.balance(account, rules.base);
      uow.balance(account, rules.quote);
      order.fee += fillFee;
      order.fillCost += notional;
    } else {
      const usdt = this.asset(account, 'USDT');
      const pos = this.position(account, order.symbol);
      const sign = order.side === 'buy' ? 1 : -1;
      if (order.reduceOnly) {
        const reducible = Math.sign(pos.qty) === -sign ? Math.abs(pos.qty) : 0;
        amount = Math.min(amount, reducible);
      }
      usdt.locked -= order.reserved;
      uow.balance(account, 'USDT');
      if (amount > 0) {
        const notional = notionalUnits(price, amount);
        const fee = feeUnits(notional, rateBps);
        let pnl = 0;
        if (pos.qty === 0 || Math.sign(pos.qty) === sign) {
          pos.qty += sign * amount;
          pos.cost += notional;
        } else {
          const open = Math.abs(pos.qty);
          const closeQty = Math.min(amount, open);
          const closedCost = closeQty === open ? pos.cost : mulDiv(pos.cost, closeQty, open);
          const closeValue = notionalUnits(price, closeQty);
          pnl = pos.qty > 0 ? closeValue - closedCost : closedCost - closeValue;
          pos.cost -= closedCost;
          pos.qty += sign * closeQty;
          const rest = amount - closeQty;
          if (rest > 0) {
            pos.qty = sign * rest;
            pos.cost = notionalUnits(price, rest);
          }
        }
        usdt.total += pnl - fee;
        uow.position(account, order.symbol);
        realizedPnl = pnl;
        feeCost = fillFee = fee;
        order.fee += fee;
        order.fillCost += notional;
      }
    }
    order.reserved = 0;
    order.filled = amount;
    order.status = amount === order.amount ? 'filled' : 'cancelled';
    order.updatedAt = ms;
    uow.orders.add(order);
    let fill: FillRow | undefined;
    if (amount > 0) {
      fill = {
        id: this.nextFillId++,
        userId: order.userId,
        exchange: order.exchange,
        market: order.market,
        orderId: order.id,
        clientOrderId: order.clientOrderId,
        symbol: order.symbol,
        side: order.side,
        price,
        amount,
        fee: fillFee,
        feeAsset,
        feeCost,
        realizedPnl,
        ts: ms,
      };
      uow.fills.push(fill);
    }
    uow.updates.push({ account, order, fill });
  }

  // ---------------------------------------------------------------------------------------------
  // Account operations (synchronous; PaperExchange wraps them in promises)

  /** A limit order, or a market order (`req.price` undefined): it fills at once at the current price. */
  createOrder(account: Account, req: LimitOrderRequest | (MarketOrderRequest & { price?: undefined })): OrderRow {
    const rules = this.symbolRules(req.symbol);
    const symbol = rules.spec.symbol;
    const venue = venueRules(account.exchange, account.market);
    const market = req.price === undefined;
    if (req.side !== 'buy' && req.side !== 'sell') throw new InvalidOrderError('side must be buy or sell');
    if (!validClientOrderId(venue, req.clientOrderId)) throw new InvalidOrderError(clientIdRule(venue));
    if (account.open.has(req.clientOrderId)) throw new DuplicateOrderError(req.clientOrderId);
    if (req.positionSide !== undefined) {
      // one-way mode only: Binance refuses LONG/SHORT then (-4061); spot has no position side
      throw new InvalidOrderError("order's position side does not match the account's position mode (one-way)");
    }
    const current = this.priceUnits(account.exchange, symbol);
    if ((!market && (!Number.isFinite(req.price) || req.price! <= 0)) || !Number.isFinite(req.amount) || req.amount <= 0) {
      throw new InvalidOrderError('price and amount must be positive numbers');
    }
    const price = market ? current : toUnits(req.price!);
    const amount = toUnits(req.amount);
    if (!market && !isMultipleOf(price, rules.priceStep)) throw new InvalidOrderError(`price must be a multiple of ${rules.spec.priceStep}`);
    if (!isMultipleOf(amount, rules.amountStep)) throw new InvalidOrderError(`amount must be a multiple of ${rules.spec.amountStep}`);
    if (amount < rules.minAmount) throw new InvalidOrderError(`amount must be at least ${rules.spec.amountStep}`);
    const reduceOnly = req.reduceOnly === true;
    const notional = notionalUnits(price, amount);
    if (!reduceOnly && venue.minNotional && notional < rules.minNotional) {
      throw new InvalidOrderError(`order value must be at least ${rules.spec.minNotional} ${rules.quote}`);
    }
    const now = this.stamp(this.feed.nowMs());
    const uow = new UnitOfWork();
    // a crossing (or market) order takes liquidity and pays the taker rate, a resting one the maker rate
    const takes = market || PaperOrderBook.crosses({ id: 0, side: req.side, price }, current);
    const feeBps = bps(takes ? venue.fees.taker : venue.fees.maker);
    let reserved: number;
    if (account.market === 'spot') {
      if (reduceOnly) throw new InvalidOrderError('reduce-only applies to futures orders');
      if (req.side === 'buy') {
        reserved = notional + (venue.fees.buyFeeIn === 'base' ? 0 : feeUnits(notional, feeBps));
        const q = this.asset(account, rules.quote);
        if (q.total - q.locked < reserved) throw new InsufficientFundsError(`not enough ${rules.quote}`);
        q.locked += reserved;
        uow.balance(account, rules.quote);
      } else {
        reserved = amount;
        const b = this.asset(account, rules.base);
        if (b.total - b.locked < reserved) throw new InsufficientFundsError(`not enough ${rules.base}`);
        b.locked += reserved;
        uow.balance(account, rules.base);
      }
    } else {
      if (rules.quote !== 'USDT') throw new InvalidOrderError('paper futures are USDT-margined only');
      const pos = this.position(account, symbol);
      const fee = feeUnits(notional, feeBps);
      if (reduceOnly) {
        const sign = req.side === 'buy' ? 1 : -1;
        if (Math.sign(pos.qty) !== -sign) throw new InvalidOrderError('reduce-only order would not reduce the position');
        reserved = fee;
      } else {
        reserved = mulDiv(notional, 1, pos.leverage) + fee;
      }
      if (this.futuresAvailable(account) < reserved) throw new InsufficientFundsError('not enough USDT margin');
      this.asset(account, 'USDT').locked += reserved;
      uow.balance(account, 'USDT');
    }
    const order: OrderRow = {
      id: this.nextOrderId++,
      userId: account.userId,
      exchange: account.exchange,
      market: account.market,
      symbol,
      clientOrderId: req.clientOrderId,
      side: req.side,
      price,
      amount,
      filled: 0,
      status: 'open',
      reduceOnly,
      reserved,
      fee: 0,
      fillCost: 0,
      createdAt: now,
      updatedAt: now,
    };
    uow.orders.add(order);
    account.open.set(order.clientOrderId, order);
    if (takes) {
      // takes liquidity: at the book's price, as a taker
      this.fill(order, now, uow, current);
    } else {
      this.book.add(bookKey(order.exchange, symbol), order);
      uow.updates.push({ account, order });
    }
    this.commit(uow, false);
    this.notify(uow);
    return order;
  }

  cancelOrder(account: Account, symbol: string, clientOrderId: string): OrderRow {
    const s = this.symbolRules(symbol).spec.symbol;
    const order = account.open.get(clientOrderId);
    if (!order || order.symbol !== s) {
      const past = this.store.orderByClientId(account, clientOrderId);
      if (past && past.symbol === s) return past;
      throw new OrderNotFoundError(clientOrderId);
    }
    const uow = new UnitOfWork();
    this.book.remove(bookKey(order.exchange, order.symbol), order);
    account.open.delete(clientOrderId);
    const rules = this.symbolRules(order.symbol);
    const asset = order.market === 'futures' ? 'USDT' : order.side === 'buy' ? rules.quote : rules.base;
    this.asset(account, asset).locked -= order.reserved;
    uow.balance(account, asset);
    order.reserved = 0;
    order.status = 'cancelled';
    order.updatedAt = this.stamp(this.feed.nowMs());
    uow.orders.add(order);
    uow.updates.push({ account, order });
    this.commit(uow, false);
    this.notify(uow);
    return order;
  }

  findOrder(account: Account, symbol: string, clientOrderId: string): OrderRow | null {
    const s = this.symbolRules(symbol).spec.symbol;
    const open = account.open.get(clientOrderId);
    if (open) return open.symbol === s ? open : null;
    const past = this.store.orderByClientId(account, clientOrderId);
    return past && past.symbol === s ? past : null;
  }

  /** An order of the account by the venue's order id (stand-ins: lookups by exchange order id). */
  findOrderById(account: Account, id: number): OrderRow | null {
    for (const o of account.open.values()) if (o.id === id) return o;
    const past = this.store.orderById(account, id);
    return past ?? null;
  }

  /** The symbols the venue lists. */
  symbols(): PaperSymbolSpec[] {
    return [...this.rules.values()].map((r) => r.spec);
  }

  openOrders(account: Account, symbol: string): OrderRow[] {
    const s = this.symbolRules(symbol).spec.symbol;
    return [...account.open.values()].filter((o) => o.symbol === s).sort((a, b) => a.id - b.id);
  }

  fills(account: Account, symbol: string, sinceMs: number): FillRow[] {
    return this.store.fillsSince(account, this.symbolRules(symbol).spec.symbol, sinceMs);
  }

  balances(account: Account): BalanceRecord[] {
    const out: BalanceRecord[] = [];
    const names = [...account.assets.keys()].sort((a, b) => (a === 'USDT' ? -1 : b === 'USDT' ? 1 : a.localeCompare(b)));
    for (const name of names) {
      const a = account.assets.get(name)!;
      if (name !== 'USDT' && a.total === 0) continue;
      const available = account.market === 'futures' && name === 'USDT' ? this.futuresAvailable(account) : a.total - a.locked;
      out.push({ symbol: name, exchange: account.exchange, balance: fromUnits(a.total), available: fromUnits(available) });
    }
    return out;
  }

  /** Every futures symbol with the account's leverage for it, as Binance reports it (default until set). */
  positionRisk(account: Account): PositionRisk[] {
    if (account.market !== 'futures') return [];
    return [...this.rules.keys()]
      .sort((a, b) => a.localeCompare(b))
      .map((symbol) => ({ symbol, leverage: account.positions.get(symbol)?.leverage ?? PAPER_DEFAULT_LEVERAGE }));
  }

  /** Signed position size and entry value of a futures symbol (tests, dashboards). */
  positionOf(account: Account, symbol: string): { qty: number; entryPrice: number; leverage: number; margin: number } {
    const p = account.positions.get(this.symbolRules(symbol).spec.symbol) ?? { qty: 0, cost: 0, leverage: PAPER_DEFAULT_LEVERAGE, marginMode: 'cross' };
    return {
      qty: fromUnits(p.qty),
      entryPrice: p.qty === 0 ? 0 : fromUnits(mulDiv(p.cost, SCALE, Math.abs(p.qty))),
      leverage: p.leverage,
      margin: fromUnits(p.qty === 0 ? 0 : mulDiv(p.cost, 1, p.leverage)),
    };
  }

  /** Open futures positions (one-way: no position side). */
  positions(account: Account, symbol?: string): PortPosition[] {
    if (account.market !== 'futures') return [];
    const only = symbol === undefined ? undefined : this.symbolRules(symbol).spec.symbol;
    return [...account.positions.entries()]
      .filter(([s, p]) => p.qty !== 0 && (only === undefined || s === only))
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([s, p]) => ({
        symbol: s,
        amount: fromUnits(p.qty),
        entryPrice: fromUnits(mulDiv(p.cost, SCALE, Math.abs(p.qty))),
        leverage: p.leverage,
        marginMode: p.marginMode,
      }));
  }

  setLeverage(account: Account, symbol: string, leverage: number, marginMode: MarginMode = 'isolated'): void {
    if (marginMode !== 'isolated' && marginMode !== 'cross') throw new InvalidOrderError('margin mode must be isolated or cross');
    if (account.market !== 'futures') throw new InvalidOrderError('leverage applies to futures only');
    const s = this.symbolRules(symbol).spec.symbol;
    if (!Number.isInteger(leverage) || leverage < 1 || leverage > PAPER_MAX_LEVERAGE) {
      throw new InvalidOrderError(`leverage must be an integer from 1 to ${PAPER_MAX_LEVERAGE}`);
    }
    const pos = this.position(account, s);
    const previous = pos.leverage;
    pos.leverage = leverage;
    pos.marginMode = marginMode;
    if (pos.qty !== 0 && this.futuresAvailable(account) < 0) {
      pos.leverage = previous;
      throw new InsufficientFundsError('not enough margin for the lower leverage');
    }
    const uow = new UnitOfWork();
    uow.position(account, s);
    this.commit(uow, false);
  }

  close(): void {
    if (this.ownsStore) this.store.close();
  }
}

function clientIdRule(venue: VenueRules): string {
  return venue.exchange === 'Binance'
    ? 'client order id must be 1 to 36 of A-Z a-z 0-9 . : / _ -'
    : 'client order id must be 1 to 40 of A-Z a-z 0-9 _ -';
}

function toOrder(o: OrderRow): Order {
  const order: Order = {
    clientOrderId: o.clientOrderId,
    exchangeOrderId: String(o.id),
    symbol: o.symbol,
    side: o.side,
    price: fromUnits(o.price),
    amount: fromUnits(o.amount),
    filled: fromUnits(o.filled),
    status: o.status,
    updatedAt: o.updatedAt,
  };
  if (o.filled > 0) {
    order.avgFillPrice = fromUnits(mulDiv(o.fillCost, SCALE, o.filled));
    order.fee = fromUnits(o.fee);
  }
  if (o.reduceOnly) order.reduceOnly = true;
  return order;
}

function toFill(f: FillRow): Fill {
  const fill: Fill = {
    fillId: String(f.id),
    clientOrderId: f.clientOrderId,
    exchangeOrderId: String(f.orderId),
    symbol: f.symbol,
    side: f.side,
    price: fromUnits(f.price),
    amount: fromUnits(f.amount),
    fee: fromUnits(f.fee),
    feeAsset: f.feeAsset || splitSymbol(f.symbol).quote,
    feeCost: fromUnits(f.feeAsset ? f.feeCost : f.fee),
    timestamp: f.ts,
  };
  if (f.realizedPnl !== null && f.realizedPnl !== undefined) fill.realizedPnl = fromUnits(f.realizedPnl);
  return fill;
}

/** One user's port onto the venue. */
export class PaperExchange implements ExchangePort {
  readonly exchange: ExchangeName;
  readonly market: MarketType;

  constructor(
    private readonly venue: PaperVenue,
    private readonly ref: ExchangeRef,
  ) {
    this.exchange = ref.exchange;
    this.market = ref.market;
  }

  private get account() {
    return this.venue.account(this.ref.userId, this.ref.exchange, this.ref.market);
  }

  async balances(market: MarketType = this.market): Promise<BalanceRecord[]> {
    return this.venue.balances(this.venue.account(this.ref.userId, this.ref.exchange, market));
  }

  async price(symbol: string): Promise<number> {
    return fromUnits(this.venue.priceUnits(this.exchange, symbol));
  }

  async positionRisk(): Promise<PositionRisk[]> {
    return this.venue.positionRisk(this.account);
  }

  async setLeverage(symbol: string, leverage: number, marginMode: MarginMode = 'isolated'): Promise<void> {
    this.venue.setLeverage(this.account, symbol, leverage, marginMode);
  }

  /** The paper venue simulates one-way mode only (docs/exchanges.md). */
  async positionMode(): Promise<PositionMode> {
    return 'oneway';
  }

  async positions(symbol?: string): Promise<PortPosition[]> {
    return this.venue.positions(this.account, symbol);
  }

  async marketRules(symbol: string): Promise<MarketRules> {
    const r = this.venue.symbolRules(symbol);
    const fees = venueRules(this.exchange, this.market).fees;
    return {
      priceStep: fromUnits(r.priceStep),
      amountStep: fromUnits(r.amountStep),
      minNotional: venueRules(this.exchange, this.market).minNotional ? fromUnits(r.minNotional) : 0,
      minAmount: fromUnits(r.minAmount),
      makerFee: fees.maker,
      takerFee: fees.taker,
    };
  }

  async createLimitOrder(request: LimitOrderRequest): Promise<Order> {
    if (request.price === undefined || request.price === null) throw new InvalidOrderError('a limit order needs a price');
    return toOrder(this.venue.createOrder(this.account, request));
  }

  async createMarketOrder(request: MarketOrderRequest): Promise<Order> {
    return toOrder(this.venue.createOrder(this.account, { ...request, price: undefined }));
  }

  async cancelOrder(symbol: string, clientOrderId: string): Promise<Order> {
    return toOrder(this.venue.cancelOrder(this.account, symbol, clientOrderId));
  }

  async openOrders(symbol: string): Promise<Order[]> {
    return this.venue.openOrders(this.account, symbol).map(toOrder);
  }

  async orderByClientId(symbol: string, clientOrderId: string): Promise<Order | null> {
    const o = this.venue.findOrder(this.account, symbol, clientOrderId);
    return o ? toOrder(o) : null;
  }

  async recentFills(symbol: string, sinceMs: number): Promise<Fill[]> {
    return this.venue.fills(this.account, symbol, sinceMs).map(toFill);
  }

  watchOrders(listener: (update: OrderUpdate) => void): Unsubscribe {
    return this.venue.watchOrders(this.account, listener);
  }

  /** Paper-only introspection: the futures position of a symbol. */
  position(symbol: string) {
    return this.venue.positionOf(this.account, symbol);
  }
}

/** The provider of the embedded (paper) mode: no credentials needed. */
export class PaperExchangeProvider implements ExchangeProvider {
  readonly mode: ExchangeMode = 'paper';
  readonly prices: PriceSubscriptions;
  private readonly ports = new Map<string, PaperExchange>();

  constructor(readonly venue: PaperVenue) {
    this.prices = new PriceHub((key, emit) =>
      venue.onPrice(key.exchange, key.symbol, (t) =>
        emit({ exchange: t.exchange, market: key.market, symbol: t.symbol, price: fromUnits(t.price), ms: t.ms }),
      ),
    );
  }

  async for(ref: ExchangeRef): Promise<PaperExchange> {
    const k = accountKey(ref.userId, ref.exchange, ref.market);
    let port = this.ports.get(k);
    if (!port) {
      port = this.venue.exchangeFor(ref);
      this.ports.set(k, port);
    }
    return port;
  }

  forget(userId: string, exchange?: ExchangeName): void {
    for (const [k, p] of this.ports) {
      const [u, e] = k.split('\u0001');
      if (u === userId && (!exchange || e === exchange)) this.ports.delete(k);
      void p;
    }
  }

  async close(): Promise<void> {
    (this.prices as PriceHub).closeAll();
    this.venue.close();
  }
}

export interface PaperFeedDriverOptions {
  /** Injected clock (ms). */
  clock?: () => number;
  intervalMs?: number;
  /**
   * 'wall': feed time = clock time (the random walk). 'elapsed': feed time moves by the clock's
   * elapsed time × speed from wherever the feed stands (CSV replay; resumes after a restart).
   */
  mode?: 'wall' | 'elapsed';
  speed?: number;
}

/** Drives a venue's feed from a clock on a timer. Tests call `tick()` or `venue.advanceTo()` directly. */
export class PaperFeedDriver {
  private timer: NodeJS.Timeout | undefined;
  private lastWall: number | undefined;
  private readonly clock: () => number;
  private readonly mode: 'wall' | 'elapsed';

  constructor(
    private readonly venue: PaperVenue,
    private readonly options: PaperFeedDriverOptions = {},
  ) {
    this.clock = options.clock ?? Date.now;
    this.mode = options.mode ?? (venue.feed instanceof CsvReplayFeed ? 'elapsed' : 'wall');
  }

  tick(): FeedTick[] {
    const now = this.clock();
    if (this.mode === 'wall') return this.venue.advanceTo(now);
    const elapsed = this.lastWall === undefined ? 0 : Math.max(0, now - this.lastWall);
    this.lastWall = now;
    if (elapsed === 0) return [];
    return this.venue.advanceTo(this.venue.nowMs() + elapsed * (this.options.speed ?? 1));
  }

  start(): void {
    if (this.timer) return;
    this.tick();
    this.timer = setInterval(() => this.tick(), this.options.intervalMs ?? 1000);
    this.timer.unref?.();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }
}
