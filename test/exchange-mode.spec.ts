/**
 * Issue 29 (Found 4): the dashboard learns whether balances and orders are simulated (paper), on a
 * test network or real, for its badge: GET /api/exchange-mode, for signed-in users only. Issue 39: a
 * paper exchange also says which feed prices it (the badge says "on the venues' prices" or "simulated").
 */
import { Client } from './support/http-client';
import { startTestApp } from './support/test-app';

jest.setTimeout(60_000);

describe('GET /api/exchange-mode', () => {
  it.each([
    ['paper', {}, { kind: 'walk', streams: [] }],
    ['testnet', { EXCHANGE_MODE: 'testnet' }, null],
    ['live', { EXCHANGE_MODE: 'live' }, null],
  ] as const)('says %s to a signed-in user, and nothing to a stranger', async (mode, env, feed) => {
    const app = await startTestApp(env);
    try {
      expect((await new Client(app.url).get('/api/exchange-mode')).status).toBe(401);
      const c = new Client(app.url);
      await c.signUp(`mode-${mode}@example.com`);
      const res = await c.get('/api/exchange-mode');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ mode, feed });
    } finally {
      await app.close();
    }
  });

  it('paper on the venues\' prices (PAPER_FEED=venue): says so, with each stream\'s state (here unreachable: down)', async () => {
    const app = await startTestApp({ PAPER_FEED: 'venue', PAPER_FEED_ORIGIN: 'http://127.0.0.1:9' });
    try {
      const c = new Client(app.url);
      await c.signUp('mode-venue@example.com');
      const res = await c.get('/api/exchange-mode');
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        mode: 'paper',
        feed: { kind: 'venue', streams: [{ exchange: 'Binance', market: 'spot', live: false, lastPriceAt: null }, { exchange: 'Kucoin', market: 'spot', live: false, lastPriceAt: null }] },
      });
    } finally {
      await app.close();
    }
  });
});
