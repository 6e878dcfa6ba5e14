import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Post, Put, Query, UseGuards } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiTags } from '@nestjs/swagger';
import { randomUUID } from 'node:crypto';
import { Projector, READ_STORE, ReadStore } from '@gridrocket/read-store';
import { CommandContext, NotFoundError, ValidationError } from '@gridrocket/shared';
import { Ctx, assertSameUser } from '@gridrocket/shared/http';
import { SessionGuard } from '@gridrocket/identity';
import {
  CreateBotCommand,
  DeleteBotCommand,
  EditBotCommand,
  StartBotCommand,
  StopBotCommand,
} from './application/bot.commands';
import type { BotDecision } from './application/bot-command.runner';
import { BOT_LIST_COLLECTION, BotDoc, publicBot } from './bot-list.projection';
import { BOT_NOT_FOUND } from './domain/bot.decider';
import { parseCreateBot, parseEditBot } from './domain/bot.rules';
import { BotView, toBotView } from './domain/bot.view';

const ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Spec parameters come from the JSON body and, where the body lacks them, from the query string. */
function merged(body: unknown, query: Record<string, unknown>): Record<string, unknown> {
  const b = body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
  if (body !== undefined && body !== null && (typeof body !== 'object' || Array.isArray(body))) {
    throw new ValidationError([{ field: 'body', message: 'The body must be a JSON object' }]);
  }
  return { ...query, ...b };
}

function botId(id: unknown): string {
  if (typeof id !== 'string' || !ID.test(id)) throw new NotFoundError(BOT_NOT_FOUND);
  return id.toLowerCase();
}

function flag(value: unknown, field: string): boolean {
  if (value === undefined || value === '' || value === null) return false;
  if (value === true || value === 'true' || value === '1' || value === 1) return true;
  if (value === false || value === 'false' || value === '0' || value === 0) return false;
  throw new ValidationError([{ field, message: `${field} must be true or false` }]);
}

/** The spec's bot calls (section 7), under /api. */
@ApiTags('bots')
@Controller()
@UseGuards(SessionGuard)
export class BotsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly projector: Projector,
    @Inject(READ_STORE) private readonly reads: ReadStore,
  ) {}

  /** Answers after the read model reflects the change, so a following GET sees it. */
  private async view(decision: BotDecision, id: string): Promise<BotView> {
    await this.projector.waitFor(decision.position);
    const doc = await this.reads.get<BotDoc>(BOT_LIST_COLLECTION, id);
    if (doc) return publicBot(doc);
    if (decision.state.kind !== 'live') throw new NotFoundError(BOT_NOT_FOUND);
    return toBotView(decision.state);
  }

  @Get('bots/:userId')
  async list(@Param('userId') userId: string, @Ctx() ctx: CommandContext): Promise<BotView[]> {
    assertSameUser(ctx.userId, userId);
    const docs = await this.reads.find<BotDoc>(BOT_LIST_COLLECTION, { userid: ctx.userId }, { orderBy: { field: 'createdat' } });
    return docs.map(publicBot);
  }

  @Get('bot-details/:id')
  async details(@Param('id') id: string, @Ctx() ctx: CommandContext): Promise<BotView> {
    const doc = await this.reads.get<BotDoc>(BOT_LIST_COLLECTION, botId(id));
    if (!doc || doc.userid !== ctx.userId) throw new NotFoundError(BOT_NOT_FOUND);
    return publicBot(doc);
  }

  @Post('bots')
  @HttpCode(201)
  async create(@Body() body: unknown, @Query() query: Record<string, unknown>, @Ctx() ctx: CommandContext): Promise<BotView> {
    const input = parseCreateBot(merged(body, query));
    assertSameUser(ctx.userId, input.userId);
    const id = randomUUID();
    const decision: BotDecision = await this.commands.execute(new CreateBotCommand(ctx, id, input.botType, input.config));
    return this.view(decision, id);
  }

  @Put('bots/:id')
  async edit(@Param('id') id: string, @Body() body: unknown, @Query() query: Record<string, unknown>, @Ctx() ctx: CommandContext): Promise<BotView> {
    const bid = botId(id);
    const input = parseEditBot(merged(body, query));
    assertSameUser(ctx.userId, input.userId);
    return this.view(await this.commands.execute(new EditBotCommand(ctx, bid, input.config)), bid);
  }

  @Delete('bots/:id')
  @HttpCode(204)
  async remove(@Param('id') id: string, @Ctx() ctx: CommandContext): Promise<void> {
    const decision: BotDecision = await this.commands.execute(new DeleteBotCommand(ctx, botId(id)));
    await this.projector.waitFor(decision.position);
  }

  @Get('startBot')
  @HttpCode(202)
  async start(@Query() query: Record<string, unknown>, @Ctx() ctx: CommandContext): Promise<BotView> {
    assertSameUser(ctx.userId, query.userId);
    const id = botId(query.id);
    return this.view(await this.commands.execute(new StartBotCommand(ctx, id)), id);
  }

  @Get('stopBot')
  @HttpCode(202)
  async stop(@Query() query: Record<string, unknown>, @Ctx() ctx: CommandContext): Promise<BotView> {
    assertSameUser(ctx.userId, query.userId);
    const id = botId(query.id);
    const cancelAll = flag(query.cancelAllOrders, 'cancelAllOrders');
    // Beyond the spec (futures): close the bot's position at market once its orders are cancelled.
    const closePosition = flag(query.closePosition, 'closePosition');
    return this.view(await this.commands.execute(new StopBotCommand(ctx, id, cancelAll, closePosition)), id);
  }
}
