/**
 * Issue 29 (Found 6): a bot stopped without cancel-all says, on its details and in the list, how many of
 * its orders are still open on the exchange and no longer managed; a start clears it, a cancel-all stop
 * leaves none. On the paper exchange with a replayed price (the real app, over HTTP).
 */
import { until } from '@gridrocket/shared/testing/until';
import { spotBot } from './support/http-client';
import { traderWithBot, usePaperReplay } from './support/trader-app';

jest.setTimeout(60_000);

const T0 = 1_700_000_000_000;
const CSV = ['ms,exchange,symbol,price', `${T0},Binance,BTCUSDT,61000`].join('\n');

describe('orders left open by a stop without cancel-all', () => {
  const replay = usePaperReplay(CSV, T0);

  it('are counted on the bot and in the list until the next start; a cancel-all stop leaves none', async () => {
    const { c, uid, botId: id } = await traderWithBot(replay.app.url, 'leaver@example.com', { ...spotBot, entryPrice: 60000 });
    const details = async () => (await c.get(`/api/bot-details/${id}`)).body as { state: string; ordersleftopen?: number };
    const listed = async () => ((await c.get(`/api/bots/${uid}`)).body as { id: string; ordersleftopen?: number }[]).find((b) => b.id === id)!;
    const port = await replay.provider.for({ userId: uid, exchange: 'Binance', market: 'spot' });

    expect((await c.get(`/api/startBot?id=${id}&userId=${uid}`)).status).toBe(202);
    await until('running with its 5 buys resting', async () => (await details()).state === 'running' && (await port.openOrders('BTCUSDT')).length === 5, 20_000);
    expect((await details()).ordersleftopen).toBeUndefined();

    expect((await c.get(`/api/stopBot?id=${id}&userId=${uid}&cancelAllOrders=false`)).status).toBe(202);
    await until('stopped', async () => (await details()).state === 'stopped', 20_000);
    expect((await port.openOrders('BTCUSDT')).length).toBe(5);
    expect((await details()).ordersleftopen).toBe(5);
    expect((await listed()).ordersleftopen).toBe(5);

    // started again: its orders are managed again (adopted), so nothing is said
    expect((await c.get(`/api/startBot?id=${id}&userId=${uid}`)).status).toBe(202);
    await until('running', async () => (await details()).state === 'running', 20_000);
    expect((await details()).ordersleftopen).toBeUndefined();

    expect((await c.get(`/api/stopBot?id=${id}&userId=${uid}&cancelAllOrders=true`)).status).toBe(202);
    await until('stopped', async () => (await details()).state === 'stopped', 20_000);
    expect(await port.openOrders('BTCUSDT')).toEqual([]);
    expect((await details()).ordersleftopen).toBeUndefined();
    expect((await listed()).ordersleftopen).toBeUndefined();
  });
});
