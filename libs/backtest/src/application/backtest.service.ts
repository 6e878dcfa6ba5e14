/**
 * Runs requested backtests and sweeps: BacktestRequested is recorded first, the candles are read (issue
 * 40, candles/backtest-history.ts: the venue's own, fetched here on the API's thread with asynchronous
 * reads and kept in the candle store, or where the venue is not reached the fixed, seeded simulated
 * history, made in the job pool; the result names which), the engine runs in the job pool's
 * worker threads (never on the request thread; `jobs/job-pool.ts`: bounded, round-robin by user, a
 * computing budget per job), progress is pushed to the owner's sockets, and BacktestCompleted,
 * BacktestFailed or BacktestCancelled (the owner's DELETE) closes the stream. A backtest still
 * `running` when the process stopped is marked BacktestInterrupted at the next start (in the
 * background), never run again at boot.
 */
import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { EVENT_STORE, type EventStore } from '@gridrocket/event-store';
import { Projector, READ_STORE, type ReadStore } from '@gridrocket/read-store';
import { APP_CONFIG, executeCommand, type AppConfig } from '@gridrocket/shared/runtime';
import { TooManyRequestsError, ValidationError, systemContext, type CommandContext } from '@gridrocket/shared';
import { PUSH, QuotaExceededError, type PushPort } from '@gridrocket/shared/http';
import { EXCHANGE_PROVIDER } from '@gridrocket/credentials';
import { ExchangeError, ccxtExchangeId, mapCcxtError, paperFeedOrigin, type ExchangeProvider } from '@gridrocket/exchanges';
import { feeTermsOf } from '../domain/backtest.engine';
import { backtestDecider } from '../domain/backtest.decider';
import { backtestStream, type BacktestEvent, type BacktestRequest, type SweepPoint } from '../domain/backtest.events';
import { bestCell, sweepEntries, type SweepCell } from '../domain/sweep';
import { sweepsFrom } from '../domain/styles';
import { BACKTEST_COLLECTION, type BacktestDoc } from '../backtest-list.projection';
import { CandleCache } from '../candles/candle-cache';
import { CcxtCandleSource } from '../candles/ccxt.candles';
import type { CandleQuery, VenueTerms } from '../candles/candle-source.port';
import { paperTerms } from '../candles/paper.candles';
import { readHistory, uploadHistory, venueProblem, type HistoryMode } from '../candles/backtest-history';
import { CandleUploads, uploadQuotaProblem, type UploadUsage } from '../candles/upload.candles';
import { UploadStore } from '../candles/upload-store';
import { JobCancelledError, JobPool } from '../jobs/job-pool';
import { periodCandles, sweepWorkProblem } from './backtest.input';

/** The simulated history's seed (the same query always gives the same candles; paper.candles.ts). */
const PAPER_SEED = 1;

/** Backtests one user may have running or queued at once (more: 429). */
export const MAX_RUNNING_PER_USER = 3;

export function toSweepPoint(c: SweepCell): SweepPoint {
  const r = c.result;
  return {
    style: c.style,
    interval: c.interval,
    numOfOrders: c.numOfOrders,
    takeProfit: c.takeProfit,
    profit: r ? r.profit : null,
    unrealised: r ? r.unrealised : null,
    totalReturn: r ? r.totalReturn : null,
    annualisedReturn: r ? r.annualisedReturn : null,
    maxDrawdownPct: r ? r.maxDrawdownPct : null,
    cycles: r ? r.cycles : null,
    fills: r ? r.fills : null,
    fees: r ? r.fees : null,
    ...(c.error ? { error: c.error } : {}),
  };
}

@Injectable()
export class BacktestService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Backtest');
  private readonly running = new Map<string, number>();
  readonly pool: JobPool;
  /** Cancelled by their owner while their candles were read or they ran: nothing more to record. */
  private readonly cancelled = new Set<string>();
  private exchange: CcxtCandleSource | null = null;
  /** Issue 40: the venue's candles where the server reaches it (default), or the simulated history only. */
  private readonly historyMode: HistoryMode;
  /** Where the public candle calls go (BACKTEST_CANDLES_ORIGIN; tests: a stand-in), by ccxt id; else the venue. */
  private readonly candlesOrigin: ((ccxtId: string) => string | undefined) | undefined;
  private candleCache: CandleCache | null = null;
  private uploadStore: UploadStore | null = null;
  private readonly abort = new AbortController();
  private readonly inFlight = new Set<Promise<void>>();
  private readonly started = new Set<string>();

  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(READ_STORE) private readonly reads: ReadStore,
    @Inject(PUSH) private readonly push: PushPort,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(EXCHANGE_PROVIDER) private readonly exchanges: ExchangeProvider,
    private readonly projector: Projector,
  ) {
    this.historyMode = config.backtests?.history ?? 'venue';
    // a malformed origin stops the start with the setting's name (paperFeedOrigin's words)
    const origin = config.backtests?.candlesOrigin ?? (config.exchangeMode === 'paper' ? config.paperFeed?.origin : config.exchangeApiOrigin) ?? undefined;
    try {
      this.candlesOrigin = paperFeedOrigin(origin ?? undefined);
    } catch (err) {
      throw new Error((err as Error).message.replace('PAPER_FEED_ORIGIN', 'BACKTEST_CANDLES_ORIGIN'));
    }
    this.pool = new JobPool({
      size: config.backtests?.workers || undefined,
      budgetMs: (config.backtests?.budgetSeconds ?? 600) * 1000,
      nice: config.backtests?.nice ?? 10,
      maxHeapMb: 512,
    });
  }

  /** The terms a backtest trades under: paper mode the paper venue's model of the venue; live/testnet the exchange's. */
  get sourceKind(): 'paper' | 'exchange' {
    return this.exchanges.mode === 'paper' ? 'paper' : 'exchange';
  }

  /** The venue's candles and (live/testnet) terms: ccxt's public calls, candles kept in the candle store. */
  private venue(): CcxtCandleSource {
    const origin = this.candlesOrigin;
    this.exchange ??= new CcxtCandleSource({ cache: this.cache(), apiOrigin: origin ? (exchange, market) => origin(ccxtExchangeId(exchange, market)) : undefined });
    return this.exchange;
  }

  /**
   * The venue's terms: in paper mode the paper venue's (its model of the venue: offline); live and testnet
   * ask the venue, and where it is not reached use the venue's rules as recorded for the paper venue.
   */
  private async terms(request: BacktestRequest, query: CandleQuery): Promise<VenueTerms> {
    if (request.source === 'paper') return paperTerms(query);
    try {
      return await this.venue().terms(query);
    } catch (err) {
      const problem = venueProblem(err, query);
      if (problem === null) throw err;
      let recorded: VenueTerms;
      try {
        recorded = paperTerms(query);
      } catch {
        throw err; // a pair the recorded rules do not know: the venue's own answer
      }
      return { ...recorded, feeSource: `${query.exchange} ${query.market} fees as recorded (${problem}): ${recorded.feeSource.replace(/^paper exchange with [^:]+: /, '')}` };
    }
  }

  /** The candle store: exchange candles and uploaded CSVs, in <DATA_DIR>/candles.sqlite. */
  private cache(): CandleCache {
    this.candleCache ??= new CandleCache(join(this.config.dataDir, 'candles.sqlite'));
    return this.candleCache;
  }

  /** Uploaded CSVs: parsed, written, read and deleted in a worker thread of their own (`upload-store.ts`). */
  get uploads(): CandleUploads {
    this.uploadStore ??= new UploadStore(join(this.config.dataDir, 'candles.sqlite'), this.config.backtests?.nice ?? 10);
    return new CandleUploads(this.cache(), this.uploadStore);
  }

  /** Throws the 409 of the upload quota when the user's uploads and `bytes` more would pass it. */
  assertUploadRoom(userId: string, bytes: number, usage: UploadUsage = this.uploads.usage(userId)): void {
    const problem = uploadQuotaProblem(usage, this.config.uploads, bytes);
    if (problem) throw this.uploadQuotaError(problem);
  }

  /** The 409 of the upload quota for the limit passed. */
  uploadQuotaError(problem: 'uploads' | 'uploadBytes'): QuotaExceededError {
    const limits = this.config.uploads;
    return new QuotaExceededError(problem, problem === 'uploads' ? limits.maxFiles : limits.maxBytes, 'Delete an upload first.');
  }

  /** Throws a field error when a request names an upload that is not the user's. */
  assertUpload(userId: string, request: BacktestRequest): void {
    this.candleRows(userId, request);
  }

  /**
   * The candles a request will run over: the rows of its upload (a field error when the upload is not
   * the user's), else the period's candles. What a sweep's cap counts.
   */
  candleRows(userId: string, request: BacktestRequest): number {
    if (!request.candlesId) return periodCandles(request);
    const rows = this.uploads.rows(userId, request.candlesId);
    if (rows === null) throw new ValidationError([{ field: 'candles', message: 'No uploaded CSV of candles with this id' }]);
    return rows;
  }

  /** Records the request and starts it; resolves with the id and the event's position. */
  async request(ctx: CommandContext, kind: 'single' | 'sweep', request: BacktestRequest): Promise<{ id: string; position: bigint | null }> {
    if ((this.running.get(ctx.userId) ?? 0) >= MAX_RUNNING_PER_USER) {
      throw new TooManyRequestsError(5, `At most ${MAX_RUNNING_PER_USER} backtests may run or wait at once; wait for one to finish or cancel one`);
    }
    const id = randomUUID();
    this.running.set(ctx.userId, (this.running.get(ctx.userId) ?? 0) + 1); // counted before the await: no race past the limit
    let decision;
    try {
      decision = await executeCommand(this.events, backtestStream(id), backtestDecider, { type: 'RequestBacktest', data: { backtestId: id, userId: ctx.userId, kind, request } }, ctx);
    } catch (err) {
      this.running.set(ctx.userId, (this.running.get(ctx.userId) ?? 1) - 1);
      throw err;
    }
    this.start(id, ctx.userId, kind, request, ctx, true);
    return { id, position: decision.position };
  }

  private start(id: string, userId: string, kind: 'single' | 'sweep', request: BacktestRequest, ctx: CommandContext, counted = false): void {
    this.started.add(id);
    if (!counted) this.running.set(userId, (this.running.get(userId) ?? 0) + 1);
    const p = this.run(id, userId, request, ctx).finally(() => {
      this.running.set(userId, (this.running.get(userId) ?? 1) - 1);
      this.cancelled.delete(id);
      this.inFlight.delete(p);
    });
    this.inFlight.add(p);
  }

  private async run(id: string, userId: string, request: BacktestRequest, ctx: CommandContext): Promise<void> {
    const next: CommandContext = { userId, correlationId: ctx.correlationId, causationId: null };
    let last = 0;
    const progress = (phase: 'candles' | 'running', done: number, total: number) => {
      const now = Date.now();
      if (done < total && now - last < 100) return;
      last = now;
      this.push.toUser(userId, 'backtest:progress', { id, phase, done, total });
    };
    try {
      const query = { exchange: request.exchange, market: request.market, symbol: request.symbol, timeframe: request.timeframe, from: request.from, to: request.to };
      progress('candles', 0, 1);
      const terms = await this.terms(request, query);
      const { series, history } = await this.history(id, userId, request, query, progress);
      if (series.length === 0) throw new Error(`No candles for ${request.symbol} on ${request.exchange} in this period`);
      if (this.cancelled.has(id)) return;
      let data: Extract<BacktestEvent, { type: 'BacktestCompleted' }>['data'];
      const job = { id, userId, series, rules: terms.rules, fees: feeTermsOf(terms) };
      if (!request.sweep) {
        progress('running', 0, 1);
        const answer = await this.pool.run({ ...job, single: request.config });
        if (!('result' in answer)) throw new Error('The backtest gave no result');
        data = { backtestId: id, terms, candles: series.length, history, result: answer.result };
      } else {
        if (!sweepsFrom(request.config)) throw new Error('A sweep tries ladder settings: compare the infinity grid with styles');
        const configs = sweepEntries(request.config, request.sweep.ranges, request.sweep.styles);
        // the cap again on the candles really read (a request recorded before the cap counted rows, an exchange's answer)
        const tooLarge = sweepWorkProblem(configs.length, series.length);
        if (tooLarge) throw new Error(tooLarge.message);
        progress('running', 0, configs.length);
        const answer = await this.pool.run({ ...job, sweep: configs, onProgress: (done, total) => progress('running', done, total) });
        if (!('cells' in answer)) throw new Error('The sweep gave no cells');
        const cells = answer.cells;
        const best = bestCell(cells, request.sweep.measure);
        data = { backtestId: id, terms, candles: series.length, history, sweep: { points: cells.map(toSweepPoint), best: best ? toSweepPoint(best) : null } };
      }
      const completed = await executeCommand(this.events, backtestStream(id), backtestDecider, { type: 'CompleteBacktest', data }, next);
      if (completed.events.length > 0) this.push.toUser(userId, 'backtest:done', { id, status: 'done' });
    } catch (err) {
      // shutting down: marked interrupted at the next start; cancelled: the cancel recorded it
      if (this.abort.signal.aborted || this.cancelled.has(id) || err instanceof JobCancelledError) return;
      const reason = this.reason(err);
      try {
        await executeCommand(this.events, backtestStream(id), backtestDecider, { type: 'FailBacktest', data: { backtestId: id, reason } }, next);
      } catch (e) {
        this.logger.warn(`Backtest ${id} could not be marked failed: ${(e as Error).message}`);
      }
      this.push.toUser(userId, 'backtest:done', { id, status: 'failed', error: reason });
    }
  }

  /**
   * The candles and where they came from (issue 40): an upload's; else the venue's (fetched here: network,
   * and the candle store) where it gives them, or the simulated history, made in the job pool (a year of
   * 1-minute candles is 2.3 s of computing).
   */
  private async history(id: string, userId: string, request: BacktestRequest, query: CandleQuery, progress: (phase: 'candles', done: number, total: number) => void) {
    if (request.candlesId) {
      const series = await this.uploads.read(userId, request.candlesId);
      if (!series) throw new Error('The uploaded CSV of candles is gone');
      return { series, history: uploadHistory(query, series) };
    }
    return readHistory(
      query,
      {
        mode: this.historyMode,
        seed: PAPER_SEED,
        venue: () => this.venue(),
        simulated: async (q) => {
          const made = await this.pool.run({ id, userId, paper: { seed: PAPER_SEED, query: q } });
          if (!('series' in made)) throw new Error('No candles were made');
          return made.series;
        },
      },
      (f) => progress('candles', Math.round(f * 1000), 1000),
    );
  }

  /** A message safe to show: our own errors as they are, the exchange's mapped (never its raw text). */
  private reason(err: unknown): string {
    if (err instanceof ExchangeError) return err.message;
    const name = (err as { constructor?: { name?: string } })?.constructor?.name ?? '';
    if (/^(Error|RangeError|CsvCandleError)$/.test(name)) return (err as Error).message;
    return mapCcxtError(err).message;
  }

  /**
   * The owner's cancel: BacktestCancelled is recorded (404 for an unknown id or another user's, 409 for
   * a finished one: the decider decides), then the job leaves the queue or its worker is terminated,
   * and `backtest:done {status: 'cancelled'}` is pushed.
   */
  async cancel(ctx: CommandContext, id: string): Promise<void> {
    await executeCommand(this.events, backtestStream(id), backtestDecider, { type: 'CancelBacktest', data: { backtestId: id, userId: ctx.userId } }, ctx);
    this.cancelled.add(id);
    this.pool.cancel(id);
    this.push.toUser(ctx.userId, 'backtest:done', { id, status: 'cancelled' });
  }

  /** Backtests recorded as requested but never finished (the process stopped) are marked interrupted. */
  onApplicationBootstrap(): void {
    // In the background (never delays the server's start or /api/health): the projector may start after
    // this hook; wait until it has read everything.
    this.interrupted = this.interrupt().catch((err) => this.logger.warn(`Could not mark unfinished backtests: ${(err as Error).message}`));
  }

  /** Resolves once unfinished backtests found at start-up have been marked interrupted (tests). */
  interrupted: Promise<void> = Promise.resolve();

  private async interrupt(): Promise<void> {
    await this.projector.waitFor(await this.events.headPosition(), 60_000);
    const pending = await this.reads.find<BacktestDoc>(BACKTEST_COLLECTION, { status: 'running' });
    for (const doc of pending) {
      if (this.started.has(doc.id) || this.abort.signal.aborted) continue;
      await executeCommand(this.events, backtestStream(doc.id), backtestDecider, { type: 'InterruptBacktest', data: { backtestId: doc.id } }, systemContext(doc.userid));
    }
  }

  /** Shutdown: every job ends at once (the workers are terminated); unfinished ones are interrupted at the next start. */
  async onApplicationShutdown(): Promise<void> {
    this.abort.abort();
    await this.pool.close();
    await Promise.allSettled([...this.inFlight]);
    await this.uploadStore?.close();
    this.candleCache?.close();
  }
}
