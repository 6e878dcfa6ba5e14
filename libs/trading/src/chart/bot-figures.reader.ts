import { Inject, Injectable } from '@nestjs/common';
import { EVENT_STORE, EventStore, RecordedEvent, StreamNotFoundError } from '@gridrocket/event-store';
import { BotDoc, botStream } from '@gridrocket/bots';
import type { PriceSubscriptionKey } from '@gridrocket/exchanges';
import { botFigures, type BotFigures } from '../money/figures';
import type { StreamEvent } from '../money/money-entries';
import { PriceHistory } from './price-history';

/** When an event was recorded (ms): its metadata's occurredAt, else the store's write time. */
const recordedAt = (e: RecordedEvent) => Date.parse(e.metadata.occurredAt) || Date.parse(e.created);

/**
 * What every screen's figures are read from (issue 40, point 1): the bot's stream and the price now, the
 * same way for the bot page, the cards, the performance view and the account, so they cannot disagree.
 */
@Injectable()
export class BotFiguresReader {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    private readonly prices: PriceHistory,
  ) {}

  key(doc: BotDoc): PriceSubscriptionKey {
    const config = doc.s.config!;
    return { exchange: config.exchange, market: doc.s.botType === 'Futures' ? 'futures' : 'spot', symbol: config.symbol };
  }

  async history(doc: BotDoc): Promise<RecordedEvent[]> {
    try {
      return await this.events.readStream(botStream(doc.id));
    } catch (err) {
      if (!(err instanceof StreamNotFoundError)) throw err;
      return [];
    }
  }

  /** The events as the pure folds read them. */
  stream(events: readonly RecordedEvent[]): StreamEvent[] {
    return events.map((e) => ({ type: e.type, data: e.data, at: recordedAt(e) }));
  }

  /** The market's recent prices (subscribing to them); nothing sampled yet: the price now, through the owner's port. */
  async pricePoints(doc: BotDoc): Promise<{ time: number; value: number }[]> {
    const key = this.key(doc);
    let points = this.prices.points(key);
    if (points.length === 0) {
      const now = await this.prices.current(doc.userid, key).catch(() => null);
      if (now) points = [now];
    }
    return points;
  }

  /** The price the figures mark what is held at: the latest tick, else the latest point. */
  priceNow(doc: BotDoc, points: readonly { value: number }[]): number | null {
    return this.prices.latest(this.key(doc)) ?? points[points.length - 1]?.value ?? null;
  }

  /** The bot's figures (money/figures.ts), as the bot page's summary has them. */
  async figures(doc: BotDoc): Promise<BotFigures> {
    const [events, points] = await Promise.all([this.history(doc), this.pricePoints(doc)]);
    return botFigures(this.stream(events), this.priceNow(doc, points), Date.now());
  }
}
