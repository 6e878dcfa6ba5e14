/**
 * One running bot: the pure grid engine's state plus what the runner believes rests on the exchange.
 * Everything a task does runs inside its bot's serial lane (GridRunner.serial), so fills, reconciles,
 * stops and hand-overs of one bot never interleave.
 *
 * The loop (see grid.engine.ts): apply fills → record them (deterministic event ids) → desired orders →
 * reconcile with the exchange by client order id (cancel first, then place what is missing).
 * Before every exchange call and every append the task checks that its runner still owns the bot.
 */
import type { ExchangePort, Fill as ExchangeFill, Order } from '@gridrocket/exchanges';
import { DuplicateOrderError, InsufficientFundsError, isExchangeError, OrderNotFoundError } from '@gridrocket/exchanges';
import type { BotEvent } from '@gridrocket/bots';
import {
  applyFills,
  desiredOrders,
  initialState,
  processFill,
  reconcile,
  stalledReason,
} from '../grid/grid.engine';
import { clientOrderIdPrefix, isOwnClientOrderId } from '../grid/client-order-id';
import { roundMoney } from '../grid/decimal';
import type { DesiredOrder, ExchangeOrderRef, Fill, GridConfig, GridState, MarketRules } from '../grid/grid.types';
import { eventId } from './event-id';

/** Thrown when the runner no longer owns the bot (hand-over, shutdown): the work stops silently. */
export class NotOwnedError extends Error {
  constructor(botId: string) {
    super(`bot ${botId} is no longer owned by this runner`);
  }
}

/** An error the bot cannot recover from: it stops with BotFailed / BotStartFailed and this reason. */
export class UnrecoverableError extends Error {}

export type RecordedTradingEvent = BotEvent & { id: string };

/** What a task needs from its runner. */
export interface TaskHost {
  owns(botId: string): boolean;
  /** An exchange call with rate limiting and retries of retryable errors. */
  call<T>(task: BotTask, fn: () => Promise<T>, retries?: number): Promise<T>;
  record(task: BotTask, events: RecordedTradingEvent[]): Promise<void>;
  /** Asks for a later converge of this bot (after a transient problem). */
  retryLater(task: BotTask, reason: string): void;
  backoff(attempt: number): Promise<void>;
}

export interface TaskIdentity {
  botId: string;
  userId: string;
  /** Revision of the BotStartRequested that began this run: part of the engine's id. */
  run: number;
  correlationId: string;
  causationId: string;
  exchange: ExchangeOrderRefAccount['exchange'];
  market: ExchangeOrderRefAccount['market'];
  symbol: string;
  config: GridConfig;
}

interface ExchangeOrderRefAccount {
  exchange: 'Binance' | 'Kucoin';
  market: 'spot' | 'futures';
}

/** The engine's bot id: the run is part of it, so every run has its own client order ids. */
export const engineBotId = (botId: string, run: number) => `${botId}/${run}`;

export function toGridRules(r: { priceStep: number; amountStep: number; minNotional: number; minAmount?: number }): MarketRules {
  return { priceStep: r.priceStep, amountStep: r.amountStep, minNotional: r.minNotional, minAmount: r.minAmount || undefined };
}

export function toGridFill(f: { clientOrderId: string; fillId: string; price: number; amount: number; fee: number }): Fill {
  return { clientOrderId: f.clientOrderId, fillId: f.fillId, price: f.price, amount: f.amount, fee: f.fee };
}

export class BotTask {
  readonly botId: string;
  readonly engineId: string;
  readonly prefix: string;
  state!: GridState;
  rules!: MarketRules;
  private portValue: ExchangePort | undefined;
  /** Called once the port is known (the runner subscribes to its fills then). */
  onPort: ((port: ExchangePort) => void) | null = null;
  /** The bot's orders the runner believes open on the exchange, by client order id. */
  readonly open = new Map<string, Order>();
  /** The bot's orders the exchange reported closed (filled or cancelled): never placed again. */
  readonly closed = new Map<string, ExchangeOrderRef & { status?: string; filled?: number; amount?: number }>();
  /** Fills received and not yet applied. */
  pendingFills: ExchangeFill[] = [];
  /** Ids of the events of this run already in the stream. */
  readonly recordedIds = new Set<string>();
  revision: bigint | null = null;
  /** Exchange time from which missed fills are fetched. */
  fillsSinceMs = 0;
  started = false;
  /** Prepared and recovered: safe to converge. */
  ready = false;
  released = false;
  drainScheduled = false;
  awaitingAttempts = 0;
  retryTimer: NodeJS.Timeout | null = null;
  detach: (() => void) | null = null;

  constructor(readonly id: TaskIdentity, private readonly host: TaskHost) {
    this.botId = id.botId;
    this.engineId = engineBotId(id.botId, id.run);
    this.prefix = clientOrderIdPrefix(this.engineId);
  }

  get port(): ExchangePort {
    return this.portValue!;
  }

  set port(port: ExchangePort) {
    this.portValue = port;
    this.onPort?.(port);
  }

  get hasPort(): boolean {
    return this.portValue !== undefined;
  }

  get config(): GridConfig {
    return this.id.config;
  }

  owns(clientOrderId: string): boolean {
    return clientOrderId.startsWith(this.prefix) && isOwnClientOrderId(this.engineId, clientOrderId);
  }

  ensureOwned(): void {
    if (this.released || !this.host.owns(this.botId)) throw new NotOwnedError(this.botId);
  }

  /** Rebuilds the engine from the fills the bot's history holds (in the order they were applied). */
  rebuild(rules: MarketRules, recordedFills: Fill[]): void {
    this.rules = rules;
    this.state = applyFills(initialState(this.config, rules, this.engineId), recordedFills);
  }

  // -------------------------------------------------------------------------------------------
  // Exchange events

  /** A fill pushed or polled for this bot: queued, applied in the bot's lane. */
  acceptFill(fill: ExchangeFill): void {
    if (!this.owns(fill.clientOrderId)) return;
    this.pendingFills.push(fill);
  }

  /** An order update without a fill: closed orders are remembered (never re-placed). */
  acceptOrder(order: Order): void {
    if (!this.owns(order.clientOrderId) || order.status === 'open') return;
    this.open.delete(order.clientOrderId);
    this.closed.set(order.clientOrderId, order);
  }

  /** Applies the queued fills (exchange order), recording each before anything acts on it. */
  async applyPending(): Promise<boolean> {
    if (this.pendingFills.length === 0) return false;
    const fills = this.pendingFills;
    this.pendingFills = [];
    const events: RecordedTradingEvent[] = [];
    let state = this.state;
    const run = this.id.run;
    const botId = this.botId;
    for (const f of fills) {
      const r = processFill(state, toGridFill(f));
      state = r.state;
      if (f.timestamp > this.fillsSinceMs) this.fillsSinceMs = f.timestamp;
      for (const e of r.effects) {
        switch (e.type) {
          case 'BuyFilled':
            events.push({
              id: eventId(botId, 'fill', f.fillId),
              type: 'OrderFilled',
              data: { botId, run, fillId: f.fillId, clientOrderId: f.clientOrderId, side: 'buy', price: e.price, amount: e.amount, fee: e.fee, cycle: e.cycle, level: e.level, late: e.late, at: f.timestamp },
            });
            break;
          case 'TakeProfitFilled':
            events.push({
              id: eventId(botId, 'fill', f.fillId),
              type: 'TakeProfitFilled',
              data: { botId, run, fillId: f.fillId, clientOrderId: f.clientOrderId, side: 'sell', price: e.price, amount: e.amount, fee: e.fee, cycle: e.cycle, tpSeq: e.tpSeq, profit: e.profit, at: f.timestamp },
            });
            events.push({
              id: eventId(botId, 'profit', f.fillId),
              type: 'ProfitRealized',
              data: { botId, amount: e.profit, totalProfit: roundMoney(state.profit), cycle: e.cycle },
            });
            break;
          case 'CycleCompleted':
            events.push({
              id: eventId(this.engineId, 'cycle', e.cycle),
              type: 'CycleCompleted',
              data: { botId, run, cycle: e.cycle, profit: e.profit, nextCycle: e.nextCycle },
            });
            break;
          default:
            break; // TakeProfitDefined: recorded when placed; FillIgnored: nothing happened
        }
      }
    }
    if (state === this.state) return false;
    // Record first: the engine moves on (and orders change) only once its fills are in the history.
    await this.host.record(this, events);
    this.state = state;
    return true;
  }

  // -------------------------------------------------------------------------------------------
  // Recovery and reconciliation

  /** Reads the exchange: the bot's open orders, and the fills it missed (applied and recorded). */
  /**
   * After a restart: the exchange's open orders, the fills missed while down, and the cancels that
   * happened but did not reach the history (a crash between the cancel and its append).
   * `unclosed`: orders the history shows placed and neither cancelled nor fully filled.
   */
  async recover(unclosed: string[] = []): Promise<void> {
    const symbol = this.id.symbol;
    this.ensureOwned();
    const open = await this.host.call(this, () => this.port.openOrders(symbol));
    this.open.clear();
    for (const o of open) if (this.owns(o.clientOrderId)) this.open.set(o.clientOrderId, o);
    await this.fetchMissedFills();
    await this.batch(async () => {
      for (const clientOrderId of unclosed) {
        if (this.open.has(clientOrderId)) continue;
        this.ensureOwned();
        const order = await this.host.call(this, () => this.port.orderByClientId(symbol, clientOrderId));
        if (order?.status !== 'cancelled') continue;
        this.closed.set(clientOrderId, order);
        await this.recordOrders([
          {
            id: eventId(this.botId, 'cancel', clientOrderId),
            type: 'OrderCancelled',
            data: { botId: this.botId, run: this.id.run, clientOrderId, filled: order.filled, at: order.updatedAt },
          },
        ]);
      }
    });
  }

  async fetchMissedFills(): Promise<void> {
    this.ensureOwned();
    const since = Math.max(0, this.fillsSinceMs - 60_000);
    const fills = await this.host.call(this, () => this.port.recentFills(this.id.symbol, since));
    const known = new Set(this.state.processedFillIds);
    for (const f of fills) if (this.owns(f.clientOrderId) && !known.has(f.fillId)) this.pendingFills.push(f);
    await this.applyPending();
  }

  /** What the reconcile would place now: for the start's balance check. */
  plan() {
    return reconcile(desiredOrders(this.config, this.rules, this.state), [...this.open.values()], {
      botId: this.engineId,
      closed: [...this.closed.values()],
    });
  }

  /**
   * Brings the exchange to the engine's desired orders: cancel what is not desired (first), adopt
   * what exists, resolve desired orders the exchange reports closed (their fills), place the rest.
   */
  async converge(): Promise<void> {
    for (let round = 0; round < 10; round++) {
      await this.applyPending();
      const plan = this.plan();
      if (plan.awaitingFills.length > 0) {
        const progressed = await this.resolveAwaiting(plan.awaitingFills.map((a) => a.desired));
        if (progressed) continue;
        return; // retried later
      }
      let changed = false;
      await this.batch(async () => {
        for (const o of plan.toCancel) await this.cancel(o.clientOrderId);
        for (const d of plan.toPlace) {
          await this.place(d);
          if (this.pendingFills.length > 0 || this.closed.has(d.clientOrderId)) {
            changed = true;
            break; // a fill or a closed order changes what is desired: plan again
          }
        }
      });
      if (!changed && this.pendingFills.length === 0) break;
    }
    this.awaitingAttempts = 0;
    const stalled = stalledReason(this.config, this.rules, this.state);
    if (stalled) throw new UnrecoverableError(stalled);
  }

  /** Desired orders the exchange reports closed: their fills are fetched and applied. */
  private async resolveAwaiting(orders: DesiredOrder[]): Promise<boolean> {
    const before = this.state;
    await this.fetchMissedFills();
    if (this.state !== before) return true;
    for (const d of orders) {
      this.ensureOwned();
      const o = await this.host.call(this, () => this.port.orderByClientId(this.id.symbol, d.clientOrderId));
      if (o && o.status === 'open') {
        this.closed.delete(d.clientOrderId);
        this.open.set(d.clientOrderId, o);
        return true;
      }
      if (o && o.status === 'cancelled' && o.filled < o.amount) {
        const partly = o.filled > 0 ? ` after ${o.filled} of ${o.amount} filled` : '';
        // Not cancelled by this bot (it only cancels orders it no longer wants): a person or another tool did.
        if (++this.awaitingAttempts > 3) {
          throw new UnrecoverableError(
            `The ${d.side} order ${d.clientOrderId} at ${d.price} was cancelled on the exchange outside GridRocket${partly}; the grid cannot continue without it`,
          );
        }
      }
    }
    if (++this.awaitingAttempts > 30) {
      throw new UnrecoverableError(`The exchange reports orders of this bot closed but never returned their fills (${orders.map((o) => o.clientOrderId).join(', ')})`);
    }
    this.host.retryLater(this, 'waiting for fills of closed orders');
    return false;
  }

  /**
   * Order placements and cancels made inside `batch` are recorded together, in one append, when
   * it ends (also when it fails). Safe: a crash before the append leaves orders the resume finds
   * by client order id and records then (event ids are deterministic, so nothing twice).
   */
  private deferred: RecordedTradingEvent[] | null = null;

  private async recordOrders(events: RecordedTradingEvent[]): Promise<void> {
    if (this.deferred) this.deferred.push(...events);
    else await this.host.record(this, events);
  }

  async batch<T>(work: () => Promise<T>): Promise<T> {
    if (this.deferred) return work();
    this.deferred = [];
    try {
      return await work();
    } finally {
      const events = this.deferred;
      this.deferred = null;
      if (events.length) await this.host.record(this, events);
    }
  }

  /** Cancels one of the bot's orders and records it. */
  async cancel(clientOrderId: string): Promise<void> {
    this.ensureOwned();
    let final: Order | null = null;
    try {
      final = await this.host.call(this, () => this.port.cancelOrder(this.id.symbol, clientOrderId));
    } catch (err) {
      if (!(err instanceof OrderNotFoundError)) throw err;
    }
    this.open.delete(clientOrderId);
    this.closed.set(clientOrderId, final ?? { clientOrderId, status: 'cancelled' });
    await this.recordOrders([
      {
        id: eventId(this.botId, 'cancel', clientOrderId),
        type: 'OrderCancelled',
        data: { botId: this.botId, run: this.id.run, clientOrderId, filled: final?.filled ?? 0, at: final?.updatedAt ?? 0 },
      },
    ]);
  }

  /**
   * Places one desired order, never twice: the id is looked up on the exchange first (a placement
   * whose answer was lost — timeout, crash — is found there and adopted), and a timed-out placement
   * is looked up again before any retry.
   */
  async place(d: DesiredOrder): Promise<void> {
    const symbol = this.id.symbol;
    for (let attempt = 1; ; attempt++) {
      this.ensureOwned();
      const existing = await this.host.call(this, () => this.port.orderByClientId(symbol, d.clientOrderId));
      let order: Order;
      if (existing) {
        order = existing;
      } else {
        this.ensureOwned();
        try {
          order = await this.port.createLimitOrder({
            symbol,
            side: d.side,
            price: d.price,
            amount: d.amount,
            clientOrderId: d.clientOrderId,
            ...(d.reduceOnly ? { reduceOnly: true } : {}),
          });
        } catch (err) {
          if (err instanceof DuplicateOrderError) continue; // it exists: adopt it on the next lookup
          if (isExchangeError(err) && err.retryable && attempt < 6) {
            await this.host.backoff(attempt); // the order may exist: look it up before retrying
            continue;
          }
          if (err instanceof InsufficientFundsError) {
            throw new UnrecoverableError(`Insufficient funds on ${this.id.exchange} ${this.id.market} to place the ${d.role === 'buy' ? 'buy' : 'take-profit'} order at ${d.price}`);
          }
          if (isExchangeError(err) && !err.retryable) throw new UnrecoverableError(err.message);
          throw err;
        }
      }
      if (order.status === 'open') {
        this.open.set(order.clientOrderId, order);
        this.closed.delete(order.clientOrderId);
      } else {
        this.open.delete(order.clientOrderId);
        this.closed.set(order.clientOrderId, order);
      }
      await this.recordPlaced(d, order);
      return;
    }
  }

  async recordPlaced(d: DesiredOrder, order: Order): Promise<void> {
    const base = {
      botId: this.botId,
      run: this.id.run,
      clientOrderId: d.clientOrderId,
      exchangeOrderId: order.exchangeOrderId,
      side: d.side,
      price: d.price,
      amount: d.amount,
      cycle: d.cycle,
      reduceOnly: d.reduceOnly,
      at: order.updatedAt,
    };
    await this.recordOrders([
      d.role === 'buy'
        ? { id: eventId(this.botId, 'placed', d.clientOrderId), type: 'OrderPlaced', data: { ...base, role: 'buy', level: d.level! } }
        : { id: eventId(this.botId, 'placed', d.clientOrderId), type: 'TakeProfitPlaced', data: { ...base, role: 'take-profit', tpSeq: d.tpSeq! } },
    ]);
  }

  /** Cancels every open order of this run (stop with cancel-all, a failed bot). */
  async cancelAll(): Promise<void> {
    const open = await this.host.call(this, () => this.port.openOrders(this.id.symbol));
    await this.batch(async () => {
      for (const o of open) if (this.owns(o.clientOrderId)) await this.cancel(o.clientOrderId);
    });
  }
}
