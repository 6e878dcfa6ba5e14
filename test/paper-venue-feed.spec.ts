/**
 * Issue 39, "paper trading on the market as it is": with PAPER_FEED=venue the paper exchange is priced
 * by a venue's public ticker stream. Here the venue is a stand-in (binance-spot.streams.ts `@ticker`,
 * kucoin.streams.ts `/market/ticker` over a bullet-public token) whose market the test moves; the paper
 * exchange is opened from configuration with its feed pointed at the stand-in, and a paper bot runs on
 * it. When the stand-in's price falls below the bot's first buy rung, the paper order fills: an
 * OrderFilled in the bot's history. While the stream is down, the paper exchange keeps the last price
 * and says so; when it is back, prices flow again.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CsvReplayFeed, openPaperExchange, PaperVenue, type ExchangeName, type PaperExchangeSetup } from '@gridrocket/exchanges';
import { startVenueStandIn, type VenueStandIn } from '@gridrocket/exchanges/testing/standin/venue-standin';
import type { BotConfig } from '@gridrocket/bots';
import { until } from '@gridrocket/shared/testing/until';
import { RunnerWorld } from './support/runner-world';
import { closeAll } from './support/close-all';

jest.setTimeout(90_000);

const T = Date.now();
const VENUES = [
  { exchange: 'Binance', market: 'spot', id: 'binance' },
  { exchange: 'Kucoin', market: 'spot', id: 'kucoin' },
] as const;

describe.each(VENUES)('a paper bot on the prices of $id\'s public stream', ({ exchange, market, id }) => {
  // the venue's market (`real`, served by the stand-in): 61,000 now, 61,000 again once the paper exchange listens, then 59,500
  const csv = ['ms,exchange,symbol,price', `${T - 5000},${exchange},BTCUSDT,61000`, `${T + 1000},${exchange},BTCUSDT,61000`, `${T + 2000},${exchange},BTCUSDT,59500`, `${T + 3000},${exchange},BTCUSDT,59800`].join('\n');
  const dir = mkdtempSync(join(tmpdir(), 'gr-venue-feed-'));
  let real: PaperVenue;
  let standIn: VenueStandIn;
  let paper: PaperExchangeSetup;
  let world: RunnerWorld;
  const btc: BotConfig = { exchange: exchange as ExchangeName, symbol: 'BTCUSDT', numOfOrders: 4, orderSize: 0.01, interval: 1000, entryPrice: 60000, takeProfit: 1, leverage: 1 };
  const paperPrice = () => paper.venue.priceUnits(exchange, 'BTCUSDT') / 1e8;
  const stream = () => paper.status().streams[0];

  beforeAll(async () => {
    real = new PaperVenue({ store: join(dir, 'market.sqlite'), feed: new CsvReplayFeed(csv) });
    real.advanceTo(T - 5000);
    standIn = await startVenueStandIn(real, exchange, market, []);
    // the paper exchange as configuration opens it: PAPER_FEED=venue, PAPER_FEED_VENUES, PAPER_FEED_ORIGIN
    world = new RunnerWorld((d) => {
      paper = openPaperExchange({ dbPath: join(d, 'paper-exchange.sqlite'), paperFeed: 'venue', paperFeedVenues: id, paperFeedOrigin: `${id}=${standIn.origin}`, feedIntervalMs: 200 });
      return paper.venue;
    });
    paper.start();
    await world.runner();
  });
  afterAll(async () => {
    await closeAll(paper, world, standIn, real, dir);
  });

  it('fills the bot\'s buy rung when the stand-in\'s price crosses it; keeps the last price while the stream is down', async () => {
    expect(paper.status()).toMatchObject({ kind: 'venue', streams: [{ exchange, market }] });
    await until('the paper exchange subscribed to the venue\'s ticker stream', () => stream().live && standIn.subscriptions().market > 0, 20_000);

    // the venue's price reaches the paper exchange
    real.advanceTo(T + 1000);
    await until('the paper price is the venue\'s', () => paperPrice() === 61000, 10_000);

    const botId = await world.create('ada', 'Spot', btc);
    await world.run({ type: 'StartBot', botId, userId: 'ada' }, 'ada');
    const port = await world.paper.for({ userId: 'ada', exchange, market });
    await until('running with its ladder', async () => (await port.openOrders('BTCUSDT')).length === 4, 20_000);
    const rungs = (await port.openOrders('BTCUSDT')).map((o) => o.price).sort((a, b) => b - a);
    expect(rungs[0]).toBe(60000);
    const filled = async () => (await world.history(botId)).filter((e) => e.type === 'OrderFilled').map((e) => e.data as { price: number; side: string });
    expect(await filled()).toEqual([]);

    // the stand-in's price falls below the first rung: the paper order fills (as a maker, at its limit)
    real.advanceTo(T + 2000);
    await until('the paper fill in the bot\'s history', async () => (await filled()).length === 1, 15_000);
    expect(paperPrice()).toBe(59500);
    expect((await filled())[0]).toMatchObject({ price: 60000, side: 'buy' });
    expect((await port.openOrders('BTCUSDT')).map((o) => o.price)).not.toContain(60000);

    // the stream is cut and refused: the paper exchange says so and keeps the last price
    standIn.streams.refuse();
    standIn.streams.cut();
    await until('the feed reports the stream down', () => stream().live === false, 15_000);
    expect(stream().reason).toBeTruthy();
    expect(stream().since).toBeGreaterThanOrEqual(T);
    expect(paperPrice()).toBe(59500);

    // back: the next price of the venue reaches the paper exchange again
    standIn.streams.accept();
    await until('the stream live again', () => stream().live && standIn.subscriptions().market > 0, 70_000);
    real.advanceTo(T + 3000);
    await until('the paper price follows the venue again', () => paperPrice() === 59800, 10_000);
    expect(await filled()).toHaveLength(1);
  });
});
