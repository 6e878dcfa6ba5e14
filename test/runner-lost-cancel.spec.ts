/**
 * A runner that cancels a bot's orders (stop with cancel-all) and dies before the cancels reach
 * the history: the next runner finds them cancelled on the exchange, records them, and finishes
 * the stop. The history explains every order.
 */
import { until } from '@gridrocket/shared/testing/until';
import { RunnerWorld } from './support/runner-world';

jest.setTimeout(30_000);

const CSV = ['ms,exchange,symbol,price', '1000,Binance,BTCUSDT,61000', '2000,Binance,BTCUSDT,61000'].join('\n');

describe('runner: cancels lost in a crash reach the history on resume', () => {
  const world = new RunnerWorld(CSV, 1000);
  afterAll(() => world.close());

  it('given a stop whose cancels happened but were not recorded, when a runner resumes, then OrderCancelled for each and BotStopped', async () => {
    const { events, paper: provider } = world;
    const runner = () => world.runner();
    const types = (id: string) => world.types(id);

    const first = await runner();
    const userId = 'user-1';
    const botId = await world.create(userId, 'Spot', { exchange: 'Binance', symbol: 'BTCUSDT', numOfOrders: 3, orderSize: 0.01, interval: 500, entryPrice: 60000, takeProfit: 1, leverage: 1 });
    await world.run({ type: 'StartBot', botId, userId }, userId);
    await until('bot started', async () => (await types(botId)).includes('BotStarted'));
    await first.stop();

    // The runner that handled the stop cancelled the orders on the exchange, then died before
    // appending anything: the history only has the request.
    const port = await provider.for({ userId, exchange: 'Binance', market: 'spot' });
    const open = await port.openOrders('BTCUSDT');
    expect(open).toHaveLength(3);
    await world.run({ type: 'StopBot', botId, userId, cancelAllOrders: true }, userId);
    for (const o of open) await port.cancelOrder('BTCUSDT', o.clientOrderId);
    expect(await types(botId)).not.toContain('OrderCancelled');

    const second = await runner();
    await until('bot stopped', async () => (await types(botId)).includes('BotStopped'));
    await second.stop();

    const history = await events.readStream(`bot-${botId}`);
    const cancelled = history.filter((e) => e.type === 'OrderCancelled').map((e) => (e.data as { clientOrderId: string }).clientOrderId);
    expect(cancelled.sort()).toEqual(open.map((o) => o.clientOrderId).sort());
    const stop = history.find((e) => e.type === 'BotStopRequested')!;
    for (const e of history.filter((x) => x.type === 'OrderCancelled' || x.type === 'BotStopped')) expect(e.metadata.causationId).toBe(stop.id);
    expect(await port.openOrders('BTCUSDT')).toEqual([]);
  });
});
