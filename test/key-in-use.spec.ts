/**
 * Issue 29 (Found 5): deleting an API key that a running bot signs with is refused (409 naming the
 * bot), decided on the key-use stream so a start and a deletion at the same moment cannot both pass.
 */
import { until } from '@gridrocket/shared/testing/until';
import { Client, spotBot } from './support/http-client';
import { startTestApp } from './support/test-app';
import { usePaperReplay, useTestApp } from './support/trader-app';

jest.setTimeout(60_000);

describe('deleting a key that a running bot uses', () => {
  const t = useTestApp();

  const state = async (c: Client, id: string) => (await c.get(`/api/bot-details/${id}`)).body.state as string;

  it('is refused with 409 naming the bot while it runs, and allowed once it is stopped', async () => {
    const c = new Client(t.app.url);
    const { uid } = await c.signUp('keyholder@example.com');
    const key = await c.addKey(uid, 'Binance');
    const bot = (await c.post('/api/bots', { ...spotBot, entryPrice: 50000, userId: uid })).body.id as string;
    expect((await c.get(`/api/startBot?id=${bot}&userId=${uid}`)).status).toBe(202);
    await until('running', async () => (await state(c, bot)) === 'running', 20_000);

    const refused = await c.delete(`/api/api-credentials/${key}`);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toMatch(new RegExp(`used by a running bot: BTCUSDT spot bot ${bot.slice(0, 8)}\\. Stop it before deleting the key`));
    // the key is still there, the bot still runs
    expect((await c.get(`/api/api-credentials/${uid}`)).body.map((k: { id: string }) => k.id)).toEqual([key]);
    expect(await state(c, bot)).toBe('running');

    expect((await c.get(`/api/stopBot?id=${bot}&userId=${uid}&cancelAllOrders=true`)).status).toBe(202);
    await until('stopped', async () => (await state(c, bot)) === 'stopped', 20_000);
    expect((await c.delete(`/api/api-credentials/${key}`)).status).toBe(204);
  });

  it('a start and a deletion at the same moment never both pass', async () => {
    const c = new Client(t.app.url);
    const { uid } = await c.signUp('racer@example.com');
    for (let round = 0; round < 4; round++) {
      const key = await c.addKey(uid, 'Binance');
      const bot = (await c.post('/api/bots', { ...spotBot, entryPrice: 50000, userId: uid })).body.id as string;
      const [start, del] = await Promise.all([c.get(`/api/startBot?id=${bot}&userId=${uid}`), c.delete(`/api/api-credentials/${key}`)]);
      // either the start won (the deletion is refused) or the deletion won (the start is refused)
      expect([start.status, del.status].sort()).toEqual(start.status === 202 ? [202, 409] : [204, 409]);
      if (start.status === 202) {
        await until('running', async () => (await state(c, bot)) === 'running', 20_000);
        await c.get(`/api/stopBot?id=${bot}&userId=${uid}&cancelAllOrders=true`);
        await until('stopped', async () => (await state(c, bot)) === 'stopped', 20_000);
        expect((await c.delete(`/api/api-credentials/${key}`)).status).toBe(204);
      }
    }
  });
});

describe('a start refused because the bot holds a position (issue 29)', () => {
  const H = 3_600_000;
  const T0 = 1_700_000_000_000;
  const CSV = ['ms,exchange,symbol,price', `${T0},Binance,BTCUSDT,61000`, `${T0 + H},Binance,BTCUSDT,59500`].join('\n');
  const replay = usePaperReplay(CSV, T0);

  it('claims no key: the key can be deleted at once', async () => {
    const c = new Client(replay.app.url);
    const { uid } = await c.signUp('holder@example.com');
    const key = await c.addKey(uid, 'Binance');
    const bot = (await c.post('/api/bots', { ...spotBot, entryPrice: 60000, userId: uid })).body.id as string;
    const details = async () => (await c.get(`/api/bot-details/${bot}`)).body as { state: string };
    expect((await c.get(`/api/startBot?id=${bot}&userId=${uid}`)).status).toBe(202);
    await until('running', async () => (await details()).state === 'running', 20_000);
    replay.venue.advanceTo(T0 + H); // 59500: the five buys fill
    const port = await replay.provider.for({ userId: uid, exchange: 'Binance', market: 'spot' });
    await until('bought', async () => ((await port.balances()).find((b) => b.symbol === 'BTC')?.balance ?? 0) > 0.04, 20_000);
    expect((await c.get(`/api/stopBot?id=${bot}&userId=${uid}&cancelAllOrders=false`)).status).toBe(202);
    await until('stopped', async () => (await details()).state === 'stopped', 20_000);

    const refused = await c.get(`/api/startBot?id=${bot}&userId=${uid}`);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toMatch(/^The bot holds 0\.0\d+ BTC/);
    // no start is under way: the key is not held by a claim of the refused start
    expect((await c.delete(`/api/api-credentials/${key}`)).status).toBe(204);
  });
});
