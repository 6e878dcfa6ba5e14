/**
 * Issue 29 (Found 4): the dashboard learns whether balances and orders are simulated (paper), on a
 * test network or real, for its badge: GET /api/exchange-mode, for signed-in users only.
 */
import { Client } from './support/http-client';
import { startTestApp } from './support/test-app';

jest.setTimeout(60_000);

describe('GET /api/exchange-mode', () => {
  it.each([
    ['paper', {}],
    ['testnet', { EXCHANGE_MODE: 'testnet' }],
    ['live', { EXCHANGE_MODE: 'live' }],
  ] as const)('says %s to a signed-in user, and nothing to a stranger', async (mode, env) => {
    const app = await startTestApp(env);
    try {
      expect((await new Client(app.url).get('/api/exchange-mode')).status).toBe(401);
      const c = new Client(app.url);
      await c.signUp(`mode-${mode}@example.com`);
      const res = await c.get('/api/exchange-mode');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ mode });
    } finally {
      await app.close();
    }
  });
});
