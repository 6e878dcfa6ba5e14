/**
 * Issue 16, the start/stop push path: the runner places a round's orders together (and cancels them
 * together) instead of one after another, and records the start's placements and `BotStarted` (the
 * stop's cancels and `BotStopped`) in ONE append to the bot's stream. What a user would check: the
 * events of each append to the bot's stream, and how many orders were on their way to the venue at once.
 */
import type { NewEvent } from '@gridrocket/event-store';
import { InsufficientFundsError, type ExchangePort, type ExchangeProvider } from '@gridrocket/exchanges';
import type { BotConfig } from '@gridrocket/bots';
import { until } from '@gridrocket/shared/testing/until';
import { ORDERS_IN_FLIGHT } from '@gridrocket/trading';
import { runningReactors } from '@gridrocket/read-store';
import { RunnerWorld } from './support/runner-world';

jest.setTimeout(60_000);

const CSV = ['ms,exchange,symbol,price', '1000,Binance,BTCUSDT,61000', '2000,Binance,BTCUSDT,61000'].join('\n');
const ladder = (numOfOrders: number, orderSize = 0.01): BotConfig => ({ exchange: 'Binance', symbol: 'BTCUSDT', numOfOrders, orderSize, interval: 100, entryPrice: 60000, takeProfit: 1, leverage: 1 });

/** The venue, seen through ports that count the calls in flight at once (and may refuse one placement). */
class WatchedVenue {
  inFlight = { createLimitOrder: 0, cancelOrder: 0 };
  maxInFlight = { createLimitOrder: 0, cancelOrder: 0 };
  placements = 0;
  /** The n-th placement (1-based) is refused by the venue for lack of funds; 0: none. */
  refuse = 0;

  constructor(private readonly inner: ExchangeProvider) {}

  provider(): ExchangeProvider {
    const self = this;
    return new Proxy(this.inner, {
      get(target, key, receiver) {
        if (key !== 'for') return Reflect.get(target, key, receiver);
        return async (ref: Parameters<ExchangeProvider['for']>[0]) => self.port(await target.for(ref));
      },
    });
  }

  reset() {
    this.maxInFlight = { createLimitOrder: 0, cancelOrder: 0 };
  }

  private port(port: ExchangePort): ExchangePort {
    const self = this;
    const counted = <K extends 'createLimitOrder' | 'cancelOrder'>(name: K) =>
      (async (...args: unknown[]) => {
        if (name === 'createLimitOrder' && ++self.placements === self.refuse) throw new InsufficientFundsError('refused by the test');
        self.inFlight[name]++;
        self.maxInFlight[name] = Math.max(self.maxInFlight[name], self.inFlight[name]);
        try {
          return await (port[name] as (...a: unknown[]) => Promise<unknown>).apply(port, args);
        } finally {
          self.inFlight[name]--;
        }
      }) as ExchangePort[K];
    return new Proxy(port, {
      get(target, key, receiver) {
        if (key === 'createLimitOrder' || key === 'cancelOrder') return counted(key);
        const value = Reflect.get(target, key, receiver);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
  }
}

describe('runner: a start places its ladder together and reports BotStarted in the same append (issue 16)', () => {
  let world: RunnerWorld;
  let venue: WatchedVenue;
  /** The events of each append to a bot's stream, in order. */
  let appends: Map<string, string[][]>;

  beforeEach(async () => {
    world = new RunnerWorld(CSV, 1000);
    venue = new WatchedVenue(world.paper);
    appends = new Map();
    const append = world.events.append.bind(world.events);
    jest.spyOn(world.events, 'append').mockImplementation((streamId: string, evs: NewEvent[], expected, options) => {
      const list = appends.get(streamId) ?? [];
      list.push(evs.map((e) => e.type));
      appends.set(streamId, list);
      return append(streamId, evs, expected, options);
    });
    await world.runner({ exchanges: venue.provider() });
  });
  afterEach(() => world.close());

  const appendsOf = (botId: string) => appends.get(`bot-${botId}`) ?? [];
  const times = (n: number, type: string) => Array.from({ length: n }, () => type);

  it('given a bot of five orders, when it starts, then its five placements and BotStarted are one append, and the orders went out together', async () => {
    const id = await world.create('u1', 'Spot', ladder(5));
    await world.run({ type: 'StartBot', botId: id, userId: 'u1' }, 'u1');
    await until('the bot started', async () => (await world.types(id)).includes('BotStarted'));

    expect(appendsOf(id)).toEqual([['BotCreated'], ['BotStartRequested'], [...times(5, 'OrderPlaced'), 'BotStarted']]);
    expect(venue.maxInFlight.createLimitOrder).toBe(5);
    const port = await world.paper.for({ userId: 'u1', exchange: 'Binance', market: 'spot' });
    expect((await port.openOrders('BTCUSDT')).map((o) => o.price).sort()).toEqual([59600, 59700, 59800, 59900, 60000]);
  });

  it('given a running bot, when it is stopped with cancel-all, then its cancels and BotStopped are one append, and the cancels went out together', async () => {
    const id = await world.create('u1', 'Spot', ladder(5));
    await world.run({ type: 'StartBot', botId: id, userId: 'u1' }, 'u1');
    await until('the bot started', async () => (await world.types(id)).includes('BotStarted'));
    appends.clear();

    await world.run({ type: 'StopBot', botId: id, userId: 'u1', cancelAllOrders: true }, 'u1');
    await until('the bot stopped', async () => (await world.types(id)).includes('BotStopped'));

    expect(appendsOf(id)).toEqual([['BotStopRequested'], [...times(5, 'OrderCancelled'), 'BotStopped']]);
    expect(venue.maxInFlight.cancelOrder).toBe(5);
    const port = await world.paper.for({ userId: 'u1', exchange: 'Binance', market: 'spot' });
    expect(await port.openOrders('BTCUSDT')).toEqual([]);
  });

  it(`given a ladder of 20 orders, when it starts, then no more than ${ORDERS_IN_FLIGHT} go out at once and all 20 are recorded with BotStarted`, async () => {
    const id = await world.create('u1', 'Spot', ladder(20, 0.001));
    await world.run({ type: 'StartBot', botId: id, userId: 'u1' }, 'u1');
    await until('the bot started', async () => (await world.types(id)).includes('BotStarted'));

    expect(venue.maxInFlight.createLimitOrder).toBe(ORDERS_IN_FLIGHT);
    expect(appendsOf(id).slice(2)).toEqual([[...times(20, 'OrderPlaced'), 'BotStarted']]);
  });

  it('given a bot stopped without cancel-all, when it starts again (every order adopted, nothing placed), then BotStarted is appended alone', async () => {
    const id = await world.create('u1', 'Spot', ladder(3));
    await world.run({ type: 'StartBot', botId: id, userId: 'u1' }, 'u1');
    await until('the bot started', async () => (await world.types(id)).includes('BotStarted'));
    await world.run({ type: 'StopBot', botId: id, userId: 'u1', cancelAllOrders: false }, 'u1');
    await until('the bot stopped', async () => (await world.types(id)).includes('BotStopped'));
    appends.clear();
    const placed = venue.placements;

    await world.run({ type: 'StartBot', botId: id, userId: 'u1' }, 'u1');
    await until('the bot started again', async () => (await world.types(id)).filter((t) => t === 'BotStarted').length === 2);

    expect(appendsOf(id)).toEqual([['BotStartRequested'], ['BotStarted']]);
    expect(venue.placements).toBe(placed);
  });

  it('given a bot whose commands this process decided, when it is started, stopped and deleted, then the runner reads none of its stream again', async () => {
    const id = await world.create('u1', 'Spot', ladder(5));
    const reads: string[] = [];
    const readStream = world.events.readStream.bind(world.events);
    jest.spyOn(world.events, 'readStream').mockImplementation((streamId, options) => {
      if (streamId === `bot-${id}`) reads.push(JSON.stringify(options ?? {}, (_k, v) => (typeof v === 'bigint' ? Number(v) : v)));
      return readStream(streamId, options);
    });
    const appended = (type: string) => appendsOf(id).flat().includes(type);

    await world.run({ type: 'StartBot', botId: id, userId: 'u1' }, 'u1');
    await until('the bot started', async () => appended('BotStarted'));
    await world.run({ type: 'StopBot', botId: id, userId: 'u1', cancelAllOrders: true }, 'u1');
    await until('the bot stopped', async () => appended('BotStopped'));
    await world.run({ type: 'DeleteBot', botId: id, userId: 'u1' }, 'u1');
    await until('the bot deleted', async () => appended('BotDeleted'));
    // the runner has handled every lifecycle event, the delete included, once its reactor is past the head
    const head = await world.events.headPosition();
    await until('the runner handled them all', async () => runningReactors(world.reads).some((r) => r.name === 'grid-runner' && r.position >= head));

    // every lifecycle event was handled on the state the command that appended it had folded: before
    // issue 16's change each of the five (start and stop requested, started, stopped, deleted) read it again
    expect(reads).toEqual([]);
    const port = await world.paper.for({ userId: 'u1', exchange: 'Binance', market: 'spot' });
    expect(await port.openOrders('BTCUSDT')).toEqual([]);
  });

  it('given a venue that refuses one placement of the ladder, when the bot starts, then the others are recorded (without BotStarted), cancelled, and the start fails with the reason', async () => {
    venue.refuse = 3;
    const id = await world.create('u1', 'Spot', ladder(5));
    await world.run({ type: 'StartBot', botId: id, userId: 'u1' }, 'u1');
    await until('the start failed', async () => (await world.types(id)).includes('BotStartFailed'));

    const history = await world.history(id);
    const types = history.map((e) => e.type);
    expect(types).not.toContain('BotStarted');
    const placed = history.filter((e) => e.type === 'OrderPlaced').map((e) => (e.data as { clientOrderId: string }).clientOrderId);
    const cancelled = history.filter((e) => e.type === 'OrderCancelled').map((e) => (e.data as { clientOrderId: string }).clientOrderId);
    expect(placed).toHaveLength(4); // every placement the venue accepted is in the history
    expect(cancelled.sort()).toEqual([...placed].sort()); // and no order is left behind
    expect(appendsOf(id)[2]).toEqual(times(4, 'OrderPlaced'));
    expect(history.find((e) => e.type === 'BotStartFailed')!.data).toMatchObject({ reason: expect.stringMatching(/^Insufficient funds on Binance spot to place the buy order at/) });
    const port = await world.paper.for({ userId: 'u1', exchange: 'Binance', market: 'spot' });
    expect(await port.openOrders('BTCUSDT')).toEqual([]);
  });
});
