/**
 * Issue 29, the watchdog (docs/watchdog.md), on the paper exchange and on the ccxt adapter against the
 * Binance spot venue stand-in: an order is cancelled and a fill happens behind the bot's back (the
 * trader cancels a buy on the exchange; the venue's messages about both are lost, as a dropped push
 * or a trade history that lags would lose them). Within one watchdog period the bot's stream says what
 * differed and what was done: the missed fill is applied (its take-profit placed), the cancelled buy
 * is flagged (its id cannot be used again) and the bot then stops with the reason.
 */
import { until } from '@gridrocket/shared/testing/until';
import type { BotConfig, DriftEventData } from '@gridrocket/bots';
import type { ExchangeProvider } from '@gridrocket/exchanges';
import { CcxtExchange } from '@gridrocket/exchanges';
import { STUB_KEY } from '@gridrocket/exchanges/testing/ccxt.fixtures';
import { startVenueStandIn, type VenueStandIn } from '@gridrocket/exchanges/testing/standin/venue-standin';
import { deafTo } from './support/deaf-provider';
import { RunnerWorld } from './support/runner-world';

jest.setTimeout(60_000);

const T = Date.now();
// T-5s: above the ladder; T+1s: the 60000 buy fills (not the 59500 one)
const CSV = ['ms,exchange,symbol,price', `${T - 5000},Binance,BTCUSDT,61000`, `${T + 1000},Binance,BTCUSDT,59900`].join('\n');
const bot: BotConfig = { exchange: 'Binance', symbol: 'BTCUSDT', numOfOrders: 3, orderSize: 0.01, interval: 500, entryPrice: 60000, takeProfit: 1, leverage: 1 };
const WATCHDOG_MS = 150;

const VENUES = ['paper', 'ccxt Binance spot stand-in'] as const;

describe.each(VENUES)('the watchdog on %s', (venueName) => {
  let world: RunnerWorld;
  let standIn: VenueStandIn | null = null;
  const hidden = new Set<string>();
  const user = 'watchdog-user';
  let provider: ExchangeProvider;

  beforeAll(async () => {
    world = new RunnerWorld(CSV, T - 5000);
    if (venueName === 'paper') {
      provider = deafTo(hidden, (ref) => world.paper.for(ref), 'paper');
    } else {
      standIn = await startVenueStandIn(world.venue, 'Binance', 'spot', [{ ...STUB_KEY, userId: user }]);
      const origin = standIn.origin;
      provider = deafTo(
        hidden,
        async (ref) => new CcxtExchange({ exchange: ref.exchange, market: ref.market, mode: 'live', credential: STUB_KEY, apiOrigin: origin, timeoutMs: 5000, retry: { attempts: 2, baseDelayMs: 5 } }),
        'live',
      );
    }
  });
  afterAll(async () => {
    await world.close();
    await standIn?.close();
  });

  const drifts = async (id: string): Promise<DriftEventData[]> => (await world.history(id)).filter((e) => e.type === 'BotDriftDetected').map((e) => e.data as DriftEventData);
  const venueOpen = async () => (await (await world.paper.for({ userId: user, exchange: 'Binance', market: 'spot' })).openOrders('BTCUSDT')).map((o) => `${o.side} ${o.price} ${o.clientOrderId}`).sort();

  it('a fill the bot missed is applied and an order cancelled behind its back is flagged, each as a drift event in its stream; the bot then stops with the reason', async () => {
    // the fill poller (ccxt) polls once an hour: only the watchdog can find what the bot missed
    const runner = await world.runner({ exchanges: provider, watchdogMs: WATCHDOG_MS, pollMs: 3_600_000 });
    const id = await world.create(user, 'Spot', bot);
    await world.run({ type: 'StartBot', botId: id, userId: user }, user);
    await until('started', async () => (await world.types(id)).includes('BotStarted'), 20_000);
    const open = await venueOpen();
    expect(open).toHaveLength(3);
    const [lowest, , top] = open.map((o) => o.split(' ')[2]); // sorted: buy 59000, 59500, 60000
    expect(top).toMatch(/-b0$/);

    // behind the bot's back: its top buy fills and the venue's word of it is lost
    hidden.add(top);
    world.venue.advanceTo(T + 1000);
    await runner.idle();
    expect((await world.types(id)).includes('OrderFilled')).toBe(false); // the bot missed it
    hidden.delete(top); // the venue's trade history has it now

    const missed = await until('a missed-fill drift', async () => (await drifts(id)).find((d) => d.kind === 'missed-fill'), 20_000);
    expect(missed).toMatchObject({ action: 'repaired', actual: 'buy 0.01 at 60000 filled' });
    // repaired: the fill is recorded and its take-profit rests on the exchange
    await until('the fill applied and its take-profit placed', async () => (await world.types(id)).includes('TakeProfitPlaced') && (await venueOpen()).some((o) => o.startsWith('sell 60600')), 20_000);
    expect((await world.types(id)).filter((t) => t === 'OrderFilled')).toHaveLength(1);

    // behind the bot's back: the trader cancels its lowest buy on the exchange, and the bot is not told
    hidden.add(lowest);
    await (await world.paper.for({ userId: user, exchange: 'Binance', market: 'spot' })).cancelOrder('BTCUSDT', lowest);
    const cancelled = await until('an order-missing drift', async () => (await drifts(id)).find((d) => d.kind === 'order-missing'), 20_000);
    expect(cancelled).toMatchObject({ subject: lowest, action: 'flagged', expected: 'buy 0.01 at 59000', actual: 'cancelled on the exchange outside GridRocket' });
    // flagged, per the rule: the bot cannot place that order again under its id, so it stops and says why
    const state = await until('failed', async () => {
      const s = await world.state(id);
      return s.kind === 'live' && s.status === 'stopped' && s.lastError ? s : null;
    }, 20_000);
    expect(state.lastError).toContain('was cancelled on the exchange outside GridRocket');
    // each difference is one event, however many checks saw it
    expect((await drifts(id)).filter((d) => d.kind === 'order-missing')).toHaveLength(1);
    expect((await drifts(id)).filter((d) => d.kind === 'missed-fill')).toHaveLength(1);
  });
});
