import { projectionSpec, type GivenEvent } from '@gridrocket/read-store/testing/projection-spec';
import { BotDoc, botListProjection, publicBot, sameData } from './bot-list.projection';
import type { BotEvent } from './domain/bot.events';

const A = '11111111-1111-4111-8111-111111111111';
const B = '22222222-2222-4222-8222-222222222222';
const at = (minute: number) => `2025-01-01T00:${String(minute).padStart(2, '0')}:00.000Z`;
const on = (botId: string, e: BotEvent, minute: number): GivenEvent => ({ streamId: `bot-${botId}`, type: e.type, data: e.data, at: at(minute) });

const config = { exchange: 'Binance' as const, symbol: 'BTCUSDT', numOfOrders: 5, orderSize: 0.01, interval: 1, entryPrice: 60000, takeProfit: 1, leverage: 1 };
const created = (botId: string, userId = 'u1'): BotEvent => ({ type: 'BotCreated', data: { botId, userId, botType: 'Spot', ...config } });
const edited: BotEvent = { type: 'BotEdited', data: { botId: A, exchange: 'Binance', numOfOrders: 3, orderSize: 0.02, interval: 2, entryPrice: 59000, takeProfit: 2, leverage: 1 } };
const startRequested: BotEvent = { type: 'BotStartRequested', data: { botId: A } };
const started: BotEvent = { type: 'BotStarted', data: { botId: A, pid: 4242 } };
const placed: BotEvent = {
  type: 'OrderPlaced',
  data: { botId: A, run: 2, clientOrderId: 'c1', exchangeOrderId: 'x1', side: 'buy', price: 59000, amount: 0.02, cycle: 1, reduceOnly: false, at: 1, role: 'buy', level: 1 },
};
const profit: BotEvent = { type: 'ProfitRealized', data: { botId: A, amount: 1.5, totalProfit: 1.5, cycle: 1 } };
const stopRequested: BotEvent = { type: 'BotStopRequested', data: { botId: A, cancelAllOrders: true } };
const stopped: BotEvent = { type: 'BotStopped', data: { botId: A, pid: -1 } };
const deleted: BotEvent = { type: 'BotDeleted', data: { botId: A } };

describe.each([
  ['delivered once', false],
  ['delivered twice (at-least-once subscription)', true],
])('bot list projection, events %s', (_how, deliverTwice) => {
  let spec: ReturnType<typeof projectionSpec<BotDoc>>;
  beforeEach(() => {
    spec = projectionSpec(botListProjection, { deliverTwice });
  });
  afterEach(() => spec.close());

  it('given a created bot, then one document with the folded state, queryable by user and status', async () => {
    expect(await spec.given(on(A, created(A), 1))).toEqual([
      {
        id: A, userid: 'u1', createdat: at(1), updatedat: at(1), status: 'stopped',
        s: {
          kind: 'live', version: 1, botId: A, userId: 'u1', botType: 'Spot', config, status: 'stopped', pid: -1, profit: 0,
          run: -1, lastError: null, cancelAllOrders: false, closePosition: false,
        },
      },
    ]);
  });

  it('given an edit, a start, orders and profit, then the document follows the lifecycle and the spec view shows it', async () => {
    const docs = await spec.given(on(A, created(A), 1), on(A, edited, 2), on(A, startRequested, 3), on(A, started, 4), on(A, placed, 5), on(A, profit, 6));
    expect(docs).toHaveLength(1);
    const [doc] = docs;
    expect(doc).toMatchObject({ id: A, createdat: at(1), updatedat: at(6), status: 'running' });
    expect(publicBot(doc)).toEqual({
      id: A, bottype: 'Spot', userid: 'u1', exchange: 'Binance', symbol: 'BTCUSDT', numoforders: 3, ordersize: 0.02, interval: 2,
      entryprice: 59000, takeprofit: 2, botstatus: true, pid: 4242, profit: 1.5, state: 'running', lasterror: null,
    });
    // the order event changed nothing of the document (nothing announced), but the revision guard moved past it
    expect(spec.announced).toEqual([`${A} BotCreated`, `${A} BotEdited`, `${A} BotStartRequested`, `${A} BotStarted`, `${A} ProfitRealized`]);
    expect((await spec.stored(A))!.rev).toBe(5);
  });

  it('given a stop, then stopped with pid -1; given a delete, then the document is gone and other bots stay', async () => {
    await spec.given(on(B, created(B, 'u2'), 1), on(A, created(A), 2), on(A, startRequested, 3), on(A, started, 4), on(A, stopRequested, 5), on(A, stopped, 6));
    const [b, a] = await spec.given();
    expect(a).toMatchObject({ id: A, status: 'stopped', s: { pid: -1, cancelAllOrders: true } });
    expect(b).toMatchObject({ id: B, userid: 'u2' });
    expect((await spec.given(on(A, deleted, 7))).map((d) => d.id)).toEqual([B]);
    expect((await spec.stored(A))!.doc).toBeNull(); // a tombstone keeps the revision
  });

  it('replaying every event over the documents changes nothing, a deleted bot included', async () => {
    const before = await spec.given(on(A, created(A), 1), on(A, edited, 2), on(A, startRequested, 3), on(A, started, 4), on(A, profit, 5), on(B, created(B), 6), on(B, { type: 'BotDeleted', data: { botId: B } }, 7));
    expect(before.map((d) => d.id)).toEqual([A]);
    expect(await spec.replayed()).toEqual(before);
    expect(spec.announced).toEqual([]); // nobody is pushed a change twice
    expect((await spec.stored(B))!.doc).toBeNull();
  });
});

describe('sameData (the bot list compares states in place instead of as JSON)', () => {
  const cases: [unknown, unknown][] = [
    [{ a: 1, b: 'x', c: null }, { a: 1, b: 'x', c: null }],
    [{ a: 1, b: undefined }, { a: 1 }],
    [{ a: 1 }, { a: 1, b: 2 }],
    [{ a: 1, b: 2 }, { a: 1, b: 3 }],
    [{ a: { x: 1, y: [1, 2] } }, { a: { x: 1, y: [1, 2] } }],
    [{ a: { x: 1, y: [1, 2] } }, { a: { x: 1, y: [2, 1] } }],
    [{ a: [undefined, 1] }, { a: [null, 1] }],
    [{ a: NaN }, { a: null }],
    [{ a: 0 }, { a: -0 }],
    [{ a: null }, { a: {} }],
    [{ a: {} }, { a: [] }],
    [{ a: '1' }, { a: 1 }],
    [{ a: true }, { a: 1 }],
  ];
  it.each(cases)('agrees with comparing JSON: %j vs %j', (a, b) => {
    expect(sameData(a, b)).toBe(JSON.stringify(a) === JSON.stringify(b));
    expect(sameData(b, a)).toBe(JSON.stringify(a) === JSON.stringify(b));
  });
  it('leaves out the keys it is told to ignore, at the top only', () => {
    expect(sameData({ version: 1, trading: [1], a: 1 }, { version: 2, trading: [], a: 1 }, new Set(['version', 'trading']))).toBe(true);
    expect(sameData({ version: 1, a: { version: 1 } }, { version: 2, a: { version: 2 } }, new Set(['version']))).toBe(false);
  });
});
