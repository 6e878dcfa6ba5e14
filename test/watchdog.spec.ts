/**
 * Issue 29, the watchdog (docs/watchdog.md), on the paper exchange and on the ccxt adapter against the
 * Binance spot venue stand-in: an order is cancelled and a fill happens behind the bot's back (the
 * trader cancels a buy on the exchange; the venue's messages about both are lost, as a dropped push
 * or a trade history that lags would lose them). Within one watchdog period the bot's stream says what
 * differed and what was done: the missed fill is applied (its take-profit placed), the cancelled buy
 * is replaced under a new client order id (its own id is never used again), and a runner that takes
 * over from the history adopts the replacement instead of placing another; the same order cancelled
 * again and again is replaced MAX_REARMS times, then flagged, and the bot stops with the reason.
 */
import { until } from '@gridrocket/shared/testing/until';
import type { BotConfig } from '@gridrocket/bots';
import { useDeafWorld, WATCHDOG_VENUES } from './support/deaf-provider';

jest.setTimeout(60_000);

const T = Date.now();
// T-5s: above the ladder; T+1s: the 60000 buy fills (not the 59500 one)
const CSV = ['ms,exchange,symbol,price', `${T - 5000},Binance,BTCUSDT,61000`, `${T + 1000},Binance,BTCUSDT,59900`].join('\n');
const bot: BotConfig = { exchange: 'Binance', symbol: 'BTCUSDT', numOfOrders: 3, orderSize: 0.01, interval: 500, entryPrice: 60000, takeProfit: 1, leverage: 1 };
const WATCHDOG_MS = 150;

const VENUES = WATCHDOG_VENUES;

describe.each(VENUES)('the watchdog on %s', (venueName) => {
  const user = 'watchdog-user';
  const deaf = useDeafWorld(CSV, T - 5000, venueName, user);
  const { hidden, drifts } = deaf;
  const venueOpen = () => deaf.venueOpen('BTCUSDT', (o) => `${o.side} ${o.price} ${o.clientOrderId}`);

  it('a fill the bot missed is applied and an order cancelled behind its back is replaced under a new id, each as a drift event in its stream; a takeover adopts the replacement; cancelled again and again, it is flagged and the bot stops', async () => {
    const { world, provider } = deaf;
    // the fill poller (ccxt) polls once an hour: only the watchdog can find what the bot missed
    const runner = await world.runner({ exchanges: provider, watchdogMs: WATCHDOG_MS, pollMs: 3_600_000 });
    const id = await world.create(user, 'Spot', bot);
    await world.run({ type: 'StartBot', botId: id, userId: user }, user);
    await until('started', async () => (await world.types(id)).includes('BotStarted'), 20_000);
    const open = await venueOpen();
    expect(open).toHaveLength(3);
    const [lowest, , top] = open.map((o) => o.split(' ')[2]); // sorted: buy 59000, 59500, 60000
    const paperPort = await world.paper.for({ userId: user, exchange: 'Binance', market: 'spot' });
    expect(top).toMatch(/-b0$/);

    // behind the bot's back: its top buy fills and the venue's word of it is lost
    hidden.add(top);
    world.venue.advanceTo(T + 1000);
    // Not runner.idle(): with a check every 150 ms the lanes seldom idle, and on a loaded machine idle()
    // waited out up to 100 checks back to back (over 60 s on CI). The venue says when the buy filled;
    // a few periods later the watchdog has looked (and, deaf to it, missed it).
    await until('the top buy filled on the venue', async () => (await paperPort.orderByClientId('BTCUSDT', top))?.status === 'filled', 20_000);
    await new Promise((r) => setTimeout(r, WATCHDOG_MS * 4));
    expect((await world.types(id)).includes('OrderFilled')).toBe(false); // the bot missed it
    hidden.delete(top); // the venue's trade history has it now

    const missed = await until('a missed-fill drift', async () => (await drifts(id)).find((d) => d.kind === 'missed-fill'), 20_000);
    expect(missed).toMatchObject({ action: 'repaired', actual: 'buy 0.01 at 60000 filled' });
    // repaired: the fill is recorded and its take-profit rests on the exchange
    await until('the fill applied and its take-profit placed', async () => (await world.types(id)).includes('TakeProfitPlaced') && (await venueOpen()).some((o) => o.startsWith('sell 60600')), 20_000);
    expect((await world.types(id)).filter((t) => t === 'OrderFilled')).toHaveLength(1);

    // behind the bot's back: the trader cancels its lowest buy on the exchange, and the bot is not told
    hidden.add(lowest);
    await paperPort.cancelOrder('BTCUSDT', lowest);
    const cancelled = await until('an order-missing drift', async () => (await drifts(id)).find((d) => d.kind === 'order-missing'), 20_000);
    expect(cancelled).toMatchObject({ subject: lowest, action: 'repaired', replacedBy: `${lowest}r1`, expected: 'buy 0.01 at 59000', actual: 'cancelled on the exchange outside GridRocket' });
    // repaired: the same buy rests again, under a new id, and the bot runs on
    await until('the replacement resting', async () => (await venueOpen()).includes(`buy 59000 ${lowest}r1`), 20_000);
    expect((await venueOpen()).filter((o) => o.startsWith('buy 59000'))).toHaveLength(1);
    expect((await world.state(id))).toMatchObject({ status: 'running' });

    // another runner takes over from the history alone: the replacement is adopted, nothing placed twice
    await runner.stop();
    const placedBefore = (await world.types(id)).filter((t) => t === 'OrderPlaced').length;
    const next = await world.runner({ exchanges: provider, watchdogMs: WATCHDOG_MS, pollMs: 3_600_000 });
    await until('resumed by the new runner', async () => next.task(id)?.ready === true, 20_000);
    await new Promise((r) => setTimeout(r, WATCHDOG_MS * 4)); // a few checks of the new runner (its lanes never idle while it checks every 150 ms)
    expect((await venueOpen()).filter((o) => o.startsWith('buy'))).toEqual([`buy 59000 ${lowest}r1`, expect.stringMatching(/^buy 59500 /)]);
    expect((await world.types(id)).filter((t) => t === 'OrderPlaced').length).toBe(placedBefore);
    expect((await drifts(id)).filter((d) => d.kind === 'order-missing')).toHaveLength(1);

    // someone keeps cancelling it: replaced MAX_REARMS (3) times in all, then flagged, and the bot stops and says why
    for (const k of [1, 2, 3]) {
      const current = `${lowest}r${k}`;
      await until(`${current} resting`, async () => (await venueOpen()).includes(`buy 59000 ${current}`), 20_000);
      hidden.add(current);
      await paperPort.cancelOrder('BTCUSDT', current);
      await until(`${current} found cancelled`, async () => (await drifts(id)).find((d) => d.subject === current), 20_000);
    }
    const last = (await drifts(id)).find((d) => d.subject === `${lowest}r3`);
    expect(last).toMatchObject({ action: 'flagged' });
    expect(last?.replacedBy).toBeUndefined();
    const state = await until('failed', async () => {
      const st = await world.state(id);
      return st.kind === 'live' && st.status === 'stopped' && st.lastError ? st : null;
    }, 20_000);
    expect(state.lastError).toContain('was cancelled on the exchange outside GridRocket');
    // each difference is one event, however many checks saw it
    expect((await drifts(id)).filter((d) => d.kind === 'order-missing').map((d) => `${d.subject.slice(lowest.length) || 'first'} ${d.action}`)).toEqual(['first repaired', 'r1 repaired', 'r2 repaired', 'r3 flagged']);
    expect((await drifts(id)).filter((d) => d.kind === 'missed-fill')).toHaveLength(1);
  });
});
