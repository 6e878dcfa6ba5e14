// Over 400 lines: every venue operation (order, cancel, fill, leverage) applied and group-committed in one place; money rules live in paper-accounts.ts.
/**
 * The paper venue: the one simulated exchange of the process (Binance/Kucoin, spot and USDT-margined
 * futures, for every user). It owns the price feed, the SQLite store, the accounts and the book of
 * open orders; every call and every feed advance is one unit of work, committed in one transaction
 * before it is pushed to order watchers and acknowledged: the calls of one event-loop turn share one
 * transaction (group commit, paper-group-commit.ts), a feed advance commits with whatever is pending. The rules it applies come from the venue rules
 * (paper-order-rules.ts, venues/), the money movements from paper-accounts.ts, fill prices and roles
 * from paper-matching.ts. What it simulates and what not: docs/exchanges.md.
 * Money is integer 1e-8 units; time is the feed's (or an injected clock), so a replay is exact.
 */
import type { KeyPermissions } from './venues/key-permissions';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { BalanceRecord, ExchangeName, MarginMode, MarketType, OrderUpdate, Position, PositionRisk, Unsubscribe } from './exchange.port';
import { OrderNotFoundError, UnknownSymbolError } from './exchange.errors';
import { fromUnits, mulDiv, parseUnits, SCALE } from './fixed-point';
import {
  accountKey,
  balanceRecords,
  changeLeverage,
  checkMarginModeChange,
  hold,
  positionOf,
  newAccount,
  openPositions,
  release,
  settle,
  UnitOfWork,
  type Account,
  type SymbolRules,
} from './paper-accounts';
import { bookKey, execution, holdRateBps, PaperOrderBook, takesOnPlacement } from './paper-matching';
import { checkOrder, symbolRulesOf, type PaperOrderRequest } from './paper-order-rules';
import { PAPER_DEFAULT_LEVERAGE, PAPER_STARTING_USDT, PAPER_SYMBOLS, type PaperSymbolSpec } from './paper.constants';
import { CsvReplayFeed, RandomWalkFeed, type FeedTick, type PaperPriceFeed } from './paper-price-feed';
import { PaperStore, type FillRow, type OrderRow } from './paper.store';
import { PaperGroupCommit } from './paper-group-commit';
import { liquidateIsolated } from './paper-liquidation';
import { toFill, toOrder } from './paper-views';
import { venueRules } from './venues/venue-rules';
import { marketSpec } from './venues/markets';
import { marginTiers, maxLeverageOf } from './venues/margin-tiers';

export type { Account } from './paper-accounts';

export interface PaperVenueOptions {
  /** Path of the SQLite file (e.g. `<data>/paper-exchange.sqlite`), or an open store. */
  store: string | PaperStore;
  /** With a path: WAL checkpoints on a background thread every this many ms (the product: 200). */
  checkpointEveryMs?: number;
  feed: PaperPriceFeed;
  startingUsdt?: string;
  symbols?: readonly PaperSymbolSpec[];
  /**
   * Stamps orders and fills with this clock instead of the feed's time (a stand-in venue serving a
   * live runner, whose fill recovery runs on the wall clock). Default: the feed's time.
   */
  clock?: () => number;
}

/** A paper key: trading-only, IP restriction not applicable (PaperVenue.keyPermissions). */
export const PAPER_KEY_PERMISSIONS_FILE = 'paper-key-permissions.json';
export const PAPER_KEY_PERMISSIONS: KeyPermissions = Object.freeze({ withdraw: false, read: true, spot: true, futures: true, ipRestricted: null });

export class PaperVenue {
  readonly store: PaperStore;
  readonly feed: PaperPriceFeed;
  private readonly ownsStore: boolean;
  private readonly startingUsdt: number;
  /** The catalogue: symbol → its rules (names, base/quote, start price; steps only as fallback). */
  private readonly rules = new Map<string, SymbolRules>();
  /** Each venue market's own rules, by exchange, market and symbol (venues/markets.ts). */
  private readonly markets = new Map<string, SymbolRules>();
  private readonly accounts = new Map<string, Account>();
  private readonly book = new PaperOrderBook<OrderRow>();
  private readonly priceListeners = new Map<string, Set<(tick: FeedTick) => void>>();
  private readonly keyOverrides = new Map<string, Partial<KeyPermissions>>();
  /** `<dataDir>/paper-key-permissions.json` when the venue was opened on a data folder (keysFromFile). */
  keyPermissionsFile: string | null = null;
  private nextOrderId = 1;
  private nextFillId = 1;
  private readonly clock: (() => number) | undefined;
  private readonly group = new PaperGroupCommit(
    (uow, withFeed) => this.commit(uow, withFeed),
    (uow) => this.notify(uow),
  );

  constructor(options: PaperVenueOptions) {
    this.ownsStore = typeof options.store === 'string';
    this.store = typeof options.store === 'string' ? new PaperStore(options.store, { checkpointEveryMs: options.checkpointEveryMs }) : options.store;
    this.feed = options.feed;
    this.startingUsdt = parseUnits(options.startingUsdt ?? PAPER_STARTING_USDT);
    this.clock = options.clock;
    for (const spec of options.symbols ?? PAPER_SYMBOLS) this.rules.set(spec.symbol, symbolRulesOf(spec));
    this.load();
  }

  /**
   * Opens the venue on `<dataDir>/paper-exchange.sqlite` with the given feed (the venues' streams:
   * paper-feed.setup.ts), else a CSV replay or a seeded random walk.
   */
  static open(options: { dataDir?: string; dbPath?: string; pricesCsv?: string; seed?: number | string; startingUsdt?: string; feed?: PaperPriceFeed }): PaperVenue {
    const dbPath = options.dbPath ?? join(options.dataDir ?? 'data', 'paper-exchange.sqlite');
    const feed = options.feed ?? (options.pricesCsv ? CsvReplayFeed.fromFile(options.pricesCsv) : new RandomWalkFeed({ seed: options.seed ?? 1 }));
    const venue = new PaperVenue({ store: dbPath, feed, startingUsdt: options.startingUsdt, checkpointEveryMs: 200 });
    venue.keyPermissionsFile = join(dirname(dbPath), PAPER_KEY_PERMISSIONS_FILE);
    return venue;
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
    if (!a) this.accounts.set(key, (a = newAccount(userId, exchange, market)));
    return a;
  }

  /**
   * What a key may do on the paper venue (issue 30). Any key opens the paper exchange, so a paper key is
   * what GridRocket asks for: it trades spot and futures, reads, cannot withdraw (the paper venue has no
   * withdrawals at all); an IP restriction does not apply (ipRestricted null: no warning). Tests set other
   * answers per key (setKeyPermissions) to play a withdraw-capable, unrestricted or spot-only key; they
   * live in memory only, as the paper venue has no key management of its own.
   */
  keyPermissions(exchange: ExchangeName, apiKey: string): KeyPermissions {
    return { ...PAPER_KEY_PERMISSIONS, ...this.keysFromFile(apiKey), ...this.keyOverrides.get(`${exchange}\u0001${apiKey}`) };
  }

  /**
   * The paper venue's "API Management page": `<dataDir>/paper-key-permissions.json`, `{"<apiKey>": {withdraw?,
   * read?, spot?, futures?, ipRestricted?}}`, read at each question (a browser test or a demo writes it; no
   * restart). Booleans only (ipRestricted also null); anything else in it is ignored.
   */
  private keysFromFile(apiKey: string): Partial<KeyPermissions> {
    if (!this.keyPermissionsFile || !existsSync(this.keyPermissionsFile)) return {};
    try {
      const all = JSON.parse(readFileSync(this.keyPermissionsFile, 'utf8')) as Record<string, Record<string, unknown>>;
      const entry = all && typeof all === 'object' && Object.prototype.hasOwnProperty.call(all, apiKey) ? all[apiKey] : null;
      if (!entry || typeof entry !== 'object') return {};
      const out: Partial<KeyPermissions> = {};
      for (const k of ['withdraw', 'read', 'spot', 'futures'] as const) if (typeof entry[k] === 'boolean') out[k] = entry[k] as boolean;
      if (typeof entry.ipRestricted === 'boolean' || entry.ipRestricted === null) out.ipRestricted = entry.ipRestricted as boolean | null;
      return out;
    } catch {
      return {};
    }
  }

  /** Tests: the paper venue answers `permissions` for this key from now on. */
  setKeyPermissions(exchange: ExchangeName, apiKey: string, permissions: Partial<KeyPermissions>): void {
    this.keyOverrides.set(`${exchange}\u0001${apiKey}`, { ...this.keyOverrides.get(`${exchange}\u0001${apiKey}`), ...permissions });
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

  nowMs(): number {
    return this.feed.nowMs();
  }

  /** The time orders and fills are stamped with. */
  private stamp(feedMs: number): number {
    return this.clock ? this.clock() : feedMs;
  }

  /** A listed symbol (its name, base and quote); UnknownSymbolError otherwise. Its market's rules: marketRules. */
  symbolRules(symbol: string): SymbolRules {
    const r = this.rules.get(String(symbol).toUpperCase());
    if (!r) throw new UnknownSymbolError(symbol);
    return r;
  }

  /**
   * The rules of `symbol` on `exchange`'s `market` as that venue's market has them (steps, minimum
   * amount and value: venues/markets.ts), which orders are checked against and marketRules reports.
   */
  marketRules(exchange: ExchangeName, market: MarketType, symbol: string): SymbolRules {
    const catalogue = this.symbolRules(symbol).spec;
    const key = `${exchange}\u0001${market}\u0001${catalogue.symbol}`;
    let r = this.markets.get(key);
    if (!r) {
      const m = marketSpec(exchange, market, catalogue.symbol, catalogue);
      const { maxAmount, maxNotional, maxNumOrders, percentPrice } = m;
      const maximums = Object.fromEntries(Object.entries({ maxAmount, maxNotional, maxNumOrders, percentPrice }).filter(([, v]) => v !== undefined));
      r = symbolRulesOf({ symbol: catalogue.symbol, startPrice: catalogue.startPrice, priceStep: m.priceStep, amountStep: m.amountStep, minAmount: m.minAmount, minNotional: m.minNotional, source: m.source, contract: m.contract, ...maximums });
      this.markets.set(key, r);
    }
    return r;
  }

  /** The symbols the venue lists; with an exchange and market, with that market's own rules (stand-ins). */
  symbols(exchange?: ExchangeName, market?: MarketType): PaperSymbolSpec[] {
    const all = [...this.rules.values()].map((r) => r.spec);
    return exchange && market ? all.map((s) => this.marketRules(exchange, market, s.symbol).spec) : all;
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
    const uow = this.group.current; // with the calls of this turn not committed yet
    for (const tick of ticks) {
      const crossed = this.book.takeCrossed(bookKey(tick.exchange, tick.symbol), tick.price);
      for (const order of crossed) this.fill(order, this.stamp(tick.ms), uow);
      // issue 40: an isolated futures position whose margin this price has used up is liquidated (paper-liquidation.ts)
      for (const account of this.accounts.values()) {
        if (account.market !== 'futures' || account.exchange !== tick.exchange) continue;
        liquidateIsolated(account, tick.symbol, tick.price, this.stamp(tick.ms), { nextOrderId: () => this.nextOrderId++, nextFillId: () => this.nextFillId++, cancel: (o) => this.book.remove(bookKey(o.exchange, o.symbol), o), rules: (sym) => this.marketRules(account.exchange, account.market, sym) }, uow);
      }
    }
    this.group.flush(true);
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

  /**
   * Fills `order` in full (reduce-only: capped at the position): a resting order at its limit price
   * as a maker, a crossing or market order at `takerPrice` (the current price) as a taker.
   */
  private fill(order: OrderRow, ms: number, uow: UnitOfWork, takerPrice?: number): void {
    const account = this.accounts.get(accountKey(order.userId, order.exchange, order.market))!;
    const venue = venueRules(order.exchange, order.market);
    const { price, rateBps } = execution(venue, order.price, takerPrice);
    account.open.delete(order.clientOrderId);
    const s = settle(account, this.marketRules(order.exchange, order.market, order.symbol), venue, order, price, rateBps, uow);
    order.reserved = 0;
    order.filled = s.amount;
    order.status = s.amount === order.amount ? 'filled' : 'cancelled';
    order.updatedAt = ms;
    uow.orders.add(order);
    let fill: FillRow | undefined;
    if (s.amount > 0) {
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
        amount: s.amount,
        fee: s.fee,
        feeAsset: s.feeAsset,
        feeCost: s.feeCost,
        realizedPnl: s.realizedPnl,
        ts: ms,
      };
      uow.fills.push(fill);
    }
    uow.updates.push({ account, order, fill });
  }

  // ---------------------------------------------------------------------------------------------
  // Account operations (synchronous; PaperExchange wraps them in promises)

  /** A limit order, or a market order (`req.price` undefined): it fills at once at the current price. Committed on return. */
  createOrder(account: Account, req: PaperOrderRequest): OrderRow {
    const order = this.applyCreate(account, req);
    this.group.flush(false);
    return order;
  }

  /** createOrder, group-committed: resolves (with the order as placed) once it is on disk. */
  submitOrder(account: Account, req: PaperOrderRequest): Promise<OrderRow> {
    try {
      const placed = { ...this.applyCreate(account, req) };
      return this.group.committed().then(() => placed);
    } catch (err) {
      return Promise.reject(err);
    }
  }

  private applyCreate(account: Account, req: PaperOrderRequest): OrderRow {
    const rules = this.marketRules(account.exchange, account.market, req.symbol);
    const venue = venueRules(account.exchange, account.market);
    const current = this.priceUnits(account.exchange, rules.spec.symbol);
    const checked = checkOrder(account, rules, venue, req, current);
    const now = this.stamp(this.feed.nowMs());
    const uow = this.group.current;
    // a crossing (or market) order takes liquidity and pays the taker rate, a resting one the maker rate
    const takes = takesOnPlacement({ side: req.side, price: checked.price }, current, checked.market);
    const reserved = hold(account, rules, venue, { ...checked, side: req.side, feeBps: holdRateBps(venue, takes) }, uow);
    const order: OrderRow = {
      id: this.nextOrderId++,
      userId: account.userId,
      exchange: account.exchange,
      market: account.market,
      symbol: checked.symbol,
      clientOrderId: req.clientOrderId,
      side: req.side,
      price: checked.price,
      amount: checked.amount,
      filled: 0,
      status: 'open',
      reduceOnly: checked.reduceOnly,
      reserved,
      fee: 0,
      fillCost: 0,
      createdAt: now,
      updatedAt: now,
    };
    uow.orders.add(order);
    account.open.set(order.clientOrderId, order);
    if (takes) {
      this.fill(order, now, uow, current);
    } else {
      this.book.add(bookKey(order.exchange, checked.symbol), order);
      uow.updates.push({ account, order });
    }
    return order;
  }

  /** Cancels an open order; a filled or cancelled one is returned as it is; unknown → OrderNotFound. Committed on return. */
  cancelOrder(account: Account, symbol: string, clientOrderId: string): OrderRow {
    const { order, changed } = this.applyCancel(account, symbol, clientOrderId);
    if (changed) this.group.flush(false);
    return order;
  }

  /** cancelOrder, group-committed: resolves (with the order as cancelled) once it is on disk. */
  submitCancel(account: Account, symbol: string, clientOrderId: string): Promise<OrderRow> {
    try {
      const { order, changed } = this.applyCancel(account, symbol, clientOrderId);
      const result = { ...order };
      // an order already closed: answered as it stands, once what is pending about it is committed
      return changed || this.group.pending ? this.group.committed().then(() => result) : Promise.resolve(result);
    } catch (err) {
      return Promise.reject(err);
    }
  }

  private applyCancel(account: Account, symbol: string, clientOrderId: string): { order: OrderRow; changed: boolean } {
    const s = this.symbolRules(symbol).spec.symbol;
    const order = account.open.get(clientOrderId);
    if (!order || order.symbol !== s) {
      const past = this.pastOrder(account, clientOrderId);
      if (past && past.symbol === s) return { order: past, changed: false };
      throw new OrderNotFoundError(clientOrderId);
    }
    const uow = this.group.current;
    this.book.remove(bookKey(order.exchange, order.symbol), order);
    account.open.delete(clientOrderId);
    release(account, this.marketRules(order.exchange, order.market, order.symbol), order, uow);
    order.status = 'cancelled';
    order.updatedAt = this.stamp(this.feed.nowMs());
    uow.orders.add(order);
    uow.updates.push({ account, order });
    return { order, changed: true };
  }

  /** A closed order by client order id: written this turn and not committed yet, else from the store. */
  private pastOrder(account: Account, clientOrderId: string): OrderRow | undefined {
    return this.group.pendingOrder(account, clientOrderId) ?? this.store.orderByClientId(account, clientOrderId);
  }

  findOrder(account: Account, symbol: string, clientOrderId: string): OrderRow | null {
    const s = this.symbolRules(symbol).spec.symbol;
    const open = account.open.get(clientOrderId);
    if (open) return open.symbol === s ? open : null;
    const past = this.pastOrder(account, clientOrderId);
    return past && past.symbol === s ? past : null;
  }

  /** An order of the account by the venue's order id (stand-ins: lookups by exchange order id). */
  findOrderById(account: Account, id: number): OrderRow | null {
    for (const o of account.open.values()) if (o.id === id) return o;
    this.group.flush(false); // the store then holds every order written so far
    return this.store.orderById(account, id) ?? null;
  }

  /** The account's open orders of a symbol; without one, of every symbol (a venue's all-symbols read). */
  openOrders(account: Account, symbol?: string): OrderRow[] {
    const s = symbol === undefined ? undefined : this.symbolRules(symbol).spec.symbol;
    return [...account.open.values()].filter((o) => s === undefined || o.symbol === s).sort((a, b) => a.id - b.id);
  }

  fills(account: Account, symbol: string, sinceMs: number): FillRow[] {
    this.group.flush(false); // the store then holds every fill so far
    return this.store.fillsSince(account, this.symbolRules(symbol).spec.symbol, sinceMs);
  }

  balances(account: Account): BalanceRecord[] {
    return balanceRecords(account);
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
  positions(account: Account, symbol?: string): Position[] {
    return openPositions(account, symbol === undefined ? undefined : this.symbolRules(symbol).spec.symbol);
  }

  /**
   * Sets leverage and margin mode of a futures symbol as the account's venue rules them (paper-accounts.ts
   * changeLeverage: the venue's refusals, the tier's highest leverage for the position's notional now).
   */
  setLeverage(account: Account, symbol: string, leverage: number, marginMode: MarginMode = 'isolated'): void {
    const s = this.symbolRules(symbol).spec.symbol;
    const pos = account.positions.get(s);
    const notional = pos && pos.qty !== 0 ? fromUnits(mulDiv(Math.abs(pos.qty), this.priceUnits(account.exchange, s), SCALE)) : 0;
    changeLeverage(account, s, leverage, marginMode, venueRules(account.exchange, account.market), maxLeverageOf(marginTiers(account.exchange, s), notional));
    this.group.current.position(account, s);
    this.group.flush(false);
  }

  /** The margin mode alone (Binance POST /fapi/v1/marginType): false when it is already that mode (the venue answers -4046). */
  setMarginMode(account: Account, symbol: string, marginMode: MarginMode): boolean {
    const s = this.symbolRules(symbol).spec.symbol;
    if (!checkMarginModeChange(account, s, marginMode, venueRules(account.exchange, account.market))) return false;
    positionOf(account, s).marginMode = marginMode;
    this.group.current.position(account, s);
    this.group.flush(false);
    return true;
  }

  /** Resolves once `order`'s latest change is on disk (at once when it is): an answer about it is then an acknowledgement. */
  settled(order: OrderRow): Promise<void> {
    return this.group.current.orders.has(order) ? this.group.committed() : Promise.resolve();
  }

  /** Commits what is pending (the store then holds everything: audits, determinism checks). */
  flush(): void {
    this.group.flush(false);
  }

  close(): void {
    if (this.store.isOpen) this.group.flush(false);
    if (this.ownsStore) this.store.close();
  }
}

