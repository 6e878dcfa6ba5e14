/**
 * The grid runner: many bots per process, each an asynchronous task (BotTask) driven by the pure grid
 * engine against the exchange port. Framework-free (the Nest service, the crash-test child and the
 * fleet bench all build it the same way).
 *
 * - Reacts to lifecycle events through a checkpointed reactor (at-least-once, per-stream ordered):
 *   every event only triggers `sync(botId)`, which reads the bot's stream and does what its CURRENT
 *   lifecycle state asks (start / keep running / stop / let go). So a replayed event changes nothing.
 * - Keeps a small index (read-store collection `runner_bots`) of bots whose lifecycle says they should
 *   run, so that on start-up and on every partition assignment it resumes exactly those bots.
 * - Asks the ownership port before every exchange call and every append; on revocation it lets the
 *   bots go without cancelling their orders (the next owner adopts them by client order id).
 * - One fill source per exchange account (push via watchOrders, else a poller per account+symbol),
 *   one price subscription per exchange/market/symbol, a token bucket per user+exchange (not paper).
 */
import type { EventStore, RecordedEvent } from '@gridrocket/event-store/event-store.port';
import { StreamNotFoundError } from '@gridrocket/event-store/event-store.port';
import { FencedError, withFence } from '@gridrocket/event-store/fence';
import type { ReadStore } from '@gridrocket/read-store/read-store.port';
import { startReactor, type RunningReactor } from '@gridrocket/read-store/reactor';
import type { BotOwnership, OwnershipListener } from '@gridrocket/streaming/ownership.port';
import { evolveBot, initialBotState, type BotState } from '@gridrocket/bots/domain/bot.decider';
import type { BotEvent } from '@gridrocket/bots/domain/bot.events';
import { RecordTradingCommand, ReportBotLifecycleCommand, type RecordTradingResult, type RunnerReport } from '@gridrocket/bots/application/bot.commands';
import type { CommandContext } from '@gridrocket/shared/command-context';
import type { ExchangePort, ExchangeProvider, Fill as ExchangeFill, OrderUpdate } from '@gridrocket/exchanges/exchange.port';
import { splitSymbol } from '@gridrocket/exchanges/exchange.port';
import { isExchangeError } from '@gridrocket/exchanges/exchange.errors';
import { validateGrid } from '../grid/ladder';
import { roundMoney } from '../grid/decimal';
import type { Fill, GridConfig } from '../grid/grid.types';
import { BotTask, NotOwnedError, UnrecoverableError, toGridFill, toGridRules, type RecordedTradingEvent, type TaskHost } from './bot-task';
import { RateLimiters } from './token-bucket';

export interface CommandExecutor {
  execute<T = any>(command: object): Promise<T>;
}

export interface RunnerMetrics {
  setRunningBots(count: number): void;
  exchangeError(exchange: string, kind?: string): void;
}

export interface RunnerLogger {
  log(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export interface GridRunnerOptions {
  events: EventStore;
  reads: ReadStore;
  commands: CommandExecutor;
  exchanges: ExchangeProvider;
  ownership: BotOwnership;
  metrics?: RunnerMetrics;
  logger?: RunnerLogger;
  /** The pid written into BotStarted (default process.pid). */
  pid?: number;
  /** Reactor (checkpoint) name; two runners sharing one read store need different names. */
  name?: string;
  /** Fill polling interval for ports without push (ccxt). */
  pollMs?: number;
  /** Backoff of retryable exchange errors. */
  retryBaseMs?: number;
  retryMaxMs?: number;
  /** Per user+exchange token bucket for non-paper exchanges. */
  rateLimit?: { capacity: number; perSecond: number };
  /** A rate limit shared by every runner (read-store SharedRateLimiters); default: one bucket per key in this process. */
  rateLimiter?: { for(key: string): { take(): Promise<void> } };
  /** Told when a bot has converged after a fill or a (re)start (bench, tests). */
  onConverged?: (botId: string) => void;
}

export const RUNNER_INDEX = 'runner_bots';
const ACTIVE_STATUSES = new Set(['starting', 'running', 'stopping']);
const LIFECYCLE_TYPES = ['BotStartRequested', 'BotStarted', 'BotStartFailed', 'BotStopRequested', 'BotStopped', 'BotFailed', 'BotDeleted'];
const PREFIX_LENGTH = 'gr-'.length + 8 + 1;

interface StreamInfo {
  state: BotState;
  run: number;
  runEvent: RecordedEvent | null;
  /** The BotStopRequested of this run, when one came: what the stop's work is caused by. */
  stopEvent: RecordedEvent | null;
  /** Orders of this run recorded as placed but neither cancelled nor fully filled in the history. */
  unclosed: string[];
  fills: Fill[];
  fillsSinceMs: number;
  ids: string[];
  revision: bigint | null;
}

/** Folds a bot's stream: its lifecycle state and, for the current run, the fills it recorded. */
export function foldBotStream(events: RecordedEvent[]): StreamInfo {
  let state = initialBotState;
  let run = -1;
  let runEvent: RecordedEvent | null = null;
  let stopEvent: RecordedEvent | null = null;
  let placed = new Map<string, number>(); // client order id → amount still unaccounted for
  let fills: Fill[] = [];
  let ids: string[] = [];
  let lastFillAt = -1;
  let firstPlacedAt = -1;
  let revision: bigint | null = null;
  for (const e of events) {
    state = evolveBot(state, { type: e.type, data: e.data } as BotEvent);
    revision = e.revision;
    if (e.type === 'BotStartRequested') {
      run = Number(e.revision);
      runEvent = e;
      stopEvent = null;
      placed = new Map();
      fills = [];
      ids = [];
      lastFillAt = -1;
      firstPlacedAt = -1;
      continue;
    }
    if (e.type === 'BotStopRequested') stopEvent = e;
    ids.push(e.id);
    const d = e.data as any;
    if ((e.type === 'OrderPlaced' || e.type === 'TakeProfitPlaced') && d.run === run) placed.set(d.clientOrderId, d.amount);
    if (e.type === 'OrderCancelled' && d.run === run) placed.delete(d.clientOrderId);
    if ((e.type === 'OrderFilled' || e.type === 'TakeProfitFilled') && d.run === run) {
      const left = placed.get(d.clientOrderId);
      if (left !== undefined) {
        if (left - d.amount <= 1e-12) placed.delete(d.clientOrderId);
        else placed.set(d.clientOrderId, left - d.amount);
      }
      fills.push(toGridFill(d));
      if (d.at > lastFillAt) lastFillAt = d.at;
    } else if ((e.type === 'OrderPlaced' || e.type === 'TakeProfitPlaced') && d.run === run && firstPlacedAt < 0) {
      firstPlacedAt = d.at;
    }
  }
  const fillsSinceMs = lastFillAt >= 0 ? lastFillAt : firstPlacedAt >= 0 ? firstPlacedAt : 0;
  return { state, run, runEvent, stopEvent, unclosed: [...placed.keys()], fills, fillsSinceMs, ids, revision };
}

interface PriceGroup {
  unsubscribe: () => void;
  tasks: Set<BotTask>;
}

/** Polls an account's fills for one symbol (ports without push), shared by the bots there. */
class FillPoller {
  readonly tasks = new Set<BotTask>();
  private cursor = Number.MAX_SAFE_INTEGER;
  private seen = new Map<string, number>();
  private timer: NodeJS.Timeout | null = null;
  private inFlight = false;
  private again = false;
  private polls = 0;
  private stopped = false;

  constructor(
    private readonly runner: GridRunner,
    readonly port: ExchangePort,
    readonly symbol: string,
    private readonly pollMs: number,
  ) {}

  add(task: BotTask) {
    this.tasks.add(task);
    this.cursor = Math.min(this.cursor, Math.max(0, task.fillsSinceMs - 60_000));
    if (!this.timer && !this.stopped) {
      this.timer = setInterval(() => this.trigger(), this.pollMs);
      this.timer.unref?.();
    }
  }

  remove(task: BotTask): boolean {
    this.tasks.delete(task);
    if (this.tasks.size === 0) this.stop();
    return this.tasks.size === 0;
  }

  stop() {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  trigger() {
    if (this.stopped) return;
    if (this.inFlight) {
      this.again = true;
      return;
    }
    this.inFlight = true;
    void this.poll()
      .catch(() => undefined)
      .finally(() => {
        this.inFlight = false;
        if (this.again) {
          this.again = false;
          this.trigger();
        }
      });
  }

  private async poll() {
    const first = this.tasks.values().next().value as BotTask | undefined;
    if (!first) return;
    const fills = await this.runner.call(first, () => this.port.recentFills(this.symbol, this.cursor === Number.MAX_SAFE_INTEGER ? 0 : this.cursor), 1);
    let max = this.cursor === Number.MAX_SAFE_INTEGER ? 0 : this.cursor;
    const touched = new Set<BotTask>();
    for (const f of fills) {
      if (f.timestamp > max) max = f.timestamp;
      if (this.seen.has(f.fillId)) continue;
      this.seen.set(f.fillId, f.timestamp);
      const task = this.runner.taskFor(f.clientOrderId);
      if (task && this.tasks.has(task)) {
        task.acceptFill(f);
        touched.add(task);
      }
    }
    this.cursor = max;
    for (const [id, ts] of this.seen) if (ts < max) this.seen.delete(id);
    // Now and then: orders that left the book without a fill we saw (cancelled outside, or a fill
    // still on its way) are marked closed; the task then looks them up before doing anything else.
    if (++this.polls % 10 === 0) {
      const open = await this.runner.call(first, () => this.port.openOrders(this.symbol), 1);
      const ids = new Set(open.map((o) => o.clientOrderId));
      for (const task of this.tasks) {
        for (const id of task.open.keys()) {
          if (!ids.has(id)) {
            task.open.delete(id);
            task.closed.set(id, { clientOrderId: id });
            touched.add(task);
          }
        }
      }
    }
    for (const task of touched) this.runner.kick(task);
  }
}

export class GridRunner implements TaskHost {
  private readonly tasks = new Map<string, BotTask>();
  private readonly byPrefix = new Map<string, BotTask>();
  private readonly lanes = new Map<string, Promise<void>>();
  private readonly watchers = new Map<string, { unsubscribe: () => void; tasks: Set<BotTask> }>();
  private readonly pollers = new Map<string, FillPoller>();
  private readonly prices = new Map<string, PriceGroup>();
  private readonly limiters: { for(key: string): { take(): Promise<void> } };
  private readonly failures = new Map<string, number>();
  private reactor: RunningReactor | null = null;
  private running = false;
  readonly pid: number;
  readonly name: string;
  private readonly log: RunnerLogger;

  constructor(private readonly o: GridRunnerOptions) {
    this.pid = o.pid ?? process.pid;
    this.name = o.name ?? 'grid-runner';
    this.log = o.logger ?? { log: () => undefined, warn: (m) => console.warn(m), error: (m) => console.error(m) };
    const rl = o.rateLimit ?? { capacity: 10, perSecond: 8 };
    this.limiters = o.rateLimiter ?? new RateLimiters(rl.capacity, rl.perSecond);
  }

  // -------------------------------------------------------------------------------------------
  // Start and stop

  async start(): Promise<void> {
    this.running = true;
    await this.o.reads.ensureCollection(RUNNER_INDEX, ['active']);
    const listener: OwnershipListener = {
      onAssigned: (partitions) => this.resume(partitions),
      onRevoked: (partitions) => this.letGo(partitions),
    };
    this.reactor = await startReactor({
      name: this.name,
      events: this.o.events,
      reads: this.o.reads,
      filter: { streamPrefixes: ['bot-'], eventTypes: LIFECYCLE_TYPES },
      handle: (event) => this.react(event),
      onError: (err, event) => this.log.error(`Could not handle ${event.type} of ${event.streamId}: ${err.message}`),
    });
    await this.o.ownership.start(listener);
  }

  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    await this.o.ownership.stop(); // revokes everything: bots are let go, orders stay
    await this.reactor?.stop();
    for (const task of [...this.tasks.values()]) this.release(task);
    await Promise.all([...this.lanes.values()]);
    for (const p of this.pollers.values()) p.stop();
  }

  /** Bots this runner is running now (started and not released). */
  runningBots(): string[] {
    return [...this.tasks.values()].filter((t) => t.started).map((t) => t.botId);
  }

  task(botId: string): BotTask | undefined {
    return this.tasks.get(botId);
  }

  /** Resolves when every bot's lane is idle (tests, bench). */
  async idle(): Promise<void> {
    for (let i = 0; i < 100; i++) {
      const lanes = [...this.lanes.values()];
      if (lanes.length === 0) return;
      await Promise.all(lanes);
    }
  }

  // -------------------------------------------------------------------------------------------
  // Lifecycle events, ownership

  private async react(event: RecordedEvent): Promise<void> {
    const botId = event.streamId.slice('bot-'.length);
    const active = event.type === 'BotStartRequested' || event.type === 'BotStarted' || event.type === 'BotStopRequested';
    await this.o.reads.commit(RUNNER_INDEX, [{ id: botId, rev: Number(event.revision), doc: { id: botId, active } }], {
      name: `${this.name}-index`,
      position: event.position,
    });
    if (this.o.ownership.owns(botId)) await this.sync(botId);
  }

  private async resume(partitions: number[]): Promise<void> {
    const wanted = new Set(partitions);
    const docs = await this.o.reads.find<{ id: string; active: boolean }>(RUNNER_INDEX, { active: true });
    const ids = docs.map((d) => d.id).filter((id) => wanted.has(this.o.ownership.partitionOf(id)));
    let next = 0;
    const worker = async () => {
      while (next < ids.length) await this.sync(ids[next++]);
    };
    await Promise.all(Array.from({ length: Math.min(64, ids.length) }, worker));
  }

  private async letGo(partitions: number[]): Promise<void> {
    const gone = new Set(partitions);
    const waits: Promise<void>[] = [];
    for (const task of [...this.tasks.values()]) {
      if (!gone.has(this.o.ownership.partitionOf(task.botId))) continue;
      this.release(task);
      const lane = this.lanes.get(task.botId);
      if (lane) waits.push(lane);
    }
    await Promise.all(waits);
  }

  /** Runs `fn` in the bot's lane: one thing at a time per bot, bots concurrently. */
  serial(botId: string, fn: () => Promise<void>): Promise<void> {
    const previous = this.lanes.get(botId) ?? Promise.resolve();
    const next = previous.then(fn).catch((err) => this.log.error(`bot ${botId}: ${(err as Error).stack ?? err}`));
    this.lanes.set(botId, next);
    void next.then(() => {
      if (this.lanes.get(botId) === next) this.lanes.delete(botId);
    });
    return next;
  }

  /** Does what the bot's current lifecycle state asks. Idempotent. */
  sync(botId: string): Promise<void> {
    return this.serial(botId, () => this.syncNow(botId));
  }

  private async syncNow(botId: string): Promise<void> {
    if (!this.running || !this.o.ownership.owns(botId)) return;
    let events: RecordedEvent[];
    try {
      events = await this.o.events.readStream(`bot-${botId}`);
    } catch (err) {
      if (err instanceof StreamNotFoundError) return;
      throw err;
    }
    const info = foldBotStream(events);
    const status = info.state.status;
    let task = this.tasks.get(botId);
    if (task && (task.id.run !== info.run || !ACTIVE_STATUSES.has(status))) {
      this.release(task); // another run, or stopped/failed/deleted elsewhere: let it go
      task = undefined;
    }
    if (status === 'stopped' || !info.runEvent || !info.state.config) return;
    if (status === 'stopping') {
      await this.stopBot(task ?? this.newTask(info), info, !!task);
      return;
    }
    if (task) {
      // Already running here: make sure it has converged (a retry after a transient error lands here).
      await this.guard(task, () => task!.converge().then(() => this.converged(task!)));
      return;
    }
    await this.boot(this.newTask(info), info, status === 'starting');
  }

  private newTask(info: StreamInfo): BotTask {
    const s = info.state;
    const c = s.config!;
    const config: GridConfig = {
      botType: s.botType!,
      numOfOrders: c.numOfOrders,
      orderSize: c.orderSize,
      interval: c.interval,
      entryPrice: c.entryPrice,
      takeProfit: c.takeProfit,
      leverage: s.botType === 'Futures' ? c.leverage : 1,
    };
    const task = new BotTask(
      {
        botId: s.botId!,
        userId: s.userId!,
        run: info.run,
        correlationId: info.runEvent!.metadata.correlationId,
        causationId: info.runEvent!.id,
        exchange: c.exchange,
        market: s.botType === 'Futures' ? 'futures' : 'spot',
        symbol: c.symbol,
        config,
      },
      this,
    );
    task.revision = info.revision;
    for (const id of info.ids) task.recordedIds.add(id);
    task.fillsSinceMs = info.fillsSinceMs;
    return task;
  }

  private async prepare(task: BotTask, info: StreamInfo): Promise<void> {
    const { id } = task;
    task.port = await this.o.exchanges.for({ userId: id.userId, exchange: id.exchange, market: id.market });
    const market = await this.call(task, () => task.port.marketRules(id.symbol));
    const rules = toGridRules(market);
    const validation = validateGrid(task.config, rules);
    if (!validation.ok) throw new UnrecoverableError(validation.reason);
    task.rebuild(rules, info.fills);
  }

  private async boot(task: BotTask, info: StreamInfo, starting: boolean): Promise<void> {
    task.started = !starting;
    this.attach(task);
    await this.guard(task, async () => {
      await this.prepare(task, info);
      const { id } = task;
      if (starting && id.market === 'futures') {
        task.ensureOwned();
        await this.call(task, () => task.port.setLeverage(id.symbol, task.config.leverage));
      }
      await task.recover(info.unclosed);
      task.ready = true;
      if (starting) await this.checkFunds(task);
      await task.converge();
      if (starting) {
        await this.report(task, { type: 'MarkStarted', pid: this.pid });
        task.started = true;
      }
      this.updateMetrics();
      this.converged(task);
    });
  }

  /** The balance must cover what the ladder still has to place (the grid's cost, spec section 5). */
  private async checkFunds(task: BotTask): Promise<void> {
    const { id } = task;
    let need = 0;
    for (const d of task.plan().toPlace) if (d.side === 'buy') need += (d.price * d.amount) / task.config.leverage;
    need = roundMoney(need);
    if (need <= 0) return;
    const quote = id.market === 'futures' ? 'USDT' : splitSymbol(id.symbol).quote;
    task.ensureOwned();
    const balances = await this.call(task, () => task.port.balances());
    const available = balances.find((b) => b.symbol === quote)?.available ?? 0;
    if (available < need) {
      throw new UnrecoverableError(
        `Insufficient balance: the grid needs ${need} ${quote} but only ${roundMoney(available)} ${quote} is available on ${id.exchange} ${id.market}`,
      );
    }
  }

  private async stopBot(task: BotTask, info: StreamInfo, attached: boolean): Promise<void> {
    // What happens from here (cancels, BotStopped) is caused by the stop request, and shares its correlation.
    if (info.stopEvent) {
      task.id.correlationId = info.stopEvent.metadata.correlationId;
      task.id.causationId = info.stopEvent.id;
    }
    try {
      if (!attached || !task.hasPort) await this.prepare(task, info);
      // profit of fills that happened meanwhile is still counted; cancels lost in a crash are recorded
      await task.recover(info.unclosed);
      if (info.state.cancelAllOrders) await task.cancelAll();
      task.ensureOwned();
      this.release(task);
      await this.reportFor(task, { type: 'MarkStopped' });
    } catch (err) {
      if (err instanceof NotOwnedError) return;
      if (err instanceof UnrecoverableError || (isExchangeError(err) && !err.retryable)) {
        // Cannot reach the orders (e.g. the key was removed): stop anyway, and say why.
        this.release(task);
        this.log.warn(`bot ${task.botId}: stopped without reaching the exchange: ${(err as Error).message}`);
        await this.reportFor(task, { type: 'MarkStopped' });
        return;
      }
      this.release(task);
      this.scheduleSync(task.botId, (err as Error).message);
    }
  }

  // -------------------------------------------------------------------------------------------
  // Errors

  private async guard(task: BotTask, fn: () => Promise<void>): Promise<void> {
    try {
      await fn();
      this.failures.delete(task.botId);
    } catch (err) {
      await this.handleError(task, err as Error);
    }
  }

  private async handleError(task: BotTask, err: Error): Promise<void> {
    if (err instanceof NotOwnedError || task.released) return;
    if (err instanceof UnrecoverableError || (isExchangeError(err) && !err.retryable)) {
      await this.fail(task, err.message);
      return;
    }
    const n = (this.failures.get(task.botId) ?? 0) + 1;
    this.failures.set(task.botId, n);
    this.log.warn(`bot ${task.botId}: ${err.message} (attempt ${n}; retrying)`);
    if (!task.ready) {
      // A start or resume that did not finish: start over (every step is idempotent).
      this.release(task);
      const t = setTimeout(() => void this.sync(task.botId), this.delay(n));
      t.unref?.();
      return;
    }
    this.retryLater(task, err.message);
  }

  /** An unrecoverable error: the bot's orders are cancelled (no orphans) and it stops with the reason. */
  private async fail(task: BotTask, reason: string): Promise<void> {
    this.log.warn(`bot ${task.botId} failed: ${reason}`);
    try {
      if (task.hasPort) await task.cancelAll();
    } catch {
      // best effort: the exchange may be what failed
    }
    if (!this.o.ownership.owns(task.botId)) return;
    this.release(task);
    await this.reportFor(task, task.started ? { type: 'MarkFailed', reason } : { type: 'MarkStartFailed', reason });
  }

  retryLater(task: BotTask, _reason: string): void {
    if (task.retryTimer || task.released) return;
    const delay = this.delay(this.failures.get(task.botId) ?? 1);
    task.retryTimer = setTimeout(() => {
      task.retryTimer = null;
      if (!task.released) void this.sync(task.botId);
    }, delay);
    task.retryTimer.unref?.();
  }

  private scheduleSync(botId: string, _reason: string) {
    const n = (this.failures.get(botId) ?? 0) + 1;
    this.failures.set(botId, n);
    const t = setTimeout(() => void this.sync(botId), this.delay(n));
    t.unref?.();
  }

  private delay(failures: number): number {
    return Math.min(this.o.retryMaxMs ?? 30_000, (this.o.retryBaseMs ?? 200) * 2 ** Math.min(failures - 1, 10));
  }

  backoff(attempt: number): Promise<void> {
    const base = this.o.retryBaseMs ?? 200;
    const ms = Math.min(this.o.retryMaxMs ?? 30_000, base * 2 ** (attempt - 1)) * (0.5 + Math.random() / 2);
    return new Promise((r) => setTimeout(r, ms));
  }

  // -------------------------------------------------------------------------------------------
  // TaskHost

  owns(botId: string): boolean {
    return this.running && this.o.ownership.owns(botId);
  }

  private limiter(task: BotTask): { take(): Promise<void> } | null {
    if (this.o.exchanges.mode === 'paper') return null;
    return this.limiters.for(`${task.id.userId}|${task.id.exchange}`);
  }

  async call<T>(task: BotTask, fn: () => Promise<T>, retries = 4): Promise<T> {
    const limiter = this.limiter(task);
    for (let attempt = 1; ; attempt++) {
      if (limiter) await limiter.take();
      try {
        return await fn();
      } catch (err) {
        if (isExchangeError(err)) {
          this.o.metrics?.exchangeError(task.id.exchange, err.code);
          if (err.retryable && attempt < retries) {
            await this.backoff(attempt);
            task.ensureOwned();
            continue;
          }
        }
        throw err;
      }
    }
  }

  async record(task: BotTask, events: RecordedTradingEvent[]): Promise<void> {
    const fresh = events.filter((e) => !task.recordedIds.has(e.id));
    if (fresh.length === 0) return;
    task.ensureOwned();
    const ctx: CommandContext = { userId: 'runner', correlationId: task.id.correlationId, causationId: task.id.causationId };
    const result = await this.fenced(task, () => this.o.commands.execute<RecordTradingResult>(new RecordTradingCommand(ctx, task.botId, fresh, task.revision)));
    for (const e of fresh) task.recordedIds.add(e.id);
    task.revision = result.revision;
  }

  private async report(task: BotTask, report: RunnerReport): Promise<void> {
    task.ensureOwned();
    await this.reportFor(task, report);
  }

  private async reportFor(task: BotTask, report: RunnerReport): Promise<void> {
    if (!this.o.ownership.owns(task.botId) || !this.running) return;
    const ctx: CommandContext = { userId: 'runner', correlationId: task.id.correlationId, causationId: task.id.causationId };
    await this.fenced(task, () => this.o.commands.execute(new ReportBotLifecycleCommand(ctx, task.botId, report)));
    this.updateMetrics();
  }

  /** An append with this runner's ownership epoch: refused (NotOwnedError) once another runner claimed the bot's partition. */
  private async fenced<T>(task: BotTask, append: () => Promise<T>): Promise<T> {
    try {
      return await withFence(this.o.ownership.fenceFor?.(task.botId) ?? null, append);
    } catch (err) {
      if (err instanceof FencedError) throw new NotOwnedError(task.botId);
      throw err;
    }
  }

  // -------------------------------------------------------------------------------------------
  // Fill sources and prices

  taskFor(clientOrderId: string): BotTask | undefined {
    return this.byPrefix.get(clientOrderId.slice(0, PREFIX_LENGTH));
  }

  /** Applies a bot's queued fills and converges, in its lane (coalesced). */
  kick(task: BotTask): void {
    if (task.drainScheduled || task.released) return;
    task.drainScheduled = true;
    void this.serial(task.botId, async () => {
      task.drainScheduled = false;
      if (task.released) return;
      await this.guard(task, async () => {
        await task.converge();
        this.converged(task);
      });
    });
  }

  private converged(task: BotTask) {
    this.o.onConverged?.(task.botId);
  }

  private accountKey(task: BotTask) {
    return `${task.id.userId}|${task.id.exchange}|${task.id.market}`;
  }

  private attach(task: BotTask): void {
    this.tasks.set(task.botId, task);
    this.byPrefix.set(task.prefix, task);
    const detachers: Array<() => void> = [];
    let attachedPort = false;
    const attachPort = (port: ExchangePort) => {
      if (attachedPort || task.released) return;
      attachedPort = true;
      if (port.watchOrders) {
        const key = this.accountKey(task);
        let w = this.watchers.get(key);
        if (!w) {
          const tasks = new Set<BotTask>();
          const unsubscribe = port.watchOrders((u: OrderUpdate) => this.onOrderUpdate(u));
          w = { unsubscribe, tasks };
          this.watchers.set(key, w);
        }
        w.tasks.add(task);
        const ww = w;
        detachers.push(() => {
          ww.tasks.delete(task);
          if (ww.tasks.size === 0) {
            ww.unsubscribe();
            this.watchers.delete(key);
          }
        });
      } else {
        const key = `${this.accountKey(task)}|${task.id.symbol}`;
        let p = this.pollers.get(key);
        if (!p) this.pollers.set(key, (p = new FillPoller(this, port, task.id.symbol, this.o.pollMs ?? 2000)));
        p.add(task);
        const pp = p;
        detachers.push(() => {
          if (pp.remove(task)) this.pollers.delete(key);
        });
      }
    };
    // The port is known after prepare(); subscribe to fills before recover() reads the exchange.
    task.onPort = attachPort;
    // One price subscription per exchange/market/symbol: a tick wakes the pollers of that symbol.
    const pkey = `${task.id.exchange}|${task.id.market}|${task.id.symbol}`;
    let g = this.prices.get(pkey);
    if (!g) {
      const tasks = new Set<BotTask>();
      const unsubscribe = this.o.exchanges.prices.subscribe({ exchange: task.id.exchange, market: task.id.market, symbol: task.id.symbol }, () => {
        for (const [k, poller] of this.pollers) if (k.endsWith(`|${task.id.symbol}`) && poller.symbol === task.id.symbol) poller.trigger();
      });
      g = { unsubscribe, tasks };
      this.prices.set(pkey, g);
    }
    g.tasks.add(task);
    const gg = g;
    detachers.push(() => {
      gg.tasks.delete(task);
      if (gg.tasks.size === 0) {
        gg.unsubscribe();
        this.prices.delete(pkey);
      }
    });
    task.detach = () => detachers.forEach((d) => d());
  }

  private onOrderUpdate(u: OrderUpdate): void {
    const task = this.taskFor(u.order.clientOrderId);
    if (!task || task.released) return;
    if (u.fill) task.acceptFill(u.fill as ExchangeFill);
    task.acceptOrder(u.order);
    if (u.fill || u.order.status !== 'open') this.kick(task);
  }

  /** Lets a bot go: no more exchange calls or appends for it; its orders stay where they are. */
  private release(task: BotTask): void {
    if (task.released) return;
    task.released = true;
    task.detach?.();
    if (task.retryTimer) clearTimeout(task.retryTimer);
    if (this.tasks.get(task.botId) === task) this.tasks.delete(task.botId);
    if (this.byPrefix.get(task.prefix) === task) this.byPrefix.delete(task.prefix);
    this.updateMetrics();
  }

  private updateMetrics() {
    this.o.metrics?.setRunningBots(this.runningBots().length);
  }
}
