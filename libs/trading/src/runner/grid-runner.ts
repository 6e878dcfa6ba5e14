// Over 400 lines: the lifecycle, ownership and error handling of all bots in one runner, plus the price hook of the risk controls.
/**
 * The grid runner: many bots per process, each an asynchronous task (BotTask) driven by the pure
 * workflow (bot-workflow.ts) and grid engine against the exchange port. Framework-free (the Nest
 * service, the crash-test child and the fleet bench all build it the same way). This file is the
 * lifecycle and ownership part; fills and prices: fill-sources.ts / fill-poller.ts; exchange calls,
 * rate limit and back-off: exchange-calls.ts; the bot's stream: bot-stream.ts.
 *
 * - Reacts to lifecycle events through a checkpointed reactor (at-least-once, per-stream ordered):
 *   every event only triggers `sync(botId)`, which reads the bot's stream and does what its CURRENT
 *   lifecycle state asks (start / keep running / stop / let go). So a replayed event changes nothing.
 * - Keeps a small index (read-store collection `runner_bots`) of bots whose lifecycle says they should
 *   run, so that on start-up and on every partition assignment it resumes exactly those bots.
 * - Asks the ownership port before every exchange call and every record; on revocation it lets the
 *   bots go without cancelling their orders (the next owner adopts them by client order id).
 * - Never leaves a bot stuck: every error of a start, a run or a stop ends, after bounded retries of
 *   what may pass, in a terminal state (start failed, failed, stopped) with the reason.
 */
import { FencedError, type RecordedEvent } from '@gridrocket/event-store';
import { startReactor, type RunningReactor } from '@gridrocket/read-store';
import type { OwnershipListener, RevokeReason, RunnerBotsReport } from '@gridrocket/streaming';
import type { DriftKind, NotTradingReason, TradingEvent } from '@gridrocket/bots';
import { RecordTradingCommand, ReportBotLifecycleCommand, placementRecorded, type RunnerReport } from '@gridrocket/bots';
import type { CommandContext } from '@gridrocket/shared';
import { ConflictError } from '@gridrocket/shared';
import { BadApiKeyError, isExchangeError, type Fill as ExchangeFill, type StreamState, type VenueRateLimitPause } from '@gridrocket/exchanges';
import { BotTask, NotOwnedError, UnrecoverableError, keyRefusedReason, type TaskHost } from './bot-task';
import { checkFunds, closePosition, liquidatedReason, newTask, prepare, prepareFutures } from './bot-setup';
import { closeProfits } from './close-fills';
import { heldForClose } from './close-steps';
import { readBotRun, type BotRun } from './bot-stream';
import { RunnerIndexWriter } from './runner-index';
import { ExchangeCaller } from './exchange-calls';
import { FillSources } from './fill-sources';
import { marginTiers } from '@gridrocket/exchanges/venues';
import { liquidationDistance, LIQUIDATION_WARNING_PERCENT } from '../grid/liquidation-stops';
import { ReactionGate } from './reaction-gate';
import type { GridRunnerOptions, RunnerLogger } from './runner-options';
import type { CheckContext, CheckResult } from './watchdog-steps';
import { AccountReads } from './account-reads';
import { WATCHDOG_PERIOD_MS } from './watchdog';
import { botsReport } from './runner-report';

export type { CommandExecutor, GridRunnerOptions, RunnerLogger, RunnerMetrics } from './runner-options';

export const RUNNER_INDEX = 'runner_bots';
/** What the watchdog records (DriftKind and NotTradingReason, all of them: each a series at 0 from the start). */
export const WATCHDOG_FINDING_KINDS = [
  'missed-fill', 'order-missing', 'unknown-order', 'balance-short', 'position-differs',
  'no-resting-order', 'venue-refusals', 'price-outside-ladder',
] as const satisfies readonly (DriftKind | NotTradingReason)[];
// a kind added to DriftKind or NotTradingReason and missing above fails the typecheck here
const everyFindingKind: Exclude<DriftKind | NotTradingReason, (typeof WATCHDOG_FINDING_KINDS)[number]> extends never ? true : never = true;
void everyFindingKind;
const ACTIVE_STATUSES = new Set(['starting', 'running', 'stopping']);
const LIFECYCLE_TYPES = ['BotStartRequested', 'BotStarted', 'BotStartFailed', 'BotStopRequested', 'BotStopped', 'BotFailed', 'BotDeleted'];
/** The owner's "Check now" (issue 29): the runner that owns the bot checks it at once (not a lifecycle change). */
const CHECK_REQUESTED = 'BotCheckRequested';
/** A check request older than this when it reaches the runner (a replay after a long outage) is not acted on: no one waits for it. */
const CHECK_REQUEST_TTL_MS = 10 * 60_000;
const PREFIX_LENGTH = 'gr-'.length + 8 + 1;
/** Errors that are neither the exchange's nor ours (a bug, a broken input) are retried this often, then the bot fails. */
const MAX_UNEXPECTED = 3;
/** A stop that keeps failing on retryable errors completes anyway after this many tries. */
const MAX_STOP_ATTEMPTS = 8;

export class GridRunner implements TaskHost {
  private stopPauses: (() => void) | null = null;
  private readonly tasks = new Map<string, BotTask>();
  private readonly byPrefix = new Map<string, BotTask>();
  private readonly lanes = new Map<string, Promise<void>>();
  private readonly failures = new Map<string, number>();
  private readonly unexpected = new Map<string, number>();
  private readonly calls: ExchangeCaller;
  private readonly sources: FillSources;
  /** Fill reactions in waves (paper only): see reaction-gate.ts. */
  private readonly gate: ReactionGate | null;
  private reactor: RunningReactor | null = null;
  private readonly index: RunnerIndexWriter;
  private running = false;
  private watchdog: NodeJS.Timeout | null = null;
  readonly pid: number;
  readonly name: string;
  private readonly log: RunnerLogger;

  constructor(private readonly o: GridRunnerOptions) {
    o.metrics?.declareWatchdogKinds?.(WATCHDOG_FINDING_KINDS);
    this.pid = o.pid ?? process.pid;
    this.name = o.name ?? 'grid-runner';
    this.log = o.logger ?? { log: () => undefined, warn: (m) => console.warn(m), error: (m) => console.error(m) };
    this.calls = new ExchangeCaller({
      paper: o.exchanges.mode === 'paper',
      rateLimit: o.rateLimit,
      rateLimiter: o.rateLimiter,
      retryBaseMs: o.retryBaseMs,
      retryMaxMs: o.retryMaxMs,
      onError: (exchange, code) => o.metrics?.exchangeError(exchange, code),
    });
    this.sources = new FillSources(o.exchanges, this, o.pollMs ?? 2000);
    const wave = o.reactionWave ?? 32;
    this.gate = o.exchanges.mode === 'paper' && wave > 0 ? new ReactionGate(wave) : null;
    this.index = new RunnerIndexWriter(o.reads, RUNNER_INDEX, `${this.name}-index`);
    o.metrics?.watchRunner?.(() => this.report());
    o.metrics?.watchOwnership?.(() => o.ownership.status?.() ?? null);
  }

  // -------------------------------------------------------------------------------------------
  // Start and stop

  async start(): Promise<void> {
    this.running = true;
    await this.o.reads.ensureCollection(RUNNER_INDEX, ['active']);
    const listener: OwnershipListener = {
      onAssigned: (partitions) => this.resume(partitions),
      onRevoked: (partitions, reason) => this.letGo(partitions, reason),
    };
    this.o.ownership.reportWith?.(() => ({ ...this.report() }));
    this.reactor = await startReactor({
      name: this.name,
      events: this.o.events,
      reads: this.o.reads,
      filter: { streamPrefixes: ['bot-'], eventTypes: [...LIFECYCLE_TYPES, CHECK_REQUESTED] },
      handle: (event) => this.react(event),
      onError: (err, event) => this.log.error(`Could not handle ${event.type} of ${event.streamId}: ${err.message}`),
    });
    await this.o.ownership.start(listener);
    this.stopPauses = this.o.exchanges.onVenuePause?.((p) => this.onVenuePause(p)) ?? null;
    const period = this.o.watchdogMs ?? WATCHDOG_PERIOD_MS;
    if (period > 0) {
      this.watchdog = setInterval(() => void this.checkAll(), period);
      this.watchdog.unref?.();
    }
  }

  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    if (this.watchdog) clearInterval(this.watchdog);
    this.watchdog = null;
    this.stopPauses?.();
    this.stopPauses = null;
    await this.o.ownership.stop(); // revokes everything: bots are let go, orders stay
    await this.reactor?.stop();
    for (const task of [...this.tasks.values()]) this.release(task);
    await Promise.all([...this.lanes.values()]);
    this.sources.stop();
  }

  /** Bots this runner is running now (started and not released). */
  runningBots(): string[] {
    return [...this.tasks.values()].filter((t) => t.started).map((t) => t.botId);
  }

  /** Bots let go when the ownership lease lapsed (paused: nobody trades them until their partition is claimed again). */
  private readonly lapsedBots = new Set<string>();

  /** How many bots trade now, and how many should and do not, by reason (runner-report.ts; issue 41). */
  report(): RunnerBotsReport {
    return botsReport({ tasks: this.tasks.values(), ownership: this.o.ownership, failures: this.failures, lapsed: this.lapsedBots, now: (this.o.now ?? Date.now)() });
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
    if (event.type === CHECK_REQUESTED) {
      // Mirrors how start and stop requests reach the runner (embedded or scaled out): the owner of the
      // bot acts. Not awaited: the check runs in the bot's lane, and the reactor goes on with other bots.
      const at = Number((event.data as { at?: number }).at);
      const fresh = !(at < (this.o.now ?? Date.now)() - CHECK_REQUEST_TTL_MS);
      if (fresh && this.o.ownership.owns(botId)) void this.checkNow(botId).then((result) => result && this.reportChecked(botId, at, result.found));
      return;
    }
    const active = event.type === 'BotStartRequested' || event.type === 'BotStarted' || event.type === 'BotStopRequested';
    await this.index.write(botId, Number(event.revision), active, event.position);
    if (this.o.ownership.owns(botId)) await this.sync(botId, event);
  }

  /**
   * Whether the lifecycle event asks nothing of this runner (issue 16: no read for it). Every later event
   * of the bot is reacted to as well, so only what THIS event could change counts: an end (stopped,
   * failed, start failed, deleted) while no task of the bot is attached here has nothing to let go, and a
   * new run would begin with a start request of its own.
   * (The runner's own BotStarted is not skipped: its converge, a no-op, is measurably worth keeping: the
   * fleet's first second of fills reacted with p99 63-80 ms without it, 33 ms with it; BENCHMARKS.md.)
   */
  private asksNothing(botId: string, event: RecordedEvent): boolean {
    return !this.tasks.has(botId) && (event.type === 'BotStopped' || event.type === 'BotFailed' || event.type === 'BotStartFailed' || event.type === 'BotDeleted');
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

  private async letGo(partitions: number[], reason?: RevokeReason): Promise<void> {
    const gone = new Set(partitions);
    const waits: Promise<void>[] = [];
    for (const task of [...this.tasks.values()]) {
      if (!gone.has(this.o.ownership.partitionOf(task.botId))) continue;
      if (reason === 'lapsed' && task.started) this.lapsedBots.add(task.botId);
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

  /** Does what the bot's current lifecycle state asks (`trigger`: the event reacted to). Idempotent. */
  sync(botId: string, trigger?: RecordedEvent): Promise<void> {
    return this.serial(botId, () => this.syncNow(botId, trigger));
  }

  private async syncNow(botId: string, trigger?: RecordedEvent): Promise<void> {
    if (!this.running || !this.o.ownership.owns(botId)) return;
    // decided in the lane, after what came before it (a start still booting has not reported yet)
    if (trigger && this.asksNothing(botId, trigger)) return;
    let task = this.tasks.get(botId);
    const info = await readBotRun(this.o.events, botId, trigger, { runEvent: task?.runEvent });
    task = this.tasks.get(botId);
    const status = info?.bot.status ?? 'stopped';
    if (task && (!info || task.id.run !== info.bot.run || !ACTIVE_STATUSES.has(status))) {
      this.release(task); // another run, or stopped/failed/deleted elsewhere: let it go
      task = undefined;
    }
    if (!info || status === 'stopped') return;
    if (status === 'stopping') {
      await this.stopBot(task ?? newTask(info, this, this.o.exchanges.mode), info, !!task);
      return;
    }
    if (task) {
      // Already running here: make sure it has converged (a retry after a transient error lands here).
      const t = task;
      await this.guard(t, () => t.converge().then(() => this.converged(t)));
      return;
    }
    await this.boot(newTask(info, this, this.o.exchanges.mode), info, status === 'starting');
  }

  private async boot(task: BotTask, info: BotRun, starting: boolean): Promise<void> {
    task.started = !starting;
    this.attach(task);
    await this.guard(task, async () => {
      await prepare(task, info, this.o.exchanges);
      await prepareFutures(task);
      await task.recover([...info.bot.trading.unclosed.keys()], (id) => placementRecorded(info.bot.trading, id));
      task.ready = true;
      this.takeOverVenueFacts(task, info);
      if (starting) await checkFunds(task);
      // The start's report goes in the same append as the orders the start placed (issue 16: one append
      // and one push fewer on the start path), or alone when it placed nothing (all adopted). A crash can
      // no longer leave the placements recorded without BotStarted; it leaves both or neither. Neither is
      // what a crash just before the old first append left (the bot still starting, its orders on the
      // exchange but not in its history), and the next sync boots again: recover lists the bot's open
      // orders by client order id, each placement looks its id up first and adopts it, so nothing is
      // placed twice and the orders are recorded then, with BotStarted. A start that fails records what
      // it placed without the report (the batch drops it) and ends in BotStartFailed as before.
      const resumed = !starting && info.bot.status === 'running' && info.bot.pid !== this.pid;
      await task.converge(starting ? { type: 'MarkStarted', pid: this.pid } : resumed ? { type: 'MarkResumed', pid: this.pid } : undefined);
      if (starting) task.started = true;
      this.updateMetrics();
      this.converged(task);
    });
  }

  private async stopBot(task: BotTask, info: BotRun, attached: boolean): Promise<void> {
    // What happens from here (cancels, BotStopped) is caused by the stop request, and shares its correlation.
    if (info.stopEvent) {
      task.id.correlationId = info.stopEvent.metadata.correlationId;
      task.id.causationId = info.stopEvent.id;
    }
    try {
      if (!attached || !task.hasPort) await prepare(task, info, this.o.exchanges);
      // One append for the whole stop (issue 16): the fills that happened meanwhile (profit still
      // counted), cancels lost in a crash, the stop's cancels, and BotStopped. A crash before it records
      // nothing: the bot is still stopping and the next sync stops it again (recover finds the cancels
      // by client order id, the close position's fixed id is looked up before it is sold).
      await task.batch(async () => {
        await task.recover([...info.bot.trading.unclosed.keys()], (id) => placementRecorded(info.bot.trading, id));
        if (info.bot.cancelAllOrders) await task.cancelAll();
        if (info.bot.closePosition) await closePosition(task);
        task.ensureOwned();
      }, { type: 'MarkStopped' });
      this.release(task);
      this.failures.delete(task.botId);
    } catch (err) {
      if (err instanceof NotOwnedError) return;
      this.release(task);
      const e = err as Error;
      const n = (this.failures.get(task.botId) ?? 0) + 1;
      const retryable = (isExchangeError(err) && err.retryable) || err instanceof ConflictError;
      if (retryable && n < MAX_STOP_ATTEMPTS) {
        this.failures.set(task.botId, n);
        this.scheduleSync(task.botId, n);
        return;
      }
      // A stop always completes: the bot ends stopped, and says why its orders may not all be cancelled.
      this.failures.delete(task.botId);
      this.log.warn(`bot ${task.botId}: stopped without reaching the exchange: ${e.message}`);
      await this.reportFor(task, { type: 'MarkFailed', reason: `Stopped, but the exchange could not be reached to finish the stop: ${e.message}` });
    }
  }

  // -------------------------------------------------------------------------------------------
  // The watchdog (issue 29, docs/watchdog.md)

  /** One scheduled round: every running bot of this runner, each in its own lane. */
  checkAll(): Promise<void> {
    return Promise.all(this.runningBots().map((id) => this.checkNow(id))).then(() => undefined);
  }

  /**
   * Compares one bot with the venue now, in its lane (after what it is doing), and repairs what the
   * rules allow by converging. Null when this runner does not run the bot (not owned, not started).
   */
  checkNow(botId: string): Promise<CheckResult | null> {
    // A check already waiting in the lane (not begun) looks at the venue after this request too: it is
    // the answer. So checks never pile up behind a slow venue (a period shorter than a check would queue
    // one more each period, without bound, and a "Check now" would wait behind all of them).
    const waiting = this.checksWaiting.get(botId);
    if (waiting) return waiting;
    let result: CheckResult | null = null;
    const lane = this.serial(botId, async () => {
      if (this.checksWaiting.get(botId) === done) this.checksWaiting.delete(botId); // begun: a later request queues its own
      const task = this.tasks.get(botId);
      if (!task || task.released || !task.ready || !task.started || !this.owns(botId)) return;
      // not `guard`: a check that succeeds must not clear the count of refusals it reports on
      try {
        const checked = await task.check(this.failures.get(botId) ?? 0, (this.o.now ?? Date.now)(), this.checkContext(task));
        result = checked;
        if (checked.converge) {
          await task.converge();
          this.converged(task);
        }
      } catch (err) {
        await this.handleError(task, err as Error);
      }
    });
    const done: Promise<CheckResult | null> = lane.then(() => result);
    this.checksWaiting.set(botId, done);
    void done.then(() => {
      if (this.checksWaiting.get(botId) === done) this.checksWaiting.delete(botId);
    });
    return done;
  }

  /** The round's shared reads of each account (issue 39): kept less than a period, so each round reads afresh. */
  private accountReadsMemo: AccountReads | null = null;
  private get accountReads(): AccountReads {
    return (this.accountReadsMemo ??= new AccountReads(Math.min(10_000, Math.max(1, (this.o.watchdogMs || WATCHDOG_PERIOD_MS) / 2))));
  }

  /** What a bot's check knows beside the bot: its account's shared reads, symbols and stream (issue 39). */
  private checkContext(task: BotTask): CheckContext {
    const account = `${task.id.userId}|${task.id.exchange}|${task.id.market}`;
    const symbols = [...this.tasks.values()]
      .filter((t) => !t.released && t.id.userId === task.id.userId && t.id.exchange === task.id.exchange && t.id.market === task.id.market)
      .map((t) => t.id.symbol);
    const stream = this.sources.streamState(task);
    return { reads: this.accountReads, account, symbols, streamLiveSince: stream?.live ? stream.at : null };
  }

  /** Per bot, the watchdog check queued in its lane and not begun yet (checkNow). */
  private readonly checksWaiting = new Map<string, Promise<CheckResult | null>>();

  // -------------------------------------------------------------------------------------------
  // Errors

  private async guard(task: BotTask, fn: () => Promise<void>): Promise<void> {
    try {
      await fn();
      this.failures.delete(task.botId);
      this.unexpected.delete(task.botId);
    } catch (err) {
      await this.handleError(task, err as Error);
    }
  }

  private async handleError(task: BotTask, err: Error): Promise<void> {
    if (err instanceof NotOwnedError || task.released) return;
    if (err instanceof BadApiKeyError) {
      await this.fail(task, keyRefusedReason(task.id.exchange));
      return;
    }
    if (err instanceof UnrecoverableError || (isExchangeError(err) && !err.retryable)) {
      await this.fail(task, err.message);
      return;
    }
    if (!isExchangeError(err) && !(err instanceof ConflictError)) {
      // Not the exchange's: a bug or an input the engine cannot take. Retried a few times, then the bot fails.
      const u = (this.unexpected.get(task.botId) ?? 0) + 1;
      this.unexpected.set(task.botId, u);
      if (u > MAX_UNEXPECTED) {
        this.unexpected.delete(task.botId);
        await this.fail(task, err.message);
        return;
      }
    }
    const n = (this.failures.get(task.botId) ?? 0) + 1;
    this.failures.set(task.botId, n);
    this.log.warn(`bot ${task.botId}: ${err.message} (attempt ${n}; retrying)`);
    if (!task.ready || !task.started) {
      // A start or resume that did not finish (or a start not yet reported): start over (every step is idempotent).
      this.release(task);
      this.scheduleSync(task.botId, n);
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
    const delay = this.calls.delay(this.failures.get(task.botId) ?? 1);
    task.retryTimer = setTimeout(() => {
      task.retryTimer = null;
      if (!task.released) void this.sync(task.botId);
    }, delay);
    task.retryTimer.unref?.();
  }

  private scheduleSync(botId: string, failures: number) {
    const t = setTimeout(() => void this.sync(botId), this.calls.delay(failures));
    t.unref?.();
  }

  backoff(attempt: number): Promise<void> {
    return this.calls.backoff(attempt);
  }

  // -------------------------------------------------------------------------------------------
  // TaskHost

  owns(botId: string): boolean {
    return this.running && this.o.ownership.owns(botId);
  }

  /** Every attempt, the first included, is made only if the runner still owns the bot right then. */
  call<T>(task: BotTask, fn: () => Promise<T>, retries = 4): Promise<T> {
    return this.calls.call(task.id, fn, retries, () => task.ensureOwned());
  }

  async record(task: BotTask, facts: TradingEvent[], report?: RunnerReport): Promise<void> {
    if (facts.length === 0 && !report) return;
    task.ensureOwned();
    // what is left of a fill's reaction is the append's round trip: the next bot may start reacting
    const slot = task.reactionSlot;
    task.reactionSlot = null;
    slot?.();
    if (facts.length === 0 && report) return this.reportFor(task, report); // the report alone, as ever
    // the facts and the report they end with: one command, one decision, one append, under the fence
    await this.fenced(task, (ctx) => this.o.commands.execute(new RecordTradingCommand(ctx, task.botId, task.id.run, facts, report)));
    for (const f of facts) {
      if (f.type === 'BotDriftDetected') this.o.metrics?.watchdogFinding?.(f.data.kind);
      else if (f.type === 'BotNotTrading') this.o.metrics?.watchdogFinding?.(f.data.reason);
    }
  }

  /** Says that the check asked for at `requestedAt` ran (BotChecked), so the owner's page knows it is done. */
  private async reportChecked(botId: string, requestedAt: number, found: number): Promise<void> {
    const task = this.tasks.get(botId);
    if (!task || task.released) return;
    try {
      await this.reportFor(task, { type: 'MarkChecked', requestedAt, found, at: (this.o.now ?? Date.now)() });
    } catch (err) {
      this.log.warn(`bot ${botId}: the check's report was not recorded: ${(err as Error).message}`);
    }
  }

  private async reportFor(task: BotTask, report: RunnerReport): Promise<void> {
    if (!this.o.ownership.owns(task.botId) || !this.running) return;
    await this.fenced(task, (ctx) => this.o.commands.execute(new ReportBotLifecycleCommand(ctx, task.botId, report)));
    this.updateMetrics();
  }

  /**
   * A command whose appends carry this runner's ownership epoch (the context's fence): refused
   * (NotOwnedError) once another runner claimed the bot's partition.
   */
  private async fenced<T>(task: BotTask, append: (ctx: CommandContext) => Promise<T>): Promise<T> {
    const fence = this.o.ownership.fenceFor?.(task.botId) ?? null;
    const ctx: CommandContext = { userId: 'runner', correlationId: task.id.correlationId, causationId: task.id.causationId, fence };
    try {
      return await append(ctx);
    } catch (err) {
      if (err instanceof FencedError) throw new NotOwnedError(task.botId);
      throw err;
    }
  }

  // -------------------------------------------------------------------------------------------
  // Fill sources

  taskFor(clientOrderId: string): BotTask | undefined {
    return this.byPrefix.get(clientOrderId.slice(0, PREFIX_LENGTH));
  }

  /** Applies a bot's queued fills and converges, in its lane (coalesced). */
  kick(task: BotTask): void {
    if (task.drainScheduled || task.released) return;
    task.drainScheduled = true;
    void this.serial(task.botId, async () => {
      if (task.released) {
        task.drainScheduled = false;
        return;
      }
      const release = this.gate ? await this.gate.enter() : null;
      task.drainScheduled = false; // fills that came while it waited for its wave are applied now
      task.reactionSlot = release;
      try {
        if (task.released || task.liquidated) return; // (a liquidation: its own step stops the bot)
        await this.guard(task, async () => {
          await task.converge();
          this.converged(task);
        });
      } finally {
        task.reactionSlot = null;
        release?.();
      }
    });
  }

  /**
   * Issue 40: the venue liquidated the position of the bot's symbol. In the bot's lane: PositionLiquidated
   * in its history (what was closed, at which price, what the venue realised, and what the bot realised on
   * what its position cost, with a ProfitRealized of it: the bot's profit and its figures count it alike;
   * close-fills.ts), then the bot stops with the reason (its orders were cancelled by the venue; whatever
   * is left is cancelled by the failure).
   */
  onLiquidation(task: BotTask, fill: ExchangeFill): void {
    if (task.released || task.liquidated) return;
    task.liquidated = true; // at once: the venue's cancels of the bot's orders, reported just before, converge nothing
    void this.serial(task.botId, async () => {
      if (task.released) return;
      const realized = Math.round((fill.realizedPnl ?? 0) * 1e8) / 1e8;
      // the fills the bot heard before the liquidation first, so that its engine holds what was liquidated
      if (task.ready) await task.applyPending().catch((err) => this.log.warn(`bot ${task.botId}: fills before the liquidation were not recorded: ${(err as Error).message}`));
      const engineHeld = task.ready ? heldForClose(task) : null;
      const profit = engineHeld ? closeProfits(engineHeld, [{ side: fill.side, price: fill.price, amount: fill.amount, fee: 0 }])[0] : undefined;
      const data = { botId: task.botId, run: task.id.run, fillId: fill.fillId, clientOrderId: fill.clientOrderId, side: fill.side, price: fill.price, amount: fill.amount, realized, ...(profit !== undefined ? { profit } : {}), at: fill.timestamp };
      const cycle = task.engine === undefined ? 0 : task.style.idsUsed(task.engine);
      try {
        await task.recordFacts([
          { type: 'PositionLiquidated', data },
          ...(profit !== undefined ? [{ type: 'ProfitRealized' as const, data: { botId: task.botId, amount: profit, totalProfit: 0, cycle, run: task.id.run, fillId: fill.fillId } }] : []),
        ]);
      } catch (err) {
        this.log.warn(`bot ${task.botId}: PositionLiquidated was not recorded: ${(err as Error).message}`);
      }
      const held = fill.side === 'sell' ? 'long' : 'short';
      await this.handleError(task, new UnrecoverableError(liquidatedReason(task.id.exchange, held, fill.amount, fill.price, realized)));
    });
  }

  /** The venue refused the bot's key on a fill poll (issue 29): the bot fails in its lane, with the reason. */
  onKeyRefused(task: BotTask, err: Error): void {
    if (task.released) return;
    void this.serial(task.botId, async () => {
      if (!task.released) await this.handleError(task, err);
    });
  }

  /**
   * The account's venue stream went down or came back (issue 39): each of its bots records it in its
   * lane (the bot page shows the fallback from it; the history says why fills came by polling). A
   * stream that was never down says nothing when it first comes up.
   */
  onStreamState(tasks: BotTask[], state: StreamState): void {
    const pollMs = this.o.pollMs ?? 2000;
    for (const task of tasks) {
      void this.serial(task.botId, async () => {
        if (task.released || !task.ready) return;
        const downSince = task.streamDownSince;
        if (state.live === (downSince === null)) return; // nothing new for this bot
        const data = { botId: task.botId, run: task.id.run, at: state.at };
        const fact: TradingEvent = state.live
          ? { type: 'VenueStreamRestored', data: { ...data, downMs: Math.max(0, state.at - (downSince ?? state.at)) } }
          : { type: 'VenueStreamDown', data: { ...data, reason: state.reason ?? 'the stream ended', pollMs } };
        await this.guard(task, () => task.recordFacts([fact]));
        task.streamDownSince = state.live ? null : state.at;
      });
    }
  }

  /**
   * The venue's rate limit paused every call to it (issue 39: a 429 or 418 met here or by another runner
   * of the install, venue-budget.ts): each of its bots here records the pause at once and, when it ends,
   * that it is over: the bot page shows "paused by the venue's rate limit" until then, and an alert goes
   * out (alert-mapping.ts). Recorded beside the bot's lane, not in it: the lane's own call is the one
   * waiting for the pause to end.
   */
  onVenuePause(p: VenueRateLimitPause): void {
    for (const task of this.tasks.values()) {
      if (task.released || !task.started || task.id.exchange !== p.exchange || task.id.market !== p.market) continue;
      if (task.rateLimitedUntil >= p.until) continue; // this pause (or a longer one) is recorded
      task.rateLimitedUntil = p.until;
      this.recordBeside(task, { type: 'VenueRateLimited', data: { botId: task.botId, run: task.id.run, venue: p.venue, status: p.status, until: p.until, at: p.at } });
      this.liftAt(task, p.until);
    }
  }

  /** When the pause recorded until `until` ends (and no longer one came), the bot records that it is over. */
  private liftAt(task: BotTask, until: number): void {
    const lifted = setTimeout(() => {
      if (task.released || task.rateLimitedUntil !== until) return; // let go, or a longer pause came
      task.rateLimitedUntil = 0;
      this.recordBeside(task, { type: 'VenueRateLimitLifted', data: { botId: task.botId, run: task.id.run, until, at: (this.o.now ?? Date.now)() } });
    }, Math.max(0, until - Date.now()));
    lifted.unref?.();
  }

  /** A fact about the venue recorded beside the bot's lane (whose own call may be the one waiting). */
  private recordBeside(task: BotTask, fact: TradingEvent): void {
    void this.record(task, [fact]).catch((err) => this.log.warn(`bot ${task.botId}: ${fact.type} was not recorded: ${(err as Error).message}`));
  }

  /**
   * A bot taken over (a restart after a crash, a hand-over) carries on from what its history says of the
   * venue (issue 39): a stream recorded down is said to be back when this runner's is live, and a rate-limit
   * pause recorded by the runner before is said to be over when it has ended (or when it ends).
   */
  private takeOverVenueFacts(task: BotTask, info: BotRun): void {
    const down = info.bot.streamDown;
    if (down && task.streamDownSince === null) {
      task.streamDownSince = down.since;
      const now = this.sources.streamState(task);
      if (now?.live) this.onStreamState([task], now);
    }
    const paused = info.bot.rateLimited;
    if (paused && task.rateLimitedUntil < paused.until) {
      task.rateLimitedUntil = paused.until;
      this.liftAt(task, paused.until);
    }
  }

  /** A market price for a bot: one that watches prices (stop-loss, trailing, follow) re-checks in its lane. */
  onPrice(task: BotTask, price: number): void {
    if (task.released) return;
    task.lastPrice = price; // every bot: the watchdog reads it instead of asking the venue (issue 39)
    this.watchLiquidation(task, price);
    if (!task.watchesPrice()) return; // (a neutral grid's stops too: BotTask.watchesPrice)
    if (task.ready && task.started) this.kick(task);
  }

  /**
   * Issue 40: a futures bot whose held position the price brings within LIQUIDATION_WARNING_PERCENT of its
   * liquidation price records LiquidationNear (the bot page's warning, the `liquidationNear` alert), once per
   * approach: re-armed when the price is twice that distance away again.
   */
  private watchLiquidation(task: BotTask, price: number): void {
    if (task.id.market !== 'futures' || !task.ready || task.liquidated || (task.id.marginMode ?? 'isolated') !== 'isolated') return;
    const held = task.engine === undefined ? null : task.style.signedPosition(task.engine);
    if (!held) return;
    const leverage = task.config.leverage; // the style's ladder config carries the bot's leverage
    const d = liquidationDistance(held.amount, held.averageEntry, leverage, price, marginTiers(task.id.exchange, task.id.symbol).tiers);
    if (!d) {
      task.liquidationWarned = false;
      return;
    }
    if (d.distancePercent > 2 * LIQUIDATION_WARNING_PERCENT) task.liquidationWarned = false;
    if (task.liquidationWarned || d.distancePercent > LIQUIDATION_WARNING_PERCENT) return;
    task.liquidationWarned = true;
    this.recordBeside(task, { type: 'LiquidationNear', data: { botId: task.botId, run: task.id.run, price, liquidation: d.liquidation, side: d.side, amount: Math.abs(held.amount), distancePercent: d.distancePercent, warnPercent: LIQUIDATION_WARNING_PERCENT, at: (this.o.now ?? Date.now)() } });
  }

  private converged(task: BotTask) {
    this.o.onConverged?.(task.botId);
  }

  private attach(task: BotTask): void {
    this.lapsedBots.delete(task.botId);
    this.tasks.set(task.botId, task);
    this.byPrefix.set(task.prefix, task);
    this.sources.attach(task);
  }

  /** Lets a bot go: no more exchange calls or records for it; its orders stay where they are. */
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
    this.o.metrics?.setRunningBots(this.report().running);
  }
}
