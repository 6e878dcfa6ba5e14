import { Controller, Get, Inject, Optional, Param, Query, UseGuards } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { READ_STORE, ReadStore } from '@gridrocket/read-store';
import { BOT_LIST_COLLECTION, BotDoc } from '@gridrocket/bots';
import { CommandContext, EXCHANGES, NotFoundError, SYMBOL_SYNTAX_MESSAGE, ValidationError, normalSymbol, unlistedSymbolMessage } from '@gridrocket/shared';
import type { ExchangeName } from '@gridrocket/shared';
import { Ctx, CurrentUser, SessionUser } from '@gridrocket/shared/http';
import { AuditorPolicy } from '@gridrocket/bots/nest';
import { SessionGuard } from '@gridrocket/identity/nest';
import { UnknownSymbolError } from '@gridrocket/exchanges';
import { GridChart, buildGridChart } from './grid-chart';
import { BotOverview, BotSummary, buildBotSummary } from './bot-summary';
import { BotFiguresReader } from './bot-figures.reader';
import { PriceHistory } from './price-history';
import { chartRisk, type ChartRisk } from './risk-levels';
import { toGridConfig } from '../runner/bot-workflow';
import { styleFor } from '../styles/registry';
import { marginTiers } from '@gridrocket/exchanges/venues';

const ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const SPARK_POINTS = 48;

export type { BotOverview } from './bot-summary';

/**
 * `GET /api/bots/{id}/chart`: what the dashboard's grid chart draws; `GET /api/bots/{id}/summary`:
 * the bot page's figures; `GET /api/bots-overview`: the bots page's strip and cards. Owner only (the chart and
 * the figures: an auditor too, issue 40).
 */
@ApiTags('bots')
@Controller()
@UseGuards(SessionGuard)
export class BotChartController {
  constructor(
    @Inject(READ_STORE) private readonly reads: ReadStore,
    private readonly prices: PriceHistory,
    private readonly figures: BotFiguresReader,
    @Optional() private readonly auditors?: AuditorPolicy,
  ) {}

  /** The user's own bot; an auditor's, any user's (issue 40: the auditors' read-only bot page). */
  private async owned(id: string, ctx: CommandContext, user?: SessionUser): Promise<BotDoc> {
    const doc = ID.test(id) ? await this.reads.get<BotDoc>(BOT_LIST_COLLECTION, id.toLowerCase()) : null;
    if (!doc || (doc.userid !== ctx.userId && !(user && this.auditors?.isAuditor(user)))) throw new NotFoundError('Bot not found');
    return doc;
  }

  private async summaryOf(doc: BotDoc): Promise<{ summary: BotSummary; points: { time: number; value: number }[] }> {
    const [events, points] = await Promise.all([this.figures.history(doc), this.figures.pricePoints(doc)]);
    // the figures as every screen reads them (BotFiguresReader: the same stream, the same price)
    const summary = buildBotSummary(this.figures.stream(events), this.figures.priceNow(doc, points), Date.now());
    return { summary, points };
  }

  @Get('bots/:id/chart')
  async chart(@Param('id') id: string, @Ctx() ctx: CommandContext, @CurrentUser() user: SessionUser): Promise<GridChart & { risk: ChartRisk }> {
    const doc = await this.owned(id, ctx, user);
    const [events, points] = await Promise.all([this.figures.history(doc), this.figures.pricePoints(doc)]);
    // Issue 14: the stop-loss, trailing and liquidation levels (additive: `risk`).
    const config = doc.s.config!;
    const tiers = doc.s.botType === 'Futures' ? marginTiers(config.exchange, config.symbol).tiers : undefined;
    // the bot's style draws its own levels where it has them (a neutral grid's side), else the ladder's
    const style = styleFor(config);
    const risk = style.chartRisk ? style.chartRisk(events, style.engineConfig(config, doc.s.botType), tiers) : chartRisk(events, toGridConfig(config, doc.s.botType), tiers);
    return { ...buildGridChart(events, points), risk };
  }

  @Get('bots/:id/summary')
  async summary(@Param('id') id: string, @Ctx() ctx: CommandContext, @CurrentUser() user: SessionUser): Promise<BotSummary> {
    return (await this.summaryOf(await this.owned(id, ctx, user))).summary;
  }

  @Get('bots-overview')
  async overview(@Ctx() ctx: CommandContext): Promise<BotOverview[]> {
    const docs = await this.reads.find<BotDoc>(BOT_LIST_COLLECTION, { userid: ctx.userId });
    return Promise.all(
      docs.filter((d) => d.s.config).map(async (doc) => {
        const { summary: s, points } = await this.summaryOf(doc);
        const overview: BotOverview = {
          id: doc.id,
          lastPrice: s.lastPrice,
          position: s.position,
          dust: s.dust,
          averageEntry: s.averageEntry,
          unrealisedPnl: s.unrealisedPnl,
          realisedPnl: s.realisedPnl,
          realisedToday: s.realisedToday,
          totalPnl: s.totalPnl,
          feesPaid: s.feesPaid,
          fills: s.fills,
          capitalInUse: s.capitalInUse,
          capitalCommitted: s.capitalCommitted,
          running: s.running,
          currency: s.currency,
          direction: s.direction,
          spark: points.slice(-SPARK_POINTS).map((p) => p.value),
        };
        return overview;
      }),
    );
  }

  /** The market's steps and minimum order value, for the bot form's checks (public market data). */
  @Get('market-rules')
  async marketRules(@Query() q: Record<string, unknown>, @Ctx() ctx: CommandContext) {
    const exchange = String(q.exchange ?? '');
    const symbol = String(q.symbol ?? '').toUpperCase();
    const botType = String(q.botType ?? 'Spot');
    const errors = [];
    if (!(EXCHANGES as readonly string[]).includes(exchange)) errors.push({ field: 'exchange', message: 'exchange must be Binance or Kucoin' });
    if (!normalSymbol(symbol)) errors.push({ field: 'symbol', message: SYMBOL_SYNTAX_MESSAGE });
    if (botType !== 'Spot' && botType !== 'Futures') errors.push({ field: 'botType', message: 'botType must be Spot or Futures' });
    if (errors.length) throw new ValidationError(errors);
    const market = botType === 'Futures' ? 'futures' : 'spot';
    try {
      return await this.prices.marketRules(ctx.userId, { exchange: exchange as ExchangeName, market, symbol });
    } catch (err) {
      // issue 39: a pair the account's venue does not list is the form's field message, not a failure
      if (err instanceof UnknownSymbolError) throw new ValidationError([{ field: 'symbol', message: unlistedSymbolMessage(symbol, `${exchange} ${market}`) }]);
      throw err;
    }
  }
}
