/**
 * Issue 39: a live bot hears its venue's streams. On each venue stand-in (which serve the venues'
 * user-data and market streams: binance-spot.streams.ts, binance-usdm.streams.ts, kucoin.streams.ts), a fill
 * reaches the bot's history through the account's stream, with no trade-history poll; when the stream
 * is cut (and refused), the bot records that its live updates are down, the bot page says so, and its
 * fills are found by polling; when the stream is back, that is recorded and fills come by stream again.
 * Every fill is recorded exactly once and each is followed by its take-profit.
 */
import { CcxtExchangeProvider } from '@gridrocket/exchanges';
import { startVenueStandIn, type VenueStandIn } from '@gridrocket/exchanges/testing/standin/venue-standin';
import { toBotView, type BotConfig, type LiveBot } from '@gridrocket/bots';
import { until } from '@gridrocket/shared/testing/until';
import { RunnerWorld } from './support/runner-world';

jest.setTimeout(90_000);

const T = Date.now();
const CSV = ['ms,exchange,symbol,price', ...['Binance', 'Kucoin'].flatMap((e) => [`${T - 5000},${e},BTCUSDT,61000`, `${T + 1000},${e},BTCUSDT,59500`, `${T + 2000},${e},BTCUSDT,58500`, `${T + 3000},${e},BTCUSDT,57500`])].join('\n');
const KEY = { userId: 'dora', apiKey: 'dora-key-0001', secret: 'dora-secret-0001', passphrase: 'dora-pass' };
const POLL_MS = 300;

/**
 * Each venue market GridRocket trades, with the REST call that reads its trade history and how many of
 * those a fill by stream costs: none where the stream states the fee (Binance), one where it does not
 * (KuCoin's order channels: the fee is read from the history, ccxt.exchange.ts).
 */
const VENUES = [
  { exchange: 'Binance', market: 'spot', trades: '/api/v3/myTrades', readsPerStreamFill: 0 },
  { exchange: 'Binance', market: 'futures', trades: '/fapi/v1/userTrades', readsPerStreamFill: 0 },
  { exchange: 'Kucoin', market: 'spot', trades: '/api/v1/fills', readsPerStreamFill: 1 },
  { exchange: 'Kucoin', market: 'futures', trades: '/api/v1/fills', readsPerStreamFill: 1 },
] as const;

describe.each(VENUES)('a live bot on its venue\'s streams ($exchange $market)', ({ exchange, market, trades: tradesPath, readsPerStreamFill }) => {
  const btc: BotConfig = { exchange, symbol: 'BTCUSDT', numOfOrders: 4, orderSize: 0.01, interval: 1000, entryPrice: 60000, takeProfit: 1, leverage: market === 'futures' ? 2 : 1 };
  let world: RunnerWorld;
  let standIn: VenueStandIn;
  let exchanges: CcxtExchangeProvider;
  beforeAll(async () => {
    world = new RunnerWorld(CSV, T - 5000);
    standIn = await startVenueStandIn(world.venue, exchange, market, [KEY]);
    exchanges = new CcxtExchangeProvider({
      mode: 'live',
      apiOrigin: () => standIn.origin,
      resolveCredential: async (userId) => (userId === KEY.userId ? { apiKey: KEY.apiKey, secret: KEY.secret, passphrase: KEY.passphrase } : null),
      pricePollMs: POLL_MS,
      retry: { attempts: 3, baseDelayMs: 10, maxDelayMs: 50 },
      timeoutMs: 5000,
      enableRateLimit: false,
    });
    // the watchdog is off here: what finds the fills is the stream, or the fallback's polling
    await world.runner({ exchanges, pollMs: POLL_MS, watchdogMs: 0 });
  });
  afterAll(async () => {
    await world.close();
    await exchanges.close();
    await standIn.close();
  });

  const trades = () => standIn.stub.calls('GET', tradesPath).length;
  const fills = async (id: string) => (await world.history(id)).filter((e) => e.type === 'OrderFilled').map((e) => String((e.data as { fillId: string }).fillId));
  const count = async (id: string, type: string) => (await world.types(id)).filter((t) => t === type).length;
  /** Trade-history polls have stopped: none for three poll periods. */
  const pollsRest = async () => {
    for (;;) {
      const before = trades();
      await new Promise((r) => setTimeout(r, 3 * POLL_MS));
      if (trades() === before) return;
    }
  };

  it('records a fill from the stream, falls back to polling while the stream is cut, and records each fill once', async () => {
    const id = await world.create(KEY.userId, market === 'spot' ? 'Spot' : 'Futures', btc);
    await world.run({ type: 'StartBot', botId: id, userId: KEY.userId }, KEY.userId);
    const port = await world.paper.for({ userId: KEY.userId, exchange, market });
    await until('running with its ladder', async () => (await world.types(id)).includes('BotStarted') && (await port.openOrders('BTCUSDT')).length === 4, 20_000);
    await until('the account\'s stream subscribed', () => standIn.subscriptions().user === 1, 10_000);
    await pollsRest();

    // 1. a fill over the stream: in the history without any trade-history poll, its take-profit placed
    const polled = trades();
    world.venue.advanceTo(T + 1000);
    await until('the first fill recorded', async () => (await fills(id)).length === 1, 10_000);
    await until('its take-profit', async () => (await count(id, 'TakeProfitPlaced')) === 1, 10_000);
    expect(trades()).toBe(polled + readsPerStreamFill);

    // 2. the stream is cut and the venue refuses it for a while: the bot says so, and polls
    standIn.streams.refuse();
    standIn.streams.cut();
    await until('the fallback recorded', async () => (await count(id, 'VenueStreamDown')) === 1, 10_000);
    const down = toBotView((await world.state(id)) as LiveBot);
    expect(down.streamdownsince).toBeGreaterThan(T - 60_000);
    expect(down.streampollms).toBe(POLL_MS);
    world.venue.advanceTo(T + 2000);
    await until('the fill made while the stream was down, found by polling', async () => (await fills(id)).length === 2, 15_000);
    await until('its take-profit', async () => (await count(id, 'TakeProfitPlaced')) === 2, 10_000);
    expect(trades()).toBeGreaterThan(polled);

    // 3. the stream is back: recorded, the page no longer shows the fallback, fills come by stream again
    standIn.streams.accept();
    await until('the stream back', async () => (await count(id, 'VenueStreamRestored')) === 1, 70_000);
    expect(toBotView((await world.state(id)) as LiveBot).streamdownsince).toBeUndefined();
    await until('the account\'s stream subscribed again', () => standIn.subscriptions().user === 1, 10_000);
    await pollsRest();
    const polledAgain = trades();
    world.venue.advanceTo(T + 3000);
    await until('the third fill recorded', async () => (await fills(id)).length === 3, 10_000);
    await until('its take-profit', async () => (await count(id, 'TakeProfitPlaced')) === 3, 10_000);
    expect(trades()).toBe(polledAgain + readsPerStreamFill);

    // every fill once, and exactly the venue's trades (the price only fell: no take-profit filled)
    const recorded = await fills(id);
    const venueTrades = world.venue.fills(world.venue.account(KEY.userId, exchange, market), 'BTCUSDT', 0).map((f) => String(f.id));
    expect([...recorded].sort()).toEqual([...venueTrades].sort());
  });
});
