// Over 400 lines: one bot's executor (exchange events, recovery, converge, place/cancel) kept together; risk steps live in risk-steps.ts.
/**
 * One running bot: the pure grid engine's state plus what the runner believes rests on the exchange.
 * It executes what the pure workflow (bot-workflow.ts) decides — places, cancels, records — and owns
 * the exchange calls. Everything a task does runs inside its bot's serial lane (GridRunner.serial), so
 * fills, reconciles, stops and hand-overs of one bot never interleave. Before every exchange call and
 * every record the task checks that its runner still owns the bot.
 */
import type { RecordedEvent } from '@gridrocket/event-store';
import type { ExchangePort, Fill as ExchangeFill, Order } from '@gridrocket/exchanges';
import { BadApiKeyError, DuplicateOrderError, InsufficientFundsError, isExchangeError, OrderNotFoundError } from '@gridrocket/exchanges';
import type { RunBook, RunnerReport, TradingEvent } from '@gridrocket/bots';
import { clientOrderIdPrefix, parseClientOrderId } from '../grid/client-order-id';
import type { DesiredOrder, ExchangeOrderRef, Fill, GridConfig, GridState, MarketRules } from '../grid/grid.types';
import { cancelledFact, placedFact, type WorkflowState } from './bot-workflow';
import { boundedSteps } from './bounded-steps';
import { checkBot, type CheckContext, type CheckResult } from './watchdog-steps';
import type { GridStyle, StyleView } from '../styles/grid-style';
import { fallbackStyle } from '../styles/registry';
import { UnrecoverableError } from './task-errors';

/**
 * Orders of one bot placed (or cancelled) at once in a round (issue 16). A start's ladder is usually
 * a handful of orders and goes out whole; a long one (50 rungs) goes out 8 at a time. Each placement
 * makes a rate-limited lookup first (ExchangeCaller: 10 at once, then 8 a second per user+exchange on
 * live venues), so more than 8 in flight would only queue at the token bucket, and each step's
 * ownership check stays close to its call; on paper, 8 placements share one group commit.
 */
export const ORDERS_IN_FLIGHT = 8;

/** Thrown when the runner no longer owns the bot (hand-over, shutdown): the work stops silently. */
export class NotOwnedError extends Error {
  constructor(botId: string) {
    super(`bot ${botId} is no longer owned by this runner`);
  }
}

export { UnrecoverableError } from './task-errors';

/** Why a bot failed when the venue refused its API key (issue 29): what happened and what to do. */
export const keyRefusedReason = (exchange: string) =>
  `${exchange} rejected the bot's API key (invalid or deleted key, secret, passphrase, IP or permissions), so the bot stopped. Check the key on the Security page or add a new one, then start the bot again.`;

/** What a task needs from its runner. */
export interface TaskHost {
  owns(botId: string): boolean;
  /** An exchange call with rate limiting and retries of retryable errors. */
  call<T>(task: BotTask, fn: () => Promise<T>, retries?: number): Promise<T>;
  /**
   * Records the run's trading facts through the bot decider; `report`, when given, is the lifecycle
   * report they end with, recorded in the same append (or alone when there are no facts).
   */
  record(task: BotTask, facts: TradingEvent[], report?: RunnerReport): Promise<void>;
  /** Asks for a later converge of this bot (after a transient problem). */
  retryLater(task: BotTask, reason: string): void;
  backoff(attempt: number): Promise<void>;
}

export interface TaskIdentity {
  botId: string;
  userId: string;
  /** Revision of the BotStartRequested that began this run (the history facts carry it). */
  run: number;
  correlationId: string;
  causationId: string;
  exchange: 'Binance' | 'Kucoin';
  market: 'spot' | 'futures';
  symbol: string;
  config: GridConfig;
  /** Issue 40: the futures bot's margin mode, set on the venue before its first order (absent: isolated). */
  marginMode?: 'isolated' | 'cross';
  /**
   * The bot's grid style (styles/registry.ts styleFor) and its engine's configuration; absent: the ladder,
   * whose configuration is `config` (a non-ladder style's `config` is the bot's ladder fields, unused but
   * for its botType and leverage).
   */
  style?: GridStyle;
  styleConfig?: unknown;
}

/**
 * The engine's bot id: the bot's own id, whatever the run, so its client order ids (`gr-<hash>-…`)
 * are the bot's across runs (docs/runner.md, "A bot across runs"). `_run` is accepted for callers of
 * the former per-run ids and ignored.
 */
export const engineBotId = (botId: string, _run?: number) => botId;

export function toGridRules(r: { priceStep: number; amountStep: number; minNotional: number; minAmount?: number }): MarketRules {
  return { priceStep: r.priceStep, amountStep: r.amountStep, minNotional: r.minNotional, minAmount: r.minAmount || undefined };
}

export function toGridFill(f: { clientOrderId: string; fillId: string; price: number; amount: number; fee: number; netAmount?: number }): Fill {
  return { clientOrderId: f.clientOrderId, fillId: f.fillId, price: f.price, amount: f.amount, fee: f.fee, ...(f.netAmount !== undefined ? { netAmount: f.netAmount } : {}) };
}

export class BotTask {
  readonly botId: string;
  readonly engineId: string;
  readonly prefix: string;
  /** The style's engine (its state: replaced, never mutated), undefined until rebuilt from the history. */
  engine: unknown = undefined;
  rules!: MarketRules;
  /** The venue's fee rates (MarketRules.makerFee), when it gives them. */
  makerFee: number | undefined;
  private portValue: ExchangePort | undefined;
  /** Called once the port is known (the runner subscribes to its fills then). */
  onPort: ((port: ExchangePort) => void) | null = null;
  /** The bot's orders the runner believes open on the exchange, by client order id. */
  readonly open = new Map<string, Order>();
  /** The bot's orders the exchange reported closed (filled or cancelled): never placed again. */
  readonly closed = new Map<string, ExchangeOrderRef & { status?: string; filled?: number; amount?: number }>();
  /** Fills received and not yet applied. */
  pendingFills: ExchangeFill[] = [];
  /** Exchange time from which missed fills are fetched. */
  fillsSinceMs = 0;
  /** When this bot's last watchdog check succeeded (wall-clock ms); null: never (issue 39). */
  lastCheckAt: number | null = null;
  /** Since when the account's venue stream is down, as this bot recorded it (issue 39); null: not down. */
  streamDownSince: number | null = null;
  /** Until when the venue's rate limit pauses this bot's calls, as this bot recorded it (issue 39); 0: none. */
  rateLimitedUntil = 0;
  /** The start request of the run this task runs (a stop of an attached task does not read it again). */
  runEvent: RecordedEvent | null = null;
  started = false;
  /** Prepared and recovered: safe to converge. */
  ready = false;
  released = false;
  /** Issue 40: the venue liquidated the bot's position; its lane records it and stops the bot, nothing else runs. */
  liquidated = false;
  /** Issue 40: LiquidationNear recorded for the price's current approach (re-armed once it is twice as far away). */
  liquidationWarned = false;
  drainScheduled = false;
  awaitingAttempts = 0;
  retryTimer: NodeJS.Timeout | null = null;
  /** The latest market price seen (risk-steps.ts), null until a tick; the trailing peak of a cycle (in memory). */
  lastPrice: number | null = null;
  trail: { cycle: number; peak: number } | null = null;
  /** The watchdog: since when the price has been above the ladder (watchdog.ts), null when it is not. */
  outsideLadderSince: number | null = null;
  detach: (() => void) | null = null;
  /** Frees this bot's place in the runner's reaction gate (reaction-gate.ts) while it reacts to a fill. */
  reactionSlot: (() => void) | null = null;

  constructor(readonly id: TaskIdentity, private readonly host: TaskHost) {
    this.botId = id.botId;
    this.engineId = engineBotId(id.botId, id.run);
    this.prefix = clientOrderIdPrefix(this.engineId);
  }

  get port(): ExchangePort {
    if (!this.portValue) throw new Error(`bot ${this.botId}: no exchange port yet`);
    return this.portValue;
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

  /** The bot's grid style (the ladder when its identity names none). */
  get style(): GridStyle {
    return this.id.style ?? fallbackStyle;
  }

  /** The style's engine configuration. */
  get styleConfig(): unknown {
    return this.id.style ? this.id.styleConfig : this.id.config;
  }

  /** The ladder's engine (the risk steps, runner/risk-steps.ts, read and replace it): `engine` under the ladder's type. */
  get state(): GridState {
    return this.engine as GridState;
  }

  set state(s: GridState) {
    this.engine = s;
  }

  owns(clientOrderId: string): boolean {
    // the prefix carries the bot's hash: a well-formed id under it is this bot's (isOwnClientOrderId, without re-hashing)
    if (!clientOrderId.startsWith(this.prefix)) return false;
    // a style may have ids of its own beside the ladder's (GridStyle.ownsOrderId)
    return parseClientOrderId(clientOrderId) !== null || this.style.ownsOrderId?.(clientOrderId) === true;
  }

  /** An exchange call of this bot through its runner (rate limit, retries). */
  call<T>(fn: () => Promise<T>, retries?: number): Promise<T> {
    return this.host.call(this, fn, retries);
  }

  retryLater(reason: string): void {
    this.host.retryLater(this, reason);
  }

  /** Waits the runner's back-off before the `attempt`-th try of a step again (the stop's close waiting for its fills). */
  backoff(attempt: number): Promise<void> {
    return this.host.backoff(attempt);
  }

  ensureOwned(): void {
    if (this.released || !this.host.owns(this.botId)) throw new NotOwnedError(this.botId);
  }

  /** Rebuilds the engine from the bot's history, all runs (each continues or restarts the book). */
  rebuild(rules: MarketRules, runs: readonly RunBook[]): void {
    this.rules = rules;
    this.engine = this.style.replay(runs, rules, this.engineId);
  }

  /** The fill ids the engine has applied (all runs). */
  recordedFillIds(): readonly string[] {
    return this.style.processedFillIds(this.engine);
  }

  /** The orders that should rest now, whatever the style. */
  desiredOrders(): DesiredOrder[] {
    return this.style.active(this.styleConfig, this.config, this.rules, this.engine);
  }

  /** The engine now, whatever the style (compared by identity: it changes only when a fill applies). */
  private engineNow(): unknown {
    return this.engine;
  }

  /** The side the bot's position is on and its size, as its style counts it. */
  held(): { sign: 1 | -1; amount: number } {
    return this.style.held(this.engine);
  }

  /** A stop-loss is under way (its market close and the bot's failure follow). */
  stopLossUnderWay(): boolean {
    return this.style.stopLossUnderWay(this.engine);
  }

  /** The bot watches the market price (stop-loss, trailing, follow). */
  watchesPrice(): boolean {
    return this.style.watchesPrice(this.styleConfig, this.config);
  }

  /** The style's view of this bot now (its pure decisions read it). */
  styleView(): StyleView<unknown, unknown> {
    const w = this.workflow();
    return { ...w, style: this.styleConfig, engine: this.engine };
  }

  /** The workflow's view of this bot now. */
  workflow(): WorkflowState {
    const { symbol, market, exchange } = this.id;
    const quote = market === 'futures' ? 'USDT' : symbol.endsWith('USDC') ? 'USDC' : 'USDT';
    return {
      botId: this.botId,
      run: this.id.run,
      config: this.config,
      rules: this.rules,
      engine: this.state,
      open: [...this.open.values()],
      closed: this.closed, // read only by the deciders: not copied (it holds every order the run closed)
      started: this.started,
      quote,
      base: market === 'spot' ? symbol.slice(0, symbol.length - quote.length) : undefined,
      venue: `${exchange} ${market}`,
      makerFee: this.makerFee,
    };
  }

  // -------------------------------------------------------------------------------------------
  // Exchange events

  /** A fill pushed or polled for this bot: queued, applied in the bot's lane. */
  acceptFill(fill: ExchangeFill): void {
    if (!this.owns(fill.clientOrderId)) return;
    this.pendingFills.push(fill);
  }

  /**
   * An order update without a fill: closed orders are remembered (never re-placed). True when it is
   * news to the bot (not the answer to a cancel it is making): then it should converge.
   */
  acceptOrder(order: Order): boolean {
    if (!this.owns(order.clientOrderId) || order.status === 'open') return false;
    this.open.delete(order.clientOrderId);
    this.closed.set(order.clientOrderId, order);
    return !this.cancelling.has(order.clientOrderId);
  }

  /** Orders this bot is cancelling now (their cancel's own update needs no converge). */
  private readonly cancelling = new Set<string>();

  /** Applies the queued fills (exchange order), recording them before anything acts on them (in converge's batch: in one append with what acts on them). */
  async applyPending(): Promise<boolean> {
    if (this.pendingFills.length === 0) return false;
    const fills = this.pendingFills;
    this.pendingFills = [];
    for (const f of fills) if (f.timestamp > this.fillsSinceMs) this.fillsSinceMs = f.timestamp;
    const d = this.unrecorded.size > 0 && fills.some((f) => this.unrecorded.has(f.clientOrderId)) ? this.decideWithPlacements(fills) : this.style.decideFills(this.styleView(), fills);
    if (d.engine === this.engine) return false;
    await this.recordFacts(d.facts); // recorded before the engine moves on
    this.engine = d.engine;
    return true;
  }

  /**
   * Orders whose fills were found at a recovery while the history lacks their placement: a kill came
   * after the venue accepted the order and before its record, and the order filled while the runner was
   * down. Their placement is recorded before their first fill (`decideWithPlacements`), or nothing in
   * the history would say the order was ever placed, nor whether as an opening order or a close.
   */
  private readonly unrecorded = new Set<string>();
  /** The placements this task recorded at its recovery (the history it was given does not show them yet). */
  private readonly placementsRecorded = new Set<string>();

  /**
   * The fills one at a time: before the fill of an order in `unrecorded`, its placement as the engine
   * wanted it just then (its desired order: role, level, reduce-only), dated by the venue's fill (the
   * placement's own time is not returned with it); an order the engine no longer wants is left as it is.
   */
  private decideWithPlacements(fills: readonly ExchangeFill[]): { engine: unknown; facts: TradingEvent[] } {
    const facts: TradingEvent[] = [];
    let engine = this.engine;
    for (const f of fills) {
      if (this.unrecorded.has(f.clientOrderId)) {
        const d = this.style.active(this.styleConfig, this.config, this.rules, engine).find((o) => o.clientOrderId === f.clientOrderId);
        if (d) facts.push(placedFact(this.botId, this.id.run, d, { exchangeOrderId: f.exchangeOrderId, updatedAt: f.timestamp }));
        if (d) this.placementsRecorded.add(f.clientOrderId);
        this.unrecorded.delete(f.clientOrderId);
      }
      const step = this.style.decideFills({ ...this.styleView(), engine }, [f]);
      engine = step.engine;
      facts.push(...step.facts);
    }
    return { engine, facts };
  }

  // -------------------------------------------------------------------------------------------
  // Recovery and reconciliation

  /**
   * After a restart: the exchange's open orders, the fills missed while down, and the cancels that
   * happened but did not reach the history (a crash between the cancel and its append).
   * `unclosed`: orders the history shows placed and neither cancelled nor fully filled; `placed`: whether
   * the history shows an order placed at all (a missed fill of one it does not gets its placement first).
   */
  async recover(unclosed: string[] = [], placed: (clientOrderId: string) => boolean = () => true): Promise<void> {
    const symbol = this.id.symbol;
    this.ensureOwned();
    const open = await this.host.call(this, () => this.port.openOrders(symbol));
    this.open.clear();
    for (const o of open) if (this.owns(o.clientOrderId)) this.open.set(o.clientOrderId, o);
    await this.fetchMissedFills(this.fillsSinceMs, placed);
    await this.batch(async () => {
      // Orders resting on the venue whose placement the history lacks (a kill after the venue accepted them
      // and before their record): recorded now, as the engine wants them (role, level, reduce-only), since
      // the converge adopts them by client order id; one the engine no longer wants gets its placement
      // before a fill of it, if one comes (decideWithPlacements), and is cancelled by the converge.
      const desired = this.style.active(this.styleConfig, this.config, this.rules, this.engine);
      const adopted: TradingEvent[] = [];
      for (const o of this.open.values()) {
        if (placed(o.clientOrderId) || this.placementsRecorded.has(o.clientOrderId)) continue;
        const d = desired.find((x) => x.clientOrderId === o.clientOrderId);
        if (!d) {
          this.unrecorded.add(o.clientOrderId);
          continue;
        }
        adopted.push(placedFact(this.botId, this.id.run, d, o));
        this.placementsRecorded.add(o.clientOrderId);
      }
      if (adopted.length > 0) await this.recordFacts(adopted);
      for (const clientOrderId of unclosed) {
        if (this.open.has(clientOrderId)) continue;
        this.ensureOwned();
        const order = await this.host.call(this, () => this.port.orderByClientId(symbol, clientOrderId));
        if (order?.status !== 'cancelled') continue;
        this.closed.set(clientOrderId, order);
        await this.recordFacts([cancelledFact(this.botId, this.id.run, clientOrderId, order)]);
      }
    });
  }

  async fetchMissedFills(sinceMs = this.fillsSinceMs, placed?: (clientOrderId: string) => boolean): Promise<void> {
    this.ensureOwned();
    // Never "since 0": a venue answers only a window after `since` (issue 10 finding 1).
    const since = Math.max(1, sinceMs - 60_000);
    const fills = await this.host.call(this, () => this.port.recentFills(this.id.symbol, since));
    const known = new Set(this.recordedFillIds());
    for (const f of fills) {
      if (!this.owns(f.clientOrderId) || known.has(f.fillId)) continue;
      this.pendingFills.push(f);
      if (placed && !placed(f.clientOrderId)) this.unrecorded.add(f.clientOrderId);
    }
    await this.applyPending();
  }

  /**
   * Brings the exchange to the engine's desired orders: cancel what is not desired (first), adopt
   * what exists, resolve desired orders the exchange reports closed (their fills), place the rest.
   * `report` (a start's MarkStarted, a resume's MarkResumed) is recorded once converge succeeded: in
   * the same append as what it placed, or alone when it placed nothing.
   */
  async converge(report?: RunnerReport): Promise<void> {
    // A bot without price-watching risk steps (they record before they act) records a fill together with
    // what it asks of the exchange (the cancel of the old take-profit, the new one) in ONE append, after
    // those calls: a crash in between is a crash between an exchange action and its record, which the
    // resume repairs (missed fills fetched, orders adopted by client order id, cancels found).
    if (!this.watchesPrice() && !this.stopLossUnderWay()) return this.batch(() => this.convergeNow(), report);
    await this.convergeNow();
    if (report) await this.host.record(this, [], report);
  }

  private async convergeNow(): Promise<void> {
    await this.applyPending();
    await this.style.applyPrice(this); // the style's price step: stop-loss, trailing, follow (issue 14)
    for (let round = 0; round < 10; round++) {
      await this.applyPending();
      const actions = this.style.decideConverge(this.styleView());
      const awaiting = actions.find((a) => a.type === 'await-fills');
      if (awaiting && awaiting.type === 'await-fills') {
        if (await this.resolveAwaiting(awaiting.orders)) continue;
        return; // retried later
      }
      const stalled = actions.findIndex((a) => a.type === 'report'); // stalled: said below, after its cancels
      const planned = stalled < 0 ? actions : actions.slice(0, stalled);
      const cancels = planned.flatMap((a) => (a.type === 'cancel' ? [a.clientOrderId] : []));
      const places = planned.flatMap((a) => (a.type === 'place' ? [a.order] : []));
      let changed = false;
      await this.batch(async () => {
        // The round's cancels together, then its placements together (cancels first: they free the funds
        // and, on spot, the coins the old take-profit held). What succeeded is recorded by the batch
        // even when one of them fails; the earliest failure is then thrown.
        await boundedSteps(cancels, ORDERS_IN_FLIGHT, (id) => this.cancel(id));
        await boundedSteps(
          places,
          ORDERS_IN_FLIGHT,
          async (order) => {
            await this.place(order);
            // a fill or an order closed at once changes what is desired: plan again (no further placement)
            if (this.pendingFills.length > 0 || this.closed.has(order.clientOrderId)) changed = true;
          },
          () => changed || this.pendingFills.length > 0,
        );
      });
      if (!changed && this.pendingFills.length === 0) break;
    }
    this.awaitingAttempts = 0;
    // the style's end of a converge: a stop-loss's close, a grid that cannot make progress on its own
    const reason = await this.style.afterConverge(this);
    if (reason) throw new UnrecoverableError(reason);
  }

  /** Desired orders the exchange reports closed: their fills are fetched and applied. */
  private async resolveAwaiting(orders: DesiredOrder[]): Promise<boolean> {
    const before = this.engineNow();
    // A closed order's fills are not older than its placement: ask from there when it is earlier.
    const placedAt = orders.map((d) => this.closed.get(d.clientOrderId) as { updatedAt?: number } | undefined).map((o) => o?.updatedAt ?? Infinity);
    await this.fetchMissedFills(Math.min(this.fillsSinceMs, ...placedAt));
    if (this.engineNow() !== before) return true;
    for (const d of orders) {
      this.ensureOwned();
      const o = await this.host.call(this, () => this.port.orderByClientId(this.id.symbol, d.clientOrderId));
      if (o && o.status === 'open') {
        this.closed.delete(d.clientOrderId);
        this.open.set(d.clientOrderId, o);
        return true;
      }
      if (o && o.status === 'cancelled' && o.filled < o.amount) {
        // Not cancelled by this bot (it only cancels orders it no longer wants): a person, another tool or the venue did.
        // Nothing filled: replace it now. Part filled: first give the venue a few rounds to return those fills.
        if (o.filled > 0 && ++this.awaitingAttempts <= 3) continue;
        if (await this.replaceCancelled(d, o)) return true;
      }
    }
    if (++this.awaitingAttempts > 30) {
      throw new UnrecoverableError(`The exchange reports orders of this bot closed but never returned their fills (${orders.map((o) => o.clientOrderId).join(', ')})`);
    }
    this.host.retryLater(this, 'waiting for fills of closed orders');
    return false;
  }

  /**
   * An order of the grid that the venue reports cancelled outside GridRocket is replaced under a new
   * client order id (grid.engine.ts rearmOrder; docs/watchdog.md): the cancel and the replacement are
   * recorded first (OrderCancelled, BotDriftDetected repaired with `replacedBy`), then the engine
   * re-arms it and the converge places the new order. One cancelled MAX_REARMS times in a row is
   * flagged and the bot stops: someone keeps cancelling it, and the bot does not fight them.
   */
  private async replaceCancelled(d: DesiredOrder, o: Order): Promise<boolean> {
    const partly = o.filled > 0 ? ` after ${o.filled} of ${o.amount} filled` : '';
    // a style that does not re-arm it (GridStyle.rearm null) flags it, and the bot stops rather than guess
    const rearmed = this.style.rearm(this.engine, d.clientOrderId);
    const drift = (action: 'repaired' | 'flagged', replacedBy?: string): TradingEvent => ({
      type: 'BotDriftDetected',
      data: { botId: this.botId, run: this.id.run, kind: 'order-missing', subject: d.clientOrderId, expected: `${d.side} ${d.amount} at ${d.price}`, actual: `cancelled on the exchange outside GridRocket${partly}`, action, ...(replacedBy ? { replacedBy } : {}), at: Date.now() },
    });
    if (!rearmed) {
      await this.recordFacts([cancelledFact(this.botId, this.id.run, d.clientOrderId, o), drift('flagged')]);
      throw new UnrecoverableError(this.style.rearmRefused(d, partly));
    }
    await this.recordFacts([cancelledFact(this.botId, this.id.run, d.clientOrderId, o), drift('repaired', rearmed.replacement)]);
    this.engine = rearmed.state;
    this.awaitingAttempts = 0;
    return true;
  }

  /**
   * Order placements and cancels made inside `batch` are recorded together, in one command, when it
   * ends (also when it fails). Safe: a crash before the record leaves orders the resume finds by
   * client order id and records then (the decider drops what is already recorded).
   */
  private deferred: TradingEvent[] | null = null;

  async recordFacts(facts: TradingEvent[]): Promise<void> {
    if (facts.length === 0) return;
    if (this.deferred) this.deferred.push(...facts);
    else await this.host.record(this, facts);
  }

  /**
   * `report`: the lifecycle report the batch ends with when its work succeeds (a start's MarkStarted, a
   * stop's MarkStopped), recorded in the same append as the batch's facts (one command, one append), or
   * alone when there are none. A batch that fails records its facts without the report. Inside another
   * batch, the report goes with the outer batch's record.
   */
  async batch<T>(work: () => Promise<T>, report?: RunnerReport): Promise<T> {
    if (this.deferred) {
      const result = await work();
      if (report) this.deferredReport = report;
      return result;
    }
    this.deferred = [];
    this.deferredReport = null;
    let done = false;
    try {
      const result = await work();
      done = true;
      return result;
    } finally {
      const facts = this.deferred;
      const carried = done ? (report ?? this.deferredReport ?? undefined) : undefined;
      this.deferred = null;
      this.deferredReport = null;
      if (facts.length || carried) {
        try {
          await this.host.record(this, facts, carried);
        } catch (err) {
          // The engine may have moved past facts the history lacks: resume from the history (as after a crash).
          if (facts.length) this.ready = false;
          throw err;
        }
      }
    }
  }

  private deferredReport: RunnerReport | null = null;

  /** Cancels one of the bot's orders and records it. */
  async cancel(clientOrderId: string): Promise<void> {
    this.ensureOwned();
    let final: Order | null = null;
    this.cancelling.add(clientOrderId);
    try {
      final = await this.host.call(this, () => this.port.cancelOrder(this.id.symbol, clientOrderId));
    } catch (err) {
      if (!(err instanceof OrderNotFoundError)) throw err;
    } finally {
      this.cancelling.delete(clientOrderId);
    }
    this.open.delete(clientOrderId);
    this.closed.set(clientOrderId, final ?? { clientOrderId, status: 'cancelled' });
    await this.recordFacts([cancelledFact(this.botId, this.id.run, clientOrderId, final)]);
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
          if (err instanceof BadApiKeyError) throw new UnrecoverableError(keyRefusedReason(this.id.exchange));
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
    await this.recordFacts([placedFact(this.botId, this.id.run, d, order)]);
  }

  /** The quote asset the bot's orders are paid in. */
  workflowQuote(): string {
    const { symbol, market } = this.id;
    return market === 'futures' ? 'USDT' : symbol.endsWith('USDC') ? 'USDC' : 'USDT';
  }

  /** The watchdog's check of this bot against the venue (watchdog-steps.ts); the caller converges when asked. */
  check(refusals: number, now: number, ctx?: CheckContext): Promise<CheckResult> {
    return checkBot(this, refusals, now, ctx);
  }

  /** Cancels every open order of this bot (stop with cancel-all, a failed bot), several at once. */
  async cancelAll(): Promise<void> {
    const open = await this.host.call(this, () => this.port.openOrders(this.id.symbol));
    const own = open.filter((o) => this.owns(o.clientOrderId)).map((o) => o.clientOrderId);
    await this.batch(() => boundedSteps(own, ORDERS_IN_FLIGHT, (id) => this.cancel(id)));
  }
}
