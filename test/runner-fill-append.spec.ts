/**
 * The runner records a fill together with what it asks of the exchange (the take-profit it places)
 * in ONE append to the bot's stream (issue 16: half the appends on the fleet's tick path), and the
 * history it leaves is the same as before: the fill, then the take-profit placed.
 */
import { join } from 'node:path';
import { BotCommandRunner } from '@gridrocket/bots/nest';
import { SqliteEventStore, type NewEvent } from '@gridrocket/event-store';
import { SqliteReadStore } from '@gridrocket/read-store';
import { EmbeddedOwnership } from '@gridrocket/streaming';
import { CsvReplayFeed, PaperExchangeProvider, PaperVenue } from '@gridrocket/exchanges';
import { GridRunner } from '@gridrocket/trading';
import { directCommands } from '@gridrocket/trading/nest';
import { until } from '@gridrocket/shared/testing/until';
import { useTempDir } from './support/close-all';

jest.setTimeout(60_000);

const T0 = 1_700_000_000_000;

describe('grid runner: one append for a fill and its take-profit', () => {
  const dir = useTempDir('gr-fill-append-');

  it('appends the buy fill and the take-profit placed for it together, in that order', async () => {
    const venue = new PaperVenue({
      store: join(dir, 'paper.sqlite'),
      feed: new CsvReplayFeed(['ms,exchange,symbol,price', `${T0},Binance,LTCUSDT,90.9`, `${T0 + 1000},Binance,LTCUSDT,89.95`].join('\n')),
    });
    venue.advanceTo(T0);
    const events = new SqliteEventStore(join(dir, 'events.sqlite'));
    const reads = new SqliteReadStore(join(dir, 'read.sqlite'));
    const converged: string[] = [];
    const runner = new GridRunner({
      events,
      reads,
      commands: directCommands(events),
      exchanges: new PaperExchangeProvider(venue),
      ownership: new EmbeddedOwnership(),
      logger: { log: () => undefined, warn: () => undefined, error: (m) => console.error(m) },
      onConverged: (botId) => converged.push(botId),
    });
    await runner.start();
    const botId = 'f1a2b3c4-0000-4000-8000-000000000001';
    const userId = 'user-1';
    const cmd = new BotCommandRunner(events);
    const ctx = { userId, correlationId: 'c-1' };
    const config = { exchange: 'Binance' as const, symbol: 'LTCUSDT', numOfOrders: 3, orderSize: 0.067, interval: 0.09, entryPrice: 90, takeProfit: 0.3, leverage: 1 };
    await cmd.run({ type: 'CreateBot', botId, userId, botType: 'Spot', config }, ctx);
    await cmd.run({ type: 'StartBot', botId, userId }, ctx);
    await until('the bot runs', () => runner.runningBots().includes(botId));
    await runner.idle();

    const appends: string[][] = [];
    const append = events.append.bind(events);
    jest.spyOn(events, 'append').mockImplementation((streamId: string, evs: NewEvent[], expected, options) => {
      if (streamId === `bot-${botId}`) appends.push(evs.map((e) => e.type));
      return append(streamId, evs, expected, options);
    });
    converged.length = 0;
    venue.advanceTo(T0 + 1000); // 89.95: the buy at 90 fills
    await until('the bot reacted to its fill', () => converged.includes(botId));
    await runner.idle();

    expect(appends).toEqual([['OrderFilled', 'TakeProfitPlaced']]);
    expect(venue.store.allFills()).toHaveLength(1);
    const port = await new PaperExchangeProvider(venue).for({ userId, exchange: 'Binance', market: 'spot' });
    expect((await port.openOrders('LTCUSDT')).filter((o) => o.side === 'sell')).toHaveLength(1);

    await runner.stop();
    await events.close();
    await reads.close();
    venue.close();
  });
});
