import { numericBoundProblems, parseCreateBot, parseEditBot } from '@gridrocket/bots';
import { ValidationError } from '@gridrocket/shared';
import { Client, spotBot } from './support/http-client';
import { useTraderApp } from './support/trader-app';

/**
 * Issue 11, finding 3 (validation half): `entryPrice "9e300"` was accepted and wedged the bot for good;
 * `orderSize "1e-9"`, `"9e99"` and an interval above the entry price were accepted at create time and
 * failed only at start. Every number now has finite, sane bounds at create and at edit.
 */
const cases: Array<[string, Record<string, unknown>, string]> = [
  ['entryPrice 9e300', { entryPrice: '9e300' }, 'entryPrice'],
  ['entryPrice 1e10', { entryPrice: 1e10 }, 'entryPrice'],
  ['orderSize 1e-9', { orderSize: '1e-9' }, 'orderSize'],
  ['orderSize 9e99', { orderSize: '9e99' }, 'orderSize'],
  ['interval above the entry price', { entryPrice: 100, interval: 150 }, 'numOfOrders'], // the ladder reaches 0: one rule, on Grid size (bot.rules.ts ladderBoundProblems)
  ['interval equal to the entry price', { entryPrice: 100, interval: 100 }, 'numOfOrders'], // the ladder reaches 0: one rule, on Grid size (bot.rules.ts ladderBoundProblems)
  ['a ladder that reaches 0', { entryPrice: 100, interval: 30, numOfOrders: 5 }, 'numOfOrders'], // the ladder reaches 0: one rule, on Grid size (bot.rules.ts ladderBoundProblems)
  ['takeProfit 9e9', { takeProfit: '9e9' }, 'takeProfit'],
  ['entryPrice with 9 decimals', { entryPrice: '0.000000001' }, 'entryPrice'],
];

describe('security: numeric bounds of a bot (pure rules, shared with the dashboard)', () => {
  it.each(cases)('%s is refused with a message on its field', (_name, change, field) => {
    let thrown: unknown;
    try {
      parseCreateBot({ ...spotBot, ...change });
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(ValidationError);
    expect((thrown as ValidationError).errors.map((e) => e.field)).toContain(field);
    expect(() => parseEditBot({ ...spotBot, ...change })).toThrow(ValidationError);
  });

  it('sane grids pass, including the smallest and largest allowed values', () => {
    expect(numericBoundProblems({ numOfOrders: 5, orderSize: 0.01, interval: 100, entryPrice: 60000, takeProfit: 1, leverage: 1 })).toEqual([]);
    expect(numericBoundProblems({ numOfOrders: 99, orderSize: 0.00000001, interval: 0.00000001, entryPrice: 0.001, takeProfit: 100, leverage: 125 })).toEqual([]);
    expect(numericBoundProblems({ numOfOrders: 1, orderSize: 1_000_000, interval: 999_999_999, entryPrice: 1_000_000_000, takeProfit: 0.5 })).toEqual([]);
    expect(numericBoundProblems({ entryPrice: Infinity })).toEqual([{ field: 'entryPrice', message: 'entryPrice must be a finite number' }]);
  });
});

describe('security: numeric bounds over HTTP, at create and at edit', () => {
  const t = useTraderApp('bounds@example.com');

  it('each insane create is a 400 with a field message, and nothing is created', async () => {
    for (const [name, change, field] of cases) {
      const res = await t.c.post('/api/bots', { ...spotBot, userId: t.uid, ...change });
      expect({ name, status: res.status }).toEqual({ name, status: 400 });
      expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
    }
    // the same through the query string (the spec lets parameters come from there)
    const q = await t.c.post(`/api/bots?entryPrice=9e300`, { ...spotBot, entryPrice: undefined, userId: t.uid });
    expect(q.status).toBe(400);
    expect((await t.c.get(`/api/bots/${t.uid}`)).body).toEqual([]);
  }, 60_000);

  it('each insane edit is a 400 with a field message, and the bot is unchanged', async () => {
    const bot = await t.c.post('/api/bots', { ...spotBot, userId: t.uid });
    expect(bot.status).toBe(201);
    const edit = { exchange: 'Binance', numOfOrders: 5, orderSize: '0.01', interval: 100, entryPrice: 60000, takeProfit: 1 };
    for (const [name, change, field] of cases) {
      const res = await t.c.put(`/api/bots/${bot.body.id}`, { ...edit, ...change });
      expect({ name, status: res.status }).toEqual({ name, status: 400 });
      expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
    }
    expect((await t.c.get(`/api/bot-details/${bot.body.id}`)).body).toMatchObject({ entryprice: 60000, ordersize: 0.01, interval: 100 });
  }, 60_000);
});
