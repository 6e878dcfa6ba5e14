/**
 * Issue 10 finding 3: a bot is one thing across runs. A start after a stop WITHOUT cancel-all
 * continues the bot (its open buys and take-profit adopted, never placed twice; a futures position
 * not doubled); "cancel all orders" cancels the orders of every run; a start after a cancel-all stop
 * covers the coins the bot still holds with its take-profit.
 */
import { until } from '@gridrocket/shared/testing/until';
import type { BotConfig } from '@gridrocket/bots';
import { RunnerWorld } from './support/runner-world';

jest.setTimeout(60_000);

// 1000: above the ladders; 2000: BTC buy at 60000 and LTC buy at 90 fill; 3000: the BTC take-profit (60600) fills; 4000: BTC above every ladder
const CSV = [
  'ms,exchange,symbol,price',
  '1000,Binance,BTCUSDT,61000', '1000,Binance,LTCUSDT,95',
  '2000,Binance,BTCUSDT,59950', '2000,Binance,LTCUSDT,89.5',
  '3000,Binance,BTCUSDT,60700', '3000,Binance,LTCUSDT,89.5',
  '4000,Binance,BTCUSDT,61500', '4000,Binance,LTCUSDT,89.5',
].join('\n');

const btc: BotConfig = { exchange: 'Binance', symbol: 'BTCUSDT', numOfOrders: 3, orderSize: 0.01, interval: 500, entryPrice: 60000, takeProfit: 1, leverage: 1 };
const ltc: BotConfig = { exchange: 'Binance', symbol: 'LTCUSDT', numOfOrders: 2, orderSize: 0.5, interval: 2, entryPrice: 90, takeProfit: 2, leverage: 5 };

describe('a bot across runs (stop, start again)', () => {
  let world: RunnerWorld;
  beforeAll(async () => {
    world = new RunnerWorld(CSV, 1000);
    await world.runner();
  });
  afterAll(() => world.close());

  const count = async (botId: string, type: string) => (await world.types(botId)).filter((t) => t === type).length;
  const openOf = async (userId: string, market: 'spot' | 'futures', symbol: string) => {
    const port = await world.paper.for({ userId, exchange: 'Binance', market });
    return (await port.openOrders(symbol)).map((o) => `${o.side} ${o.clientOrderId} ${o.price} ${o.amount}`).sort();
  };
  const started = (botId: string, n: number) => until(`started ${n}×`, async () => (await count(botId, 'BotStarted')) >= n, 20_000);
  /** A bot of `user` on `config`, started, until (`what`) a buy of it has filled and that buy's take-profit rests. */
  const holdingBot = async (user: string, botType: 'Spot' | 'Futures', config: BotConfig, what: string) => {
    const id = await world.create(user, botType, config);
    await world.run({ type: 'StartBot', botId: id, userId: user }, user);
    await started(id, 1);
    await until(what, async () => (await openOf(user, botType === 'Spot' ? 'spot' : 'futures', config.symbol)).some((o) => o.startsWith('sell')));
    return id;
  };
  const stopped = (botId: string, n: number) => until(`stopped ${n}×`, async () => (await count(botId, 'BotStopped')) >= n, 20_000);

  it('spot: a stop without cancel-all, then a start, continues the bot; cancel-all then cancels the orders of every run', async () => {
    const user = 'spot-user';
    const id = await world.create(user, 'Spot', btc);
    await world.run({ type: 'StartBot', botId: id, userId: user }, user);
    await started(id, 1);
    world.venue.advanceTo(2000); // the 60000 buy fills: take-profit at 60600 for 0.01
    const afterFill = await until('take-profit placed', async () => {
      const open = await openOf(user, 'spot', 'BTCUSDT');
      return open.length === 3 && open.some((o) => o.startsWith('sell')) && open;
    });

    await world.run({ type: 'StopBot', botId: id, userId: user, cancelAllOrders: false }, user);
    await stopped(id, 1);
    expect(await openOf(user, 'spot', 'BTCUSDT')).toEqual(afterFill);
    const placedBefore = (await count(id, 'OrderPlaced')) + (await count(id, 'TakeProfitPlaced'));

    await world.run({ type: 'StartBot', botId: id, userId: user, confirmPosition: true }, user); // it holds a position (issue 29)
    await started(id, 2);
    // the same orders, adopted: no second ladder, the take-profit still covers the coins bought
    expect(await openOf(user, 'spot', 'BTCUSDT')).toEqual(afterFill);
    expect((await count(id, 'OrderPlaced')) + (await count(id, 'TakeProfitPlaced'))).toBe(placedBefore);
    const port = await world.paper.for({ userId: user, exchange: 'Binance', market: 'spot' });
    const usdt = (await port.balances()).find((b) => b.symbol === 'USDT')!;
    // two buys locked (Binance spot takes their fee in the coin), not four
    expect(usdt.balance - usdt.available).toBeCloseTo(0.01 * 59500 + 0.01 * 59000, 6);

    world.venue.advanceTo(3000); // the take-profit placed in run 1 fills in run 2: its profit counts
    await until('profit', async () => (await count(id, 'ProfitRealized')) === 1);
    const state = await world.state(id);
    expect(state.kind === 'live' && state.profit).toBeGreaterThan(4);

    // cancel-all: every open order of the bot, whichever run placed it
    await until('cycle 2 buy placed', async () => (await openOf(user, 'spot', 'BTCUSDT')).length === 3);
    await world.run({ type: 'StopBot', botId: id, userId: user, cancelAllOrders: true }, user);
    await stopped(id, 2);
    expect(await openOf(user, 'spot', 'BTCUSDT')).toEqual([]);
  });

  it('spot: a start after a cancel-all stop covers the coins the bot still holds with a take-profit', async () => {
    world.venue.advanceTo(3000);
    const user = 'holder';
    const id = await holdingBot(user, 'Spot', { ...btc, entryPrice: 60800, takeProfit: 2 }, 'buy at 60800 filled, take-profit placed');
    await world.run({ type: 'StopBot', botId: id, userId: user, cancelAllOrders: true }, user);
    await stopped(id, 1);
    expect(await openOf(user, 'spot', 'BTCUSDT')).toEqual([]);
    const port = await world.paper.for({ userId: user, exchange: 'Binance', market: 'spot' });
    const held = (await port.balances()).find((b) => b.symbol === 'BTC')!.available;
    expect(held).toBeGreaterThan(0);
    world.venue.advanceTo(4000); // 61500: the restarted ladder does not fill at once

    await world.run({ type: 'StartBot', botId: id, userId: user, confirmPosition: true }, user); // it holds a position (issue 29)
    await started(id, 2);
    const open = await until('restarted ladder with take-profit', async () => {
      const o = await port.openOrders('BTCUSDT');
      return o.some((x) => x.side === 'sell') && o;
    });
    const tp = open.find((o) => o.side === 'sell')!;
    expect(tp.amount).toBeCloseTo(held, 8); // what the bot still holds, no more
    expect(tp.price).toBeCloseTo(61914, 2); // the buy crossed and filled at the book's 60700; × 1.02: its cost is kept
    expect(open.filter((o) => o.side === 'buy').map((o) => o.price).sort()).toEqual([59800, 60300, 60800]); // the whole ladder, re-armed under new ids
  });

  it('futures: a stop without cancel-all, then a start, does not double the position', async () => {
    const user = 'futures-user';
    const id = await holdingBot(user, 'Futures', ltc, 'LTC buy filled, take-profit placed');
    const before = await openOf(user, 'futures', 'LTCUSDT');
    await world.run({ type: 'StopBot', botId: id, userId: user, cancelAllOrders: false }, user);
    await stopped(id, 1);
    await world.run({ type: 'StartBot', botId: id, userId: user, confirmPosition: true }, user); // it holds a position (issue 29)
    await started(id, 2);
    expect(await openOf(user, 'futures', 'LTCUSDT')).toEqual(before);
    const port = (await world.paper.for({ userId: user, exchange: 'Binance', market: 'futures' })) as unknown as { position(s: string): { qty: number } };
    expect(port.position('LTCUSDT').qty).toBeCloseTo(0.5, 8);
  });

  it('futures: a stop with cancel-all and "close the position at market" leaves nothing open and no position', async () => {
    const user = 'closer';
    const id = await holdingBot(user, 'Futures', ltc, 'LTC buy filled, take-profit placed');
    const port = (await world.paper.for({ userId: user, exchange: 'Binance', market: 'futures' })) as unknown as { position(s: string): { qty: number } };
    expect(port.position('LTCUSDT').qty).toBeCloseTo(0.5, 8);
    await world.run({ type: 'StopBot', botId: id, userId: user, cancelAllOrders: true, closePosition: true }, user);
    await stopped(id, 1);
    expect(await openOf(user, 'futures', 'LTCUSDT')).toEqual([]);
    expect(port.position('LTCUSDT').qty).toBeCloseTo(0, 8);
  });

  it('spot: a stop with cancel-all and "sell what the bot holds at market" sells it, rounded down to the amount step; the next start needs no confirmation (issue 29)', async () => {
    // 4000 (61500): the feed only moves forward, and the tests before this one left it there; the buy
    // at 61600 fills at once, the others (61100, 60600) rest
    world.venue.advanceTo(4000);
    const user = 'spot-closer';
    const id = await holdingBot(user, 'Spot', { ...btc, entryPrice: 61600, takeProfit: 2 }, 'buy at 61600 filled, take-profit placed');
    const port = await world.paper.for({ userId: user, exchange: 'Binance', market: 'spot' });
    const btcHeld = async () => (await port.balances()).find((b) => b.symbol === 'BTC')?.balance ?? 0;
    expect(await btcHeld()).toBeGreaterThan(0.009);
    // without confirming, a start of a bot that holds coins is refused (what it holds, what the ladder adds)
    await world.run({ type: 'StopBot', botId: id, userId: user, cancelAllOrders: false }, user);
    await stopped(id, 1);
    await expect(world.run({ type: 'StartBot', botId: id, userId: user }, user)).rejects.toThrow(/The bot holds 0\.00999 BTC/);
    await world.run({ type: 'StartBot', botId: id, userId: user, confirmPosition: true }, user);
    await started(id, 2);

    await world.run({ type: 'StopBot', botId: id, userId: user, cancelAllOrders: true, closePosition: true }, user);
    await stopped(id, 2);
    expect(await openOf(user, 'spot', 'BTCUSDT')).toEqual([]);
    // 0.00999 held (the buy's fee was taken in the coin): 0.00999 sold at market, nothing but dust below one step left
    expect(await btcHeld()).toBeLessThan(0.00001);
    await world.run({ type: 'StartBot', botId: id, userId: user }, user);
    await started(id, 3);
  });
});
