/**
 * The paper exchange as the port sees it: PaperExchange (one user's ExchangePort onto the paper venue;
 * cheap, one per user, exchange and market) and PaperExchangeProvider (the embedded mode's provider).
 * The venue and its parts: paper-venue.ts (orchestration, store, feed), paper-accounts.ts (balances,
 * held funds, margin, settlement), paper-matching.ts (fill price and role), paper-order-rules.ts
 * (the venue rules applied to an order), paper-feed-driver.ts. What is simulated: docs/exchanges.md.
 */
import type {
  BalanceRecord,
  ExchangeMode,
  ExchangeName,
  ExchangePort,
  ExchangeCredential,
  ExchangeProvider,
  ExchangeRef,
  KeyPermissions,
  Fill,
  LimitOrderRequest,
  MarginMode,
  MarketOrderRequest,
  MarketRules,
  MarketType,
  Order,
  OrderUpdate,
  Position as PortPosition,
  PositionMode,
  PositionRisk,
  PriceSubscriptions,
  Unsubscribe,
} from './exchange.port';
import { InvalidOrderError } from './exchange.errors';
import { fromUnits } from './fixed-point';
import { accountKey } from './paper-accounts';
import { PaperVenue } from './paper-venue';
import { toFill, toOrder } from './paper-views';
import { PriceHub } from './price-hub';
import { CsvReplayFeed } from './paper-price-feed';
import { VenueStreamFeed, type PaperFeedStatus } from './paper-venue-feed';
import { venueRules } from './venues/venue-rules';
import { MAXIMUM_RULE_NAMES } from './venues/market-maximums';

export { PaperVenue, type PaperVenueOptions } from './paper-venue';
export { PaperFeedDriver, type PaperFeedDriverOptions } from './paper-feed-driver';

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
    // this venue's market's own steps and minimums (venues/markets.ts), as ccxt reports a market
    const r = this.venue.marketRules(this.exchange, this.market, symbol);
    const venue = venueRules(this.exchange, this.market);
    const rules: MarketRules = {
      priceStep: fromUnits(r.priceStep),
      amountStep: fromUnits(r.amountStep),
      minNotional: venue.minNotional ? fromUnits(r.minNotional) : 0,
      minAmount: fromUnits(r.minAmount),
      makerFee: venue.fees.maker,
      takerFee: venue.fees.taker,
    };
    // issue 39: the maximums the paper venue itself enforces on an order (paper-order-rules.ts: the amount
    // and value of one order, where its market's row states them), named as the venue names them. The open
    // orders per symbol and the price band are served by the stand-ins' exchangeInfo for the ccxt adapter
    // but not enforced by this venue: not reported, so a paper bot is never refused for what it would accept.
    const { maxAmount, maxNotional } = r.spec;
    if (maxAmount !== undefined) rules.maxAmount = Number(maxAmount);
    if (maxNotional !== undefined) rules.maxNotional = Number(maxNotional);
    if (maxAmount !== undefined || maxNotional !== undefined) {
      const names = MAXIMUM_RULE_NAMES[venue.id];
      rules.ruleNames = { ...(names.maxAmount ? { maxAmount: names.maxAmount } : {}), ...(names.maxNotional ? { maxNotional: names.maxNotional } : {}) };
    }
    return rules;
  }

  async createLimitOrder(request: LimitOrderRequest): Promise<Order> {
    if (request.price === undefined || request.price === null) throw new InvalidOrderError('a limit order needs a price');
    return toOrder(await this.venue.submitOrder(this.account, request));
  }

  async createMarketOrder(request: MarketOrderRequest): Promise<Order> {
    return toOrder(await this.venue.submitOrder(this.account, { ...request, price: undefined }));
  }

  async cancelOrder(symbol: string, clientOrderId: string): Promise<Order> {
    return toOrder(await this.venue.submitCancel(this.account, symbol, clientOrderId));
  }

  async openOrders(symbol: string): Promise<Order[]> {
    const open = this.venue.openOrders(this.account, symbol);
    const views = open.map(toOrder);
    await Promise.all(open.map((o) => this.venue.settled(o))); // never report an order not yet on disk
    return views;
  }

  async orderByClientId(symbol: string, clientOrderId: string): Promise<Order | null> {
    const o = this.venue.findOrder(this.account, symbol, clientOrderId);
    if (!o) return null;
    const view = toOrder(o);
    await this.venue.settled(o); // never report an order not yet on disk
    return view;
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
      port = new PaperExchange(this.venue, ref);
      this.ports.set(k, port);
    }
    return port;
  }

  /** Which feed prices the paper exchange (issue 39: the dashboard says so), with the venue streams' state. */
  feedStatus(): PaperFeedStatus {
    const feed = this.venue.feed;
    if (feed instanceof VenueStreamFeed) return feed.status();
    return { kind: feed instanceof CsvReplayFeed ? 'csv' : 'walk', streams: [] };
  }

  /** The paper venue's answer for this key (PaperVenue.keyPermissions): trading-only unless a test said otherwise. */
  async keyPermissions(exchange: ExchangeName, credential: ExchangeCredential): Promise<KeyPermissions> {
    return this.venue.keyPermissions(exchange, credential.apiKey);
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

