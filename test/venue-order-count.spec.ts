/**
 * Issue 39, "a start that would exceed the venue's order-count limit is refused with the numbers", over HTTP
 * on the real app in live mode against the Binance spot stand-in. Binance counts each account's new orders
 * in its ORDERS windows (spot: 100 per 10 s, 200,000 per day) and tells the count on every order's answer
 * (X-MBX-ORDER-COUNT-10S / -1D); past a window, -1015 "Too many new orders" (libs/exchanges order-counts.ts).
 *
 * The key has already placed 199,990 orders today (another tool on the same key: the stand-in is told so).
 * A first bot places 5 and the venue's answers say 199,995. The capacity answer then counts them: a second
 * bot of 10 rungs would pass the day's 200,000, so its start is a 409 with the numbers and nothing is
 * recorded or placed; one of 5 fits exactly and starts. When the venue itself refuses an order for the
 * account's count (-1015), only that account waits: the install's calls to the venue are not paused.
 */
import { BinanceRateMeter } from '@gridrocket/exchanges/testing/standin/rate-limits';
import { until } from '@gridrocket/shared/testing/until';
import { useLiveStandInApp } from './support/live-stand-in-app';
import { startTestApp } from './support/test-app';

jest.setTimeout(120_000);

const T = Date.now();
const CSV = [
  'ms,exchange,symbol,price',
  `${T - 5000},Binance,BTCUSDT,95000`,
  `${T - 5000},Binance,ETHUSDT,3300`,
  // later the price comes down through the first bot's first rung (94,000)
  `${T + 1000},Binance,BTCUSDT,93900`,
].join('\n');
const VENUE_USER = 'venue-trader'; // the stand-in's account of the key below
const KEY = { userId: VENUE_USER, apiKey: 'test-binance-key', secret: 'test-secret-0123456789' };

describe("the account's order count at Binance, before a start (issue 39)", () => {
  const live = useLiveStandInApp({ prefix: 'gr-order-count-', csv: CSV, startAt: T - 5000, key: KEY, email: 'order-count@example.com' });
  const { account, types } = live;
  let meter: BinanceRateMeter;
  beforeAll(() => {
    if (!(live.standIn.meter instanceof BinanceRateMeter)) throw new Error('the Binance stand-in counts orders with its BinanceRateMeter');
    meter = live.standIn.meter;
  });
  const create = async (over: Record<string, unknown>) => {
    const res = await live.c.post('/api/bots', { userId: live.uid, exchange: 'Binance', botType: 'Spot', status: false, pid: -1, takeProfit: 1, ...over });
    expect({ status: res.status, errors: res.body.errors }).toEqual({ status: 201, errors: undefined });
    return res.body.id as string;
  };
  const start = (id: string) => live.c.get(`/api/startBot?id=${id}&userId=${live.uid}`);
  const eth = (numOfOrders: number) => ({ symbol: 'ETHUSDT', numOfOrders, orderSize: '0.01', interval: 10, entryPrice: 3200 });

  it('a start that would pass the day\'s 200,000 orders, counting those the key placed today, is a 409 with the numbers; one that fits starts', async () => {
    const { venue, c } = live;
    // the key's other tool placed 199,990 orders today
    meter.seedDayOrders(199_990);
    const first = await create({ symbol: 'BTCUSDT', numOfOrders: 5, orderSize: '0.0001', interval: 500, entryPrice: 94000 });
    expect((await start(first)).status).toBe(202);
    await until('its five rungs on the venue', () => venue.openOrders(account(), 'BTCUSDT').length === 5, 30_000);

    // the venue's answers said 199,995: the capacity answer counts them
    const answer = await until('the count in the capacity answer', async () => {
      const res = await c.get('/api/bot-capacity?exchange=Binance&symbol=ETHUSDT&botType=Spot&numOfOrders=10');
      const day = (res.body.orderWindows as Array<{ label: string; placed: number }>).find((w) => w.label === '1 day');
      return day?.placed === 199_995 ? res.body : undefined;
    }, 15_000);
    expect(answer.orderWindows.find((w: { label: string }) => w.label === '1 day')).toMatchObject({ rule: 'ORDERS', limit: 200_000, placed: 199_995, atMost: 10, exceeded: true });
    expect(answer.exceeded).toEqual(['ORDERS 1 day']);

    const second = await create(eth(10));
    const refused = await start(second);
    expect({ status: refused.status, message: refused.body.message }).toEqual({
      status: 409,
      message:
        'This start places 10 orders, 10 of them within 1 day, and your key has already placed 199,995 in this 1 day window: 200,005 in all; ' +
        'Binance spot allows 200,000 orders per 1 day (ORDERS). Lower the grid size, or start it once the 1 day window has passed.',
    });
    expect(refused.body.message).toBe(answer.refusal);
    expect(await types(second)).toEqual(['BotCreated']); // nothing recorded
    expect(venue.openOrders(account(), 'ETHUSDT')).toHaveLength(0); // nothing placed

    // five fit exactly: 200,000
    const third = await create(eth(5));
    expect((await start(third)).status).toBe(202);
    await until('its five rungs on the venue', () => venue.openOrders(account(), 'ETHUSDT').length === 5, 30_000);
  });

  it("the venue's own -1015 for the account's count holds that account's order, not the install's calls to the venue", async () => {
    const { venue, c, uid } = live;
    // the day is full (200,000): the first bot's rung fills and its take-profit is refused by the venue with -1015
    const [first] = ((await c.get(`/api/bots/${uid}`)).body as Array<{ id: string; symbol: string }>).filter((b) => b.symbol === 'BTCUSDT');
    venue.advanceTo(T + 1000);
    await until('the fill in the first bot\'s history', async () => (await types(first.id)).includes('OrderFilled'), 30_000);
    await new Promise((r) => setTimeout(r, 2000)); // its take-profit tried meanwhile
    expect(venue.openOrders(account(), 'BTCUSDT').filter((o) => o.side === 'sell')).toHaveLength(0); // the venue took none
    // no weight refusal, no pause: the budget of the install is not held by one account's order count
    expect(meter.refusals).toEqual([]);
    const health = ((await c.get('/api/health')).body.venues as Array<{ venue: string; pausedUntil: number | null }>).find((v) => v.venue === 'binance');
    expect(health?.pausedUntil).toBeNull();
    expect(await types(first.id)).not.toContain('VenueRateLimited');
  });
});
