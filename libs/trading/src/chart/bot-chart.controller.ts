import { Controller, Get, Inject, Param, UseGuards } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { EVENT_STORE, EventStore, StreamNotFoundError } from '@gridrocket/event-store';
import { READ_STORE, ReadStore } from '@gridrocket/read-store';
import { BOT_LIST_COLLECTION, BotDoc, botStream } from '@gridrocket/bots';
import { CommandContext, NotFoundError } from '@gridrocket/shared';
import { Ctx } from '@gridrocket/shared/http';
import { SessionGuard } from '@gridrocket/identity/nest';
import { GridChart, buildGridChart } from './grid-chart';
import { PriceHistory } from './price-history';
import { chartRisk, type ChartRisk } from './risk-levels';
import { toGridConfig } from '../runner/bot-workflow';
import { marginTiers } from '@gridrocket/exchanges/venues';

const ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** `GET /api/bots/{id}/chart`: what the dashboard's grid chart draws. */
@ApiTags('bots')
@Controller()
@UseGuards(SessionGuard)
export class BotChartController {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(READ_STORE) private readonly reads: ReadStore,
    private readonly prices: PriceHistory,
  ) {}

  @Get('bots/:id/chart')
  async chart(@Param('id') id: string, @Ctx() ctx: CommandContext): Promise<GridChart & { risk: ChartRisk }> {
    const doc = ID.test(id) ? await this.reads.get<BotDoc>(BOT_LIST_COLLECTION, id.toLowerCase()) : null;
    if (!doc || doc.userid !== ctx.userId) throw new NotFoundError('Bot not found');
    let events: { type: string; data: unknown }[] = [];
    try {
      events = await this.events.readStream(botStream(doc.id));
    } catch (err) {
      if (!(err instanceof StreamNotFoundError)) throw err;
    }
    const config = doc.s.config!;
    const key = { exchange: config.exchange, market: doc.s.botType === 'Futures' ? ('futures' as const) : ('spot' as const), symbol: config.symbol };
    let points = this.prices.points(key);
    if (points.length === 0) {
      // nothing sampled yet: start the line at the current price
      const now = await this.prices.current(doc.userid, key).catch(() => null);
      if (now) points = [now];
    }
    // Issue 14: the stop-loss, trailing and liquidation levels (additive: `risk`).
    const grid = toGridConfig(config, doc.s.botType);
    const tiers = doc.s.botType === 'Futures' ? marginTiers(config.exchange, config.symbol).tiers : undefined;
    return { ...buildGridChart(events, points), risk: chartRisk(events, grid, tiers) };
  }
}
