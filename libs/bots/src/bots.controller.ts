import { Body, Controller, Delete, Get, Headers, HttpCode, Inject, Optional, Param, Post, Put, Query, Req, Res, UseGuards } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiHeader, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { randomUUID } from 'node:crypto';
import { Projector, READ_STORE, ReadStore } from '@gridrocket/read-store';
import { BOT_TYPES, CommandContext, EXCHANGES, NotFoundError, ValidationError, parseIfMatch, revisionTag, stylePluginParts, type BotType, type ExchangeName } from '@gridrocket/shared';
import { AppRequest, Ctx, IDEMPOTENCY_HANDLER, IdempotencyHandler, assertSameUser, pageOf, idempotentIdOf, idempotently } from '@gridrocket/shared/http';
import { AccessTokenScopes, SessionGuard, StateChanging } from '@gridrocket/identity/nest';
import {
  CheckBotCommand,
  CreateBotCommand,
  DeleteBotCommand,
  EditBotCommand,
  StartBotCommand,
  StopBotCommand,
} from './application/bot.commands';
import type { BotDecision } from './application/bot-command.runner';
import { MarketCheck } from './application/market-check';
import { CapacityCheck, type CapacityView } from './application/capacity-check';
import { BOT_LIST_COLLECTION, BotDoc, publicBot } from './bot-list.projection';
import { BOT_NOT_FOUND } from './domain/bot.decider';
import { parseCreateBot, parseEditBot } from './domain/bot.rules';
import { hasRange, inRangeTerms } from './domain/bot-range.rules';
import { investmentSizer } from './domain/bot-investment.rules';
import { BotView, toBotView } from './domain/bot.view';
import { BOT_DIRECTIONS, BOT_STYLE_NAMES, botStyleOf, type BotDirection } from './styles/registry';
import type { BotStyleRules } from './styles/bot-style';
import { MAX_GRID_ORDERS } from '@gridrocket/trading/grid';

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


/** A body that gives the total investment (issue 40): the market's rules size its orders. */
const hasInvestment = (raw: Record<string, unknown>) => raw.investment !== undefined && raw.investment !== null && raw.investment !== '';
/** The coin a pair's messages name (BTCUSDT → BTC). */
const baseOf = (symbol: unknown) => (typeof symbol === 'string' ? symbol.toUpperCase().replace(/[-/]?(USDT|USDC)$/, '') : undefined);

/** The market's refusal of a ranged body, in the range's terms (bot-range.rules.ts inRangeTerms). */
async function inRangeTermsIf(ranged: boolean, ladder: { entryPrice: number; interval: number; numOfOrders: number }, check: Promise<void>): Promise<void> {
  try {
    await check;
  } catch (err) {
    if (ranged && err instanceof ValidationError) throw new ValidationError(inRangeTerms(err.errors, ladder));
    throw err;
  }
}

function flag(value: unknown, field: string): boolean {
  if (value === undefined || value === '' || value === null) return false;
  if (value === true || value === 'true' || value === '1' || value === 1) return true;
  if (value === false || value === 'false' || value === '0' || value === 0) return false;
  throw new ValidationError([{ field, message: `${field} must be true or false` }]);
}

/** `a, b or c`, for the choices of a message. */
const oneOf = (choices: readonly string[]) => (choices.length > 1 ? `${choices.slice(0, -1).join(', ')} or ${choices[choices.length - 1]}` : choices.join(''));

/** The capacity query's values (GET /api/bot-capacity): 400 with a message per field; its styles and directions are the registry's built-in ones. */
function parseCapacityQuery(q: Record<string, unknown>): { exchange: ExchangeName; botType: BotType; symbol: string; bot: { numOfOrders: number; direction?: BotDirection; style?: (typeof BOT_STYLE_NAMES)[number]; initialQuote?: number }; botId?: string } {
  const errors: { field: string; message: string }[] = [];
  const exchange = q.exchange;
  if (!(EXCHANGES as readonly unknown[]).includes(exchange)) errors.push({ field: 'exchange', message: `exchange must be one of ${EXCHANGES.join(', ')}` });
  const botType = q.botType ?? 'Spot';
  if (!(BOT_TYPES as readonly unknown[]).includes(botType)) errors.push({ field: 'botType', message: `botType must be one of ${BOT_TYPES.join(', ')}` });
  const symbol = typeof q.symbol === 'string' ? q.symbol.trim().toUpperCase() : '';
  if (!/^[A-Z0-9]{2,30}$/.test(symbol)) errors.push({ field: 'symbol', message: 'symbol must be a pair such as BTCUSDT' });
  const style = q.style === undefined || q.style === '' || q.style === 'ladder' ? undefined : q.style;
  const known = style !== undefined && (BOT_STYLE_NAMES as readonly unknown[]).includes(style);
  if (style !== undefined && !known) errors.push({ field: 'style', message: `style must be ladder or ${BOT_STYLE_NAMES.join(' or ')}` });
  const direction = q.direction === undefined || q.direction === '' ? undefined : q.direction;
  if (direction !== undefined && !(BOT_DIRECTIONS as readonly unknown[]).includes(direction)) errors.push({ field: 'direction', message: `direction must be ${oneOf(BOT_DIRECTIONS)}` });
  // a style without the ladder's grid size (BotStyle.notLadderFields: the infinity grid's) is not asked it
  const noGridSize = known && botStyleOf({ style })?.notLadderFields?.includes('numOfOrders') === true;
  const n = Number(q.numOfOrders);
  if (!noGridSize && !(Number.isInteger(n) && n >= 1 && n <= MAX_GRID_ORDERS)) errors.push({ field: 'numOfOrders', message: `numOfOrders must be a whole number from 1 to ${MAX_GRID_ORDERS}` });
  const initialQuote = q.initialQuote === undefined || q.initialQuote === '' ? 0 : Number(q.initialQuote);
  if (!(Number.isFinite(initialQuote) && initialQuote >= 0)) errors.push({ field: 'initialQuote', message: 'initialQuote must be a number of 0 or more' });
  let id: string | undefined;
  if (q.id !== undefined && q.id !== '') {
    if (typeof q.id !== 'string' || !ID.test(q.id)) errors.push({ field: 'id', message: "id must be a bot's id" });
    else id = q.id.toLowerCase();
  }
  if (errors.length) throw new ValidationError(errors);
  return {
    exchange: exchange as ExchangeName,
    botType: botType as BotType,
    symbol,
    bot: { numOfOrders: noGridSize ? 0 : n, ...(direction ? { direction: direction as BotDirection } : {}), ...(style ? { style: style as (typeof BOT_STYLE_NAMES)[number], initialQuote } : {}) },
    ...(id ? { botId: id } : {}),
  };
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
    private readonly market: MarketCheck,
    private readonly capacity: CapacityCheck,
    @Optional() @Inject(IDEMPOTENCY_HANDLER) private readonly idempotency?: IdempotencyHandler,
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

  /** Beyond the spec: the same list a page at a time, `{items, total, limit, offset}`. */
  @Get('bots')
  @ApiQuery({ name: 'limit', required: false, description: '1 to 100, default 50' })
  @ApiQuery({ name: 'offset', required: false, description: 'from 0, default 0' })
  async page(@Query() query: Record<string, unknown>, @Ctx() ctx: CommandContext): Promise<{ items: BotView[]; total: number; limit: number; offset: number }> {
    const { limit, offset } = pageOf(query);
    const where = { userid: ctx.userId };
    const [docs, total] = await Promise.all([
      this.reads.find<BotDoc>(BOT_LIST_COLLECTION, where, { orderBy: { field: 'createdat' }, limit, offset }),
      this.reads.count(BOT_LIST_COLLECTION, where),
    ]);
    return { items: docs.map(publicBot), total, limit, offset };
  }

  /** One bot, with its stream revision as the ETag (what an edit's If-Match names). */
  @Get('bot-details/:id')
  async details(@Param('id') id: string, @Ctx() ctx: CommandContext, @Res({ passthrough: true }) res: Response): Promise<BotView> {
    const bid = botId(id);
    const stored = (await this.reads.getMany<BotDoc>(BOT_LIST_COLLECTION, [bid])).get(bid);
    const doc = stored?.doc;
    if (!stored || !doc || doc.userid !== ctx.userId) throw new NotFoundError(BOT_NOT_FOUND);
    res.setHeader('ETag', revisionTag(BigInt(stored.rev)));
    return publicBot(doc);
  }

  /**
   * Issue 39 (docs/runner.md "Capacity before a start"): what the key can carry if a bot of these values
   * started: its orders at start against the venue's order-count windows, the open orders on its symbol
   * against the venue's maximum, and the account's share of the install's weight budget; `refusal` is the
   * 409 a start would get (null: it fits). `id`: the bot being edited, not counted among the others.
   */
  @Get('bot-capacity')
  async capacityOf(@Query() query: Record<string, unknown>, @Ctx() ctx: CommandContext): Promise<CapacityView> {
    const input = parseCapacityQuery(query);
    if (input.botId) {
      const doc = await this.reads.get<BotDoc>(BOT_LIST_COLLECTION, input.botId);
      if (!doc || doc.userid !== ctx.userId) throw new NotFoundError(BOT_NOT_FOUND);
    }
    return this.capacity.answer(ctx.userId, input);
  }

  /** The capacity answer of one of the user's bots, as its start would be checked (another user's bot: 404). */
  @Get('bot-capacity/:id')
  async capacityOfBot(@Param('id') id: string, @Ctx() ctx: CommandContext): Promise<CapacityView> {
    const bid = botId(id);
    const doc = await this.reads.get<BotDoc>(BOT_LIST_COLLECTION, bid);
    const c = doc?.s.config;
    if (!doc || doc.userid !== ctx.userId || !c || !doc.s.botType) throw new NotFoundError(BOT_NOT_FOUND);
    return this.capacity.answer(ctx.userId, { exchange: c.exchange, botType: doc.s.botType, symbol: c.symbol, bot: c, botId: bid });
  }

  @Post('bots')
  @AccessTokenScopes('trade')
  @HttpCode(201)
  @ApiHeader({
    name: 'Idempotency-Key',
    required: false,
    description: 'Retry safely: the same key and body answer the first answer and create nothing more; the same key with another body is 422',
  })
  create(@Body() body: unknown, @Query() query: Record<string, unknown>, @Ctx() ctx: CommandContext, @Req() req: AppRequest): Promise<BotView> {
    return idempotently(this.idempotency, req, 'BotsController.create', async () => {
      const raw = merged(body, query);
      // a range (issue 32) is converted at the market's own price step; an investment (issue 40) sizes the orders at its steps and minimums
      const ranged = hasRange(raw);
      const invested = hasInvestment(raw);
      // (a style of one bot type, BotStyle.onlyBotType: the infinity grid's spot, is asked at that type's market)
      const rules = ranged || invested ? await this.market.rules(ctx, botStyleOf({ style: raw.style })?.onlyBotType?.botType ?? raw.botType, raw.exchange, raw.symbol) : undefined;
      const priceStep = rules && rules.priceStep > 0 ? rules.priceStep : undefined;
      const input = parseCreateBot(raw, { priceStep, sizeOrders: invested ? investmentSizer(rules, baseOf(raw.symbol)) : undefined, styleRules: stylePluginParts<BotStyleRules>('rules') });
      assertSameUser(ctx.userId, input.userId);
      // a style with a market check of its own (issue 32: the infinity grid's) is asked it instead of the ladder's
      const ownCheck = botStyleOf({ style: input.config.style })?.marketProblem;
      if (ownCheck) await this.market.assertStyle(ctx, input.botType, input.config, (r) => ownCheck(input.config, r));
      else await inRangeTermsIf(ranged, input.config, this.market.assert(ctx, input.botType, input.config.symbol, input.config, { confirmAboveMarket: input.confirmAboveMarket }));
      // With an Idempotency-Key the id derives from it: a retry whose first answer was lost (even in a
      // crash) finds the bot it created instead of creating a second.
      const id = idempotentIdOf(req) ?? randomUUID();
      if (idempotentIdOf(req)) {
        const existing = await this.reads.get<BotDoc>(BOT_LIST_COLLECTION, id);
        if (existing && existing.userid === ctx.userId) return publicBot(existing);
      }
      const decision: BotDecision = await this.commands.execute(new CreateBotCommand(ctx, id, input.botType, input.config));
      return this.view(decision, id);
    });
  }

  /**
   * With `If-Match: "<revision>"` (the ETag of the bot's GET), the edit applies only if the bot is
   * still at that revision: otherwise 412 and nothing is written. Without it, the last edit wins.
   */
  @Put('bots/:id')
  @AccessTokenScopes('trade')
  async edit(
    @Param('id') id: string,
    @Body() body: unknown,
    @Query() query: Record<string, unknown>,
    @Ctx() ctx: CommandContext,
    @Headers('if-match') ifMatch: string | undefined,
    @Res({ passthrough: true }) res: Response,
  ): Promise<BotView> {
    const bid = botId(id);
    // the bot's type and market are known from the bot itself; another user's bot (or none) is left
    // to the decider (404), and its edit is parsed without a type (the lenient futures minimum)
    const doc = await this.reads.get<BotDoc>(BOT_LIST_COLLECTION, bid);
    const own = doc && doc.userid === ctx.userId ? doc : null;
    // the take-profit minimum is the edited bot's (a spot bot's maker fees, not the futures ones), and the
    // bot's stored spacing stands when the edit does not change it (issue 14), so the edit is checked as
    // the grid it makes
    const raw = merged(body, query);
    const ranged = hasRange(raw);
    const invested = hasInvestment(raw);
    const c0 = own?.s.config;
    const rules = (ranged || invested) && own ? await this.market.rules(ctx, own.s.botType, raw.exchange, c0?.symbol) : undefined;
    const priceStep = rules && rules.priceStep > 0 ? rules.priceStep : undefined;
    // issue 40: an investment sizes the orders with the bot's stored settings where the edit keeps them
    const sizeOrders = invested ? investmentSizer(rules, baseOf(c0?.symbol), c0 ? { leverage: own?.s.botType === 'Futures' ? c0.leverage : 1, spacing: c0.spacing, sizeScale: c0.sizeScale, direction: c0.direction } : {}) : undefined;
    const input = parseEditBot(raw, own?.s.botType ?? undefined, { spacing: c0?.spacing, direction: c0?.direction, style: c0?.style, investment: c0?.investment }, { priceStep, sizeOrders });
    assertSameUser(ctx.userId, input.userId);
    if (own && own.s.config && own.s.botType) {
      const c = own.s.config;
      const kept = <K extends 'spacing' | 'sizeScale' | 'direction' | 'stopLossPercent' | 'stopLossPrice' | 'stopLossPriceAbove' | 'marginMode'>(k: K) => (input.config[k] === null ? undefined : input.config[k] ?? c[k]);
      // (issue 40: the stops and margin mode the bot keeps are checked against its liquidation price too)
      const risk = { spacing: kept('spacing'), sizeScale: kept('sizeScale'), direction: kept('direction'), stopLossPercent: kept('stopLossPercent'), stopLossPrice: kept('stopLossPrice'), stopLossPriceAbove: kept('stopLossPriceAbove'), marginMode: kept('marginMode') };
      // (the name and investment are no market's; a neutral grid's edit without a take profit keeps the bot's)
      const { name: _name, investment: _investment, ...settings } = input.config;
      await inRangeTermsIf(ranged, input.config, this.market.assert(ctx, own.s.botType, c.symbol, { ...settings, ...risk, takeProfit: input.config.takeProfit ?? c.takeProfit, leverage: input.config.leverage ?? c.leverage }, { confirmAboveMarket: input.confirmAboveMarket }));
    }
    const decision: BotDecision = await this.commands.execute(new EditBotCommand(ctx, bid, input.config, parseIfMatch(ifMatch)));
    if (decision.revision !== null) res.setHeader('ETag', revisionTag(decision.revision));
    return this.view(decision, bid);
  }

  @Delete('bots/:id')
  @AccessTokenScopes('trade')
  @HttpCode(204)
  async remove(@Param('id') id: string, @Ctx() ctx: CommandContext): Promise<void> {
    const decision: BotDecision = await this.commands.execute(new DeleteBotCommand(ctx, botId(id)));
    await this.projector.waitFor(decision.position);
  }

  @Get('startBot')
  @AccessTokenScopes('trade')
  @HttpCode(202)
  @ApiQuery({ name: 'confirmPosition', required: false, description: 'true: start although the bot holds a position (without it such a start is 409, saying what it holds and what the ladder adds)' })
  @StateChanging()
  async start(@Query() query: Record<string, unknown>, @Ctx() ctx: CommandContext): Promise<BotView> {
    assertSameUser(ctx.userId, query.userId);
    const id = botId(query.id);
    // Beyond the spec (issue 29): a bot that holds a position starts only with confirmPosition=true
    // (without it: 409 saying what it holds and what the new ladder adds).
    const confirmPosition = flag(query.confirmPosition, 'confirmPosition');
    return this.view(await this.commands.execute(new StartBotCommand(ctx, id, confirmPosition)), id);
  }

  @Get('stopBot')
  @AccessTokenScopes('trade')
  @HttpCode(202)
  @ApiQuery({ name: 'closePosition', required: false, description: 'true: after the cancels, sell what the bot holds at market (futures: close its position, reduce-only)' })
  @StateChanging()
  async stop(@Query() query: Record<string, unknown>, @Ctx() ctx: CommandContext): Promise<BotView> {
    assertSameUser(ctx.userId, query.userId);
    const id = botId(query.id);
    const cancelAll = flag(query.cancelAllOrders, 'cancelAllOrders');
    // Beyond the spec: close the bot's position at market once its orders are cancelled (futures:
    // reduce-only; spot: a market sell of what the bot holds, issue 29).
    const closePosition = flag(query.closePosition, 'closePosition');
    return this.view(await this.commands.execute(new StopBotCommand(ctx, id, cancelAll, closePosition)), id);
  }

  /**
   * "Check now" (issue 29, docs/watchdog.md): asks the runner that owns the bot (this process or another)
   * to compare it with the exchange at once, through a recorded BotCheckRequested it reacts to. 202
   * `{requested: true}`; what the check finds shows as drift / not-trading events in the bot's history.
   * 409 when the bot is not running; 404 for another user's bot. Rate-limited per bot: a request within
   * 30 s of the last records nothing and is answered the same (`pending: true`).
   */
  @Post('bots/:id/check')
  @AccessTokenScopes('trade')
  @HttpCode(202)
  async check(@Param('id') id: string, @Ctx() ctx: CommandContext): Promise<{ requested: true; pending?: true; requestedAt: number }> {
    const bid = botId(id);
    const decision: BotDecision = await this.commands.execute(new CheckBotCommand(ctx, bid, Date.now()));
    await this.projector.waitFor(decision.position);
    const requestedAt = decision.state.kind === 'live' ? decision.state.checkRequestedAt ?? Date.now() : Date.now();
    return decision.events.length === 0 ? { requested: true, pending: true, requestedAt } : { requested: true, requestedAt };
  }
}
