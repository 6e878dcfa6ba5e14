import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import { EXCHANGE_PROVIDER } from '@gridrocket/credentials';
import type { ExchangeProvider, MarketRules, PriceSubscriptionKey } from '@gridrocket/exchanges';
import type { ChartPoint } from './grid-chart';

const MAX_POINTS = 720;
const SAMPLE_SECONDS = 2;

/**
 * Recent prices per exchange, market and symbol, for the grid charts: one
 * shared subscription each, opened on the first chart asked for, sampled every
 * few seconds into a bounded ring (at most a few dozen keys exist).
 */
@Injectable()
export class PriceHistory implements OnModuleDestroy {
  private readonly series = new Map<string, ChartPoint[]>();
  /** The latest tick of each key (between samples too), for live figures. */
  private readonly last = new Map<string, number>();
  private readonly unsubscribe: (() => void)[] = [];

  constructor(@Inject(EXCHANGE_PROVIDER) private readonly exchanges: ExchangeProvider) {}

  points(key: PriceSubscriptionKey): ChartPoint[] {
    const id = `${key.exchange}|${key.market}|${key.symbol}`;
    let series = this.series.get(id);
    if (!series) {
      const fresh: ChartPoint[] = [];
      series = fresh;
      this.series.set(id, fresh);
      this.unsubscribe.push(
        this.exchanges.prices.subscribe(key, (tick) => {
          this.last.set(id, tick.price);
          const time = Math.floor(tick.ms / 1000);
          const last = fresh[fresh.length - 1];
          if (last && time - last.time < SAMPLE_SECONDS) return;
          fresh.push({ time, value: tick.price });
          if (fresh.length > MAX_POINTS) fresh.shift();
        }),
      );
    }
    return [...series];
  }

  /** The price now, through the user's own exchange port (public data; no order is involved). */
  async current(userId: string, key: PriceSubscriptionKey): Promise<ChartPoint> {
    const port = await this.exchanges.for({ userId, exchange: key.exchange, market: key.market });
    return { time: Math.floor(Date.now() / 1000), value: await port.price(key.symbol) };
  }

  /** The latest price seen on the subscription of `points(key)`, if any yet. */
  latest(key: PriceSubscriptionKey): number | null {
    return this.last.get(`${key.exchange}|${key.market}|${key.symbol}`) ?? null;
  }

  /** The market's steps, minimums and fees, through the user's own exchange port (public data). */
  async marketRules(userId: string, key: PriceSubscriptionKey): Promise<MarketRules> {
    const port = await this.exchanges.for({ userId, exchange: key.exchange, market: key.market });
    return port.marketRules(key.symbol);
  }

  onModuleDestroy() {
    this.unsubscribe.forEach((off) => off());
  }
}
