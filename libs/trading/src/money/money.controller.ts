import { Controller, Get, Inject, Param, Query, Res, UseGuards } from '@nestjs/common';
import { ApiProduces, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { READ_STORE, ReadStore } from '@gridrocket/read-store';
import { BOT_LIST_COLLECTION, BotDoc } from '@gridrocket/bots';
import { CommandContext, NotFoundError, ValidationError } from '@gridrocket/shared';
import { Ctx, pageOf } from '@gridrocket/shared/http';
import { SessionGuard } from '@gridrocket/identity/nest';
import { splitSymbol } from '@gridrocket/exchanges';
import { BotFiguresReader } from '../chart/bot-figures.reader';
import { BOT_MONEY_COLLECTION, BotMoneyDoc, cycleDocId } from './bot-money.projection';
import { MoneyEntry, MoneyFill, TradeRow, accountPerformance, fifoLots, lotsCsv, tradeRow } from './money';
import type { AccountPerformanceView, BotPerformanceView } from './account-figures';

const ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type { AccountPerformanceView, BotPerformanceView } from './account-figures';

/**
 * The money view (issue 29, docs/money.md): a bot's trades (a page at a time, and as FIFO lots in CSV),
 * its performance, and the account's. Owner only: another user's bot is 404, as on every bot route.
 */
@ApiTags('bots')
@Controller()
@UseGuards(SessionGuard)
export class MoneyController {
  constructor(
    @Inject(READ_STORE) private readonly reads: ReadStore,
    private readonly figures: BotFiguresReader,
  ) {}

  private async owned(id: string, ctx: CommandContext): Promise<BotDoc> {
    const doc = ID.test(id) ? await this.reads.get<BotDoc>(BOT_LIST_COLLECTION, id.toLowerCase()) : null;
    if (!doc || doc.userid !== ctx.userId || !doc.s.config) throw new NotFoundError('Bot not found');
    return doc;
  }

  private async entries(botId: string): Promise<MoneyEntry[]> {
    const docs = await this.reads.find<BotMoneyDoc>(BOT_MONEY_COLLECTION, { botid: botId }, { orderBy: { field: 'seq' } });
    return docs.map((d) => d.e);
  }

  /** The bot's figures as every screen reads them (BotFiguresReader, money/figures.ts). */
  private async performanceOf(doc: BotDoc): Promise<BotPerformanceView> {
    const c = doc.s.config!;
    const { currency, direction, runs: _runs, lastRun: _lastRun, ...performance } = await this.figures.figures(doc);
    return { id: doc.id, symbol: c.symbol, exchange: c.exchange, botType: doc.s.botType ?? 'Spot', currency, direction, ...performance };
  }

  @Get('bots/:id/trades')
  @ApiQuery({ name: 'limit', required: false, description: '1 to 100, default 50' })
  @ApiQuery({ name: 'offset', required: false, description: 'from 0, default 0 (newest first)' })
  async trades(@Param('id') id: string, @Query() query: Record<string, unknown>, @Ctx() ctx: CommandContext): Promise<{ items: TradeRow[]; total: number; limit: number; offset: number }> {
    const { limit, offset } = pageOf(query);
    const doc = await this.owned(id, ctx);
    const where = { botid: doc.id, kind: 'fill' };
    const [fills, total] = await Promise.all([
      this.reads.find<BotMoneyDoc>(BOT_MONEY_COLLECTION, where, { orderBy: { field: 'seq', direction: 'desc' }, limit, offset }),
      this.reads.count(BOT_MONEY_COLLECTION, where),
    ]);
    const cycles = await this.reads.getMany<BotMoneyDoc>(BOT_MONEY_COLLECTION, [...new Set(fills.map((f) => cycleDocId(doc.id, (f.e as MoneyFill).cycle)))]);
    const items = fills.map((f) => {
      const fill = f.e as MoneyFill;
      const cycle = cycles.get(cycleDocId(doc.id, fill.cycle))?.doc?.e;
      return tradeRow(fill, cycle && cycle.kind === 'cycle' ? cycle.profit : null);
    });
    return { items, total, limit, offset };
  }

  /** The bot's sells matched first-in first-out against its buys, one row per lot (docs/money.md). */
  @Get('bots/:id/trades.csv')
  @ApiProduces('text/csv')
  async tradesCsv(@Param('id') id: string, @Ctx() ctx: CommandContext, @Res() res: Response): Promise<void> {
    const doc = await this.owned(id, ctx);
    const { rows } = fifoLots(await this.entries(doc.id));
    const symbol = doc.s.config!.symbol;
    res.status(200);
    res.setHeader('content-type', 'text/csv; charset=utf-8');
    res.setHeader('cache-control', 'no-store');
    res.setHeader('content-disposition', `attachment; filename="bot-${doc.id}-trades.csv"`);
    res.end(lotsCsv(rows, symbol, splitSymbol(symbol).quote));
  }

  @Get('bots/:id/performance')
  async performance(@Param('id') id: string, @Ctx() ctx: CommandContext): Promise<BotPerformanceView> {
    return this.performanceOf(await this.owned(id, ctx));
  }

  /**
   * The account: every bot of the user added up, by quote currency (the one most bots use first, USDT on a
   * tie), and each bot's headline figures.
   */
  @Get('performance')
  async account(@Ctx() ctx: CommandContext): Promise<AccountPerformanceView> {
    const docs = (await this.reads.find<BotDoc>(BOT_LIST_COLLECTION, { userid: ctx.userId }, { orderBy: { field: 'createdat' } })).filter((d) => d.s.config);
    const perBot = await Promise.all(docs.map((d) => this.performanceOf(d)));
    const byCurrency = new Map<string, BotPerformanceView[]>();
    for (const p of perBot) byCurrency.set(p.currency, [...(byCurrency.get(p.currency) ?? []), p]);
    const currencies = [...byCurrency.keys()].sort((a, b) => byCurrency.get(b)!.length - byCurrency.get(a)!.length || (a === 'USDT' ? -1 : b === 'USDT' ? 1 : a.localeCompare(b)));
    const [main = 'USDT', ...rest] = currencies;
    const now = Date.now();
    return {
      ...accountPerformance(byCurrency.get(main) ?? [], now),
      currency: main,
      others: rest.map((currency) => {
        const { equity: _equity, ...figures } = accountPerformance(byCurrency.get(currency)!, now);
        return { ...figures, currency };
      }),
      perBot: perBot.map(({ equity: _equity, ...row }) => row),
    };
  }
}
