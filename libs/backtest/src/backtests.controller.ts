import { Body, Delete, Get, HttpCode, Inject, Param, PayloadTooLargeException, Post, Req } from '@nestjs/common';
import type { Request } from 'express';
import { Projector, READ_STORE, type ReadStore } from '@gridrocket/read-store';
import { NotFoundError, ValidationError, type CommandContext } from '@gridrocket/shared';
import { Ctx, bodyChunks, drainRefusedBody } from '@gridrocket/shared/http';
import { APP_CONFIG, type AppConfig } from '@gridrocket/shared/runtime';
import { SessionController } from '@gridrocket/identity/nest';
import { parseBacktestRequest, parseSweepRequest } from './application/backtest.input';
import { BacktestService } from './application/backtest.service';
import { BACKTEST_COLLECTION, type BacktestDoc } from './backtest-list.projection';
import { BACKTEST_NOT_FOUND } from './domain/backtest.decider';
import { MAX_UPLOAD_BYTES, type UploadSummary } from './candles/upload.candles';
import { UploadStoreError } from './candles/upload-store';

/** The file name an upload was given (`?name=`): printable, at most 120 characters, else none. */
function uploadName(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const name = value.replace(/[\u0000-\u001f\u007f]/g, '').trim().slice(0, 120);
  return name || null;
}

const ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A user's backtests: request one (202 + id, progress on the socket), list them, read one, cancel one. */
@SessionController('backtests')
export class BacktestsController {
  constructor(
    private readonly backtests: BacktestService,
    private readonly projector: Projector,
    @Inject(READ_STORE) private readonly reads: ReadStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * An uploaded CSV of candles (Content-Type text/csv, at most 8 MB, within the user's upload quota):
   * 201 {candlesId, candles, from, to}. Each chunk goes to the upload store's worker thread as it
   * arrives, where it is parsed (only the unfinished line is held) and then stored: the request thread
   * only counts bytes (issue 28). A bad line, or the quota passed, stops the read.
   */
  @Post('candles')
  @HttpCode(201)
  async upload(@Req() req: Request, @Ctx() ctx: CommandContext): Promise<UploadSummary> {
    const uploads = this.backtests.uploads;
    const usage = uploads.usage(ctx.userId);
    try {
      if (!/^text\/(csv|plain)\b/i.test(String(req.headers['content-type'] ?? ''))) {
        throw new ValidationError([{ field: 'csv', message: 'Send the candles as text/csv: time,open,high,low,close[,volume] per line' }]);
      }
      const announced = Number(req.headers['content-length']);
      this.backtests.assertUploadRoom(ctx.userId, Number.isFinite(announced) && announced > 0 ? announced : 0, usage); // before reading
    } catch (err) {
      drainRefusedBody(req); // refused before reading: the body is dropped (bounded), the answer still sent
      throw err;
    }
    const session = uploads.begin(ctx.userId, uploadName(req.query.name));
    let size = 0;
    try {
      for await (const chunk of bodyChunks(req)) {
        if (session.failed) break; // a bad line: its error is the answer
        size += chunk.length;
        if (size > MAX_UPLOAD_BYTES) throw new PayloadTooLargeException(`The CSV is larger than ${MAX_UPLOAD_BYTES / 1024 / 1024} MB`);
        this.backtests.assertUploadRoom(ctx.userId, size, usage);
        session.push(chunk);
      }
      return await session.end(size, this.config.uploads);
    } catch (err) {
      session.abort();
      drainRefusedBody(req); // answered, not torn down: the rest of the body is read and dropped (bounded)
      if (err instanceof UploadStoreError && err.failure.kind === 'csv') throw new ValidationError([{ field: 'csv', message: err.message }]);
      if (err instanceof UploadStoreError && err.failure.kind === 'quota') throw this.backtests.uploadQuotaError(err.failure.problem!);
      throw err;
    }
  }

  /** The user's uploads, newest first: {candlesId, candles, from, to, name, bytes}. */
  @Get('candles')
  listUploads(@Ctx() ctx: CommandContext) {
    return this.backtests.uploads.list(ctx.userId);
  }

  /** Deletes one of the user's uploads: 204; 404 when unknown or another user's. */
  @Delete('candles/:id')
  @HttpCode(204)
  async removeUpload(@Param('id') id: string, @Ctx() ctx: CommandContext): Promise<void> {
    if (!ID.test(id) || !(await this.backtests.uploads.remove(ctx.userId, id.toLowerCase()))) throw new NotFoundError('No uploaded CSV of candles with this id');
  }

  @Post()
  @HttpCode(202)
  async request(@Body() body: unknown, @Ctx() ctx: CommandContext): Promise<{ id: string; status: 'running' }> {
    const request = parseBacktestRequest(body, Date.now(), this.backtests.sourceKind);
    this.backtests.assertUpload(ctx.userId, request);
    const { id, position } = await this.backtests.request(ctx, 'single', request);
    if (position !== null) await this.projector.waitFor(position);
    return { id, status: 'running' };
  }

  @Post('sweep')
  @HttpCode(202)
  async sweep(@Body() body: unknown, @Ctx() ctx: CommandContext): Promise<{ id: string; status: 'running' }> {
    // the cap counts the candles the sweep really runs over: an upload's rows, else the period's
    const request = parseSweepRequest(body, Date.now(), this.backtests.sourceKind, (r) => this.backtests.candleRows(ctx.userId, r));
    const { id, position } = await this.backtests.request(ctx, 'sweep', request);
    if (position !== null) await this.projector.waitFor(position);
    return { id, status: 'running' };
  }

  /** The latest 50, newest first, without curves and sweep points. */
  @Get()
  async list(@Ctx() ctx: CommandContext) {
    const docs = await this.reads.find<BacktestDoc>(BACKTEST_COLLECTION, { userid: ctx.userId }, { orderBy: { field: 'createdat', direction: 'desc' }, limit: 50 });
    return docs.map(({ result, sweep, ...d }) => ({
      ...d,
      result: result ? { ...result, curve: undefined } : null,
      sweep: sweep ? { best: sweep.best, count: sweep.points.length } : null,
    }));
  }

  /**
   * Cancels one of the user's backtests while it waits or runs: 204, its worker terminated, the
   * backtest `cancelled`; 404 for an unknown id or another user's; 409 once it has finished.
   */
  @Delete(':id')
  @HttpCode(204)
  async cancel(@Param('id') id: string, @Ctx() ctx: CommandContext): Promise<void> {
    if (!ID.test(id)) throw new NotFoundError(BACKTEST_NOT_FOUND);
    await this.backtests.cancel(ctx, id.toLowerCase());
  }

  @Get(':id')
  async get(@Param('id') id: string, @Ctx() ctx: CommandContext): Promise<BacktestDoc> {
    if (!ID.test(id)) throw new NotFoundError(BACKTEST_NOT_FOUND);
    const doc = await this.reads.get<BacktestDoc>(BACKTEST_COLLECTION, id.toLowerCase());
    if (!doc || doc.userid !== ctx.userId) throw new NotFoundError(BACKTEST_NOT_FOUND); // another user's is not found
    return doc;
  }
}
