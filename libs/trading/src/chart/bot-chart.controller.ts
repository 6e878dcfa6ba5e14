import { Controller, Get, Inject, Param, Query, UseGuards } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { EVENT_STORE, EventStore, StreamNotFoundError } from '@gridrocket/event-store';
import { READ_STORE, ReadStore } from '@gridrocket/read-store';
import { BOT_LIST_COLLECTION, BotDoc, botStream } from '@gridrocket/bots';
import { CommandContext, EXCHANGES, NotFoundError, SYMBOL_SYNTAX_MESSAGE, ValidationError, normalSymbol, unlistedSymbolMessage } from '@gridrocket/shared';
import type { ExchangeName } from '@gridrocket/shared';
import { Ctx } from '@gridrocket/shared/http';
import { SessionGuard } from '@gridrocket/identity/nest';
import { UnknownSymbolError, type PriceSubscriptionKey } from '@gridrocket/exchanges';
import { GridChart, buildGridChart } from './grid-chart';
import { BotSummary, buildBotSummary } from './bot-summary';
import { PriceHistory } from './price-history';
import { chartRisk, type ChartRisk } from './risk-levels';
import { toGridConfig } from '../runner/bot-workflow';
import { toNeutralConfig } from '../runner/neutral-workflow';
import { marginTiers } from '@gridrocket/exchanges/venues';

const ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const SPARK_POINTS = 48;

export interface BotOverview {
  id: string;
  lastPrice: number | null;
  position: number;
  averageEntry: number | null;
  unrealisedPnl: number;
  realisedPnl: number;
  realisedToday: number;
  capitalInUse: number;
  running: boolean;
  /** The latest prices of the bot's market, oldest first, for a sparkline. */
  spark: number[];
}

const keyOf = (doc: BotDoc): PriceSubscriptionKey => {
  const config = doc.s.config!;
  return { exchange: config.exchange, market: doc.s.botType === 'Futures' ? 'futures' : 'spot', symbol: config.symbol };
};

/**
 * `GET /api/bots/{id}/chart`: what the dashboard's grid chart draws; `GET /api/bots/{id}/summary`:
 * the bot page's figures; `GET /api/bots-overview`: the bots page's strip and cards. Owner only.
 */
@ApiTags('bots')
@Controller()
@UseGuards(SessionGuard)
export class BotChartController {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(READ_STORE) private readonly reads: ReadStore,
    private readonly prices: PriceHistory,
  ) {}

  private async owned(id: string, ctx: CommandContext): Promise<BotDoc> {
    const doc = ID.test(id) ? await this.reads.get<BotDoc>(BOT_LIST_COLLECTION, id.toLowerCase()) : null;
    if (!doc || doc.userid !== ctx.userId) throw new NotFoundError('Bot not found');
    return doc;
  }

  private async history(doc: BotDoc) {
    try {
      return await this.events.readStream(botStream(doc.id));
    } catch (err) {
      if (!(err instanceof StreamNotFoundError)) throw err;
      return [];
    }
  }

  private async pricePoints(doc: BotDoc) {
    const key = keyOf(doc);
    let points = this.prices.points(key);
    if (points.length === 0) {
      // nothing sampled yet: start the line at the current price
      const now = await this.prices.current(doc.userid, key).catch(() => null);
      if (now) points = [now];
    }
    return points;
  }

  private async summaryOf(doc: BotDoc): Promise<{ summary: BotSummary; points: { time: number; value: number }[] }> {
    const [events, points] = await Promise.all([this.history(doc), this.pricePoints(doc)]);
    const last = this.prices.latest(keyOf(doc)) ?? points[points.length - 1]?.value ?? null;
    const summary = buildBotSummary(
      events.map((e) => ({ type: e.type, data: e.data, at: Date.parse(e.metadata.occurredAt) || Date.parse(e.created) })),
      last,
      Date.now(),
    );
    return { summary, points };
  }

  @Get('bots/:id/chart')
  async chart(@Param('id') id: string, @Ctx() ctx: CommandContext): Promise<GridChart & { risk: ChartRisk }> {
    const doc = await this.owned(id, ctx);
    const [events, points] = await Promise.all([this.history(doc), this.pricePoints(doc)]);
    // Issue 14: the stop-loss, trailing and liquidation levels (additive: `risk`).
    const config = doc.s.config!;
    const tiers = doc.s.botType === 'Futures' ? marginTiers(config.exchange, config.symbol).tiers : undefined;
    return { ...buildGridChart(events, points), risk: chartRisk(events, toGridConfig(config, doc.s.botType), tiers, config.direction === 'neutral' ? toNeutralConfig(config) : undefined) };
  }

  @Get('bots/:id/summary')
  async summary(@Param('id') id: string, @Ctx() ctx: CommandContext): Promise<BotSummary> {
    return (await this.summaryOf(await this.owned(id, ctx))).summary;
  }

  @Get('bots-overview')
  async overview(@Ctx() ctx: CommandContext): Promise<BotOverview[]> {
    const docs = await this.reads.find<BotDoc>(BOT_LIST_COLLECTION, { userid: ctx.userId });
    return Promise.all(
      docs.filter((d) => d.s.config).map(async (doc) => {
        const { summary: s, points } = await this.summaryOf(doc);
        return {
          id: doc.id,
          lastPrice: s.lastPrice,
          position: s.position,
          averageEntry: s.averageEntry,
          unrealisedPnl: s.unrealisedPnl,
          realisedPnl: s.realisedPnl,
          realisedToday: s.realisedToday,
          capitalInUse: s.capitalInUse,
          running: s.running,
          spark: points.slice(-SPARK_POINTS).map((p) => p.value),
        };
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
