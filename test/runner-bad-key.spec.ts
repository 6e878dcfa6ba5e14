/**
 * Issue 29: a bot whose API key stops working fails visibly. The runner on the ccxt adapter against the
 * Binance spot stand-in; the key is revoked while the bot runs (its owner deleted it on the venue, or
 * its IP whitelist no longer matches), so every signed call gets Binance's answer to a bad key: HTTP 401,
 * code -2015 "Invalid API-key, IP, or permissions for action." (Binance spot API, "Error codes",
 * https://developers.binance.com/docs/binance-spot-api-docs/errors; the stand-in's binance.dialect.ts).
 * The bot must not retry for ever behind a "Running" badge: it fails (BotFailed) with a reason
 * that names the key, and says which orders it had to leave on the exchange.
 */
import { CcxtExchangeProvider } from '@gridrocket/exchanges';
import { startVenueStandIn, type VenueStandIn } from '@gridrocket/exchanges/testing/standin/venue-standin';
import type { BotConfig, LiveBot } from '@gridrocket/bots';
import { until } from '@gridrocket/shared/testing/until';
import { RunnerWorld } from './support/runner-world';

jest.setTimeout(60_000);

const CSV = ['ms,exchange,symbol,price', '1000,Binance,BTCUSDT,61000'].join('\n');
const btc: BotConfig = { exchange: 'Binance', symbol: 'BTCUSDT', numOfOrders: 3, orderSize: 0.01, interval: 500, entryPrice: 60000, takeProfit: 1, leverage: 1 };
const KEY = { userId: 'carol', apiKey: 'carol-key-0001', secret: 'carol-secret-0001' };

describe('a bot whose API key stops working', () => {
  let world: RunnerWorld;
  let standIn: VenueStandIn;
  beforeAll(async () => {
    world = new RunnerWorld(CSV, 1000);
    standIn = await startVenueStandIn(world.venue, 'Binance', 'spot', [KEY]);
    const exchanges = new CcxtExchangeProvider({
      mode: 'live',
      apiOrigin: () => standIn.origin,
      resolveCredential: async (userId) => (userId === KEY.userId ? { apiKey: KEY.apiKey, secret: KEY.secret } : null),
      pricePollMs: 25,
      retry: { attempts: 3, baseDelayMs: 10, maxDelayMs: 50 },
      timeoutMs: 5000,
      enableRateLimit: false,
    });
    await world.runner({ exchanges });
  });
  afterAll(async () => {
    await world.close();
    await standIn.close();
  });

  it('fails with a reason that names the key, instead of retrying behind "Running"', async () => {
    const id = await world.create(KEY.userId, 'Spot', btc);
    await world.run({ type: 'StartBot', botId: id, userId: KEY.userId }, KEY.userId);
    const port = await world.paper.for({ userId: KEY.userId, exchange: 'Binance', market: 'spot' });
    await until('running with its ladder', async () => (await world.types(id)).includes('BotStarted') && (await port.openOrders('BTCUSDT')).length === 3, 20_000);

    standIn.revokeKey(KEY.apiKey);
    // the price stays put: the runner's next poll of the bot's fills is refused

    await until('failed', async () => (await world.types(id)).includes('BotFailed'), 20_000);
    const bot = (await world.state(id)) as LiveBot;
    expect(bot.status).toBe('stopped');
    expect(bot.lastError).toMatch(/Binance rejected the bot's API key/);
    expect(bot.lastError).toMatch(/Security page/);
    // the refused key could not cancel them: the bot says they are still open, unmanaged
    expect(await port.openOrders('BTCUSDT')).toHaveLength(3);
    expect(bot.ordersLeftOpen).toBe(3);
    const failed = (await world.history(id)).filter((e) => e.type === 'BotFailed');
    expect(failed).toHaveLength(1);
    expect(JSON.stringify(failed[0].data)).not.toContain(KEY.apiKey);
  });
});
