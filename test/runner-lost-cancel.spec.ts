/**
 * A runner that cancels a bot's orders (stop with cancel-all) and dies before the cancels reach
 * the history: the next runner finds them cancelled on the exchange, records them, and finishes
 * the stop. The history explains every order.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { SqliteEventStore } from '@gridrocket/event-store';
import { SqliteReadStore } from '@gridrocket/read-store';
import { BotCommandRunner } from '@gridrocket/bots/nest';
import { EmbeddedOwnership } from '@gridrocket/streaming';
import { PaperExchangeProvider, PaperVenue } from '@gridrocket/exchanges';
import { CsvReplayFeed } from '@gridrocket/exchanges';
import { GridRunner } from '@gridrocket/trading';
import { directCommands } from '@gridrocket/trading/nest';
import { until } from '@gridrocket/shared/testing/until';

jest.setTimeout(30_000);

const CSV = ['ms,exchange,symbol,price', '1000,Binance,BTCUSDT,61000', '2000,Binance,BTCUSDT,61000'].join('\n');

describe('runner: cancels lost in a crash reach the history on resume', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gr-lost-cancel-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('given a stop whose cancels happened but were not recorded, when a runner resumes, then OrderCancelled for each and BotStopped', async () => {
    const venue = new PaperVenue({ store: join(dir, 'paper.sqlite'), feed: new CsvReplayFeed(CSV) });
    venue.advanceTo(1000);
    const provider = new PaperExchangeProvider(venue);
    const events = new SqliteEventStore(join(dir, 'events.sqlite'), 20);
    const reads = new SqliteReadStore(join(dir, 'read.sqlite'));
    const runner = () =>
      new GridRunner({
        events,
        reads,
        commands: directCommands(events),
        exchanges: provider,
        ownership: new EmbeddedOwnership(),
        logger: { log: () => undefined, warn: () => undefined, error: (m: string) => console.error(m) },
      });
    const types = async (id: string) => (await events.readStream(`bot-${id}`)).map((e) => e.type);

    const first = runner();
    await first.start();
    const botId = randomUUID();
    const userId = 'user-1';
    const cmd = new BotCommandRunner(events);
    const ctx = { userId, correlationId: randomUUID() };
    await cmd.run({ type: 'CreateBot', botId, userId, botType: 'Spot', config: { exchange: 'Binance', symbol: 'BTCUSDT', numOfOrders: 3, orderSize: 0.01, interval: 500, entryPrice: 60000, takeProfit: 1, leverage: 1 } }, ctx);
    await cmd.run({ type: 'StartBot', botId, userId }, ctx);
    await until('bot started', async () => (await types(botId)).includes('BotStarted'));
    await first.stop();

    // The runner that handled the stop cancelled the orders on the exchange, then died before
    // appending anything: the history only has the request.
    const port = await provider.for({ userId, exchange: 'Binance', market: 'spot' });
    const open = await port.openOrders('BTCUSDT');
    expect(open).toHaveLength(3);
    await cmd.run({ type: 'StopBot', botId, userId, cancelAllOrders: true }, ctx);
    for (const o of open) await port.cancelOrder('BTCUSDT', o.clientOrderId);
    expect(await types(botId)).not.toContain('OrderCancelled');

    const second = runner();
    await second.start();
    await until('bot stopped', async () => (await types(botId)).includes('BotStopped'));
    await second.stop();

    const history = await events.readStream(`bot-${botId}`);
    const cancelled = history.filter((e) => e.type === 'OrderCancelled').map((e) => (e.data as { clientOrderId: string }).clientOrderId);
    expect(cancelled.sort()).toEqual(open.map((o) => o.clientOrderId).sort());
    const stop = history.find((e) => e.type === 'BotStopRequested')!;
    for (const e of history.filter((x) => x.type === 'OrderCancelled' || x.type === 'BotStopped')) expect(e.metadata.causationId).toBe(stop.id);
    expect(await port.openOrders('BTCUSDT')).toEqual([]);
    await events.close();
    await reads.close();
    venue.close();
  });
});
