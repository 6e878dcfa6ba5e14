import { Body, Controller, Get, HttpCode, Inject, Param, Post, UseGuards } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Projector, READ_STORE, type ReadStore } from '@gridrocket/read-store';
import { NotFoundError, type CommandContext } from '@gridrocket/shared';
import { Ctx } from '@gridrocket/shared/http';
import { SessionGuard } from '@gridrocket/identity';
import { parseBacktestRequest, parseSweepRequest } from './application/backtest.input';
import { BacktestService } from './application/backtest.service';
import { BACKTEST_COLLECTION, type BacktestDoc } from './backtest-list.projection';
import { BACKTEST_NOT_FOUND } from './domain/backtest.decider';

const ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A user's backtests: request one (202 + id, progress on the socket), list them, read one. */
@ApiTags('backtests')
@Controller('backtests')
@UseGuards(SessionGuard)
export class BacktestsController {
  constructor(
    private readonly backtests: BacktestService,
    private readonly projector: Projector,
    @Inject(READ_STORE) private readonly reads: ReadStore,
  ) {}

  @Post()
  @HttpCode(202)
  async request(@Body() body: unknown, @Ctx() ctx: CommandContext): Promise<{ id: string; status: 'running' }> {
    const request = parseBacktestRequest(body, Date.now(), this.backtests.sourceKind);
    const { id, position } = await this.backtests.request(ctx, 'single', request);
    if (position !== null) await this.projector.waitFor(position);
    return { id, status: 'running' };
  }

  @Post('sweep')
  @HttpCode(202)
  async sweep(@Body() body: unknown, @Ctx() ctx: CommandContext): Promise<{ id: string; status: 'running' }> {
    const request = parseSweepRequest(body, Date.now(), this.backtests.sourceKind);
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

  @Get(':id')
  async get(@Param('id') id: string, @Ctx() ctx: CommandContext): Promise<BacktestDoc> {
    if (!ID.test(id)) throw new NotFoundError(BACKTEST_NOT_FOUND);
    const doc = await this.reads.get<BacktestDoc>(BACKTEST_COLLECTION, id.toLowerCase());
    if (!doc || doc.userid !== ctx.userId) throw new NotFoundError(BACKTEST_NOT_FOUND); // another user's is not found
    return doc;
  }
}
