/**
 * Issue 32 over HTTP, on the real app and the paper exchange with a fixed price (BTCUSDT 95,447.00,
 * Binance spot: price step 0.01, amount step 0.00001, minimum order value 5 USDT):
 *  - a bot created or edited with a range (lower, upper, levels, kind) is stored as the ladder the
 *    range makes, and its ladder is the hand-computed one; a bad range is a 400 with field messages;
 *  - templates: save a bot's settings under a name, list, create a bot from one, copy a bot, delete;
 *    another user's template or bot is 404; a user holds at most 50 templates.
 */
import { buildLadder } from '@gridrocket/trading/grid';
import { Client } from './support/http-client';
import { startPaperReplayApp } from './support/test-app';

jest.setTimeout(120_000);

const T0 = 1_700_000_000_000;
const CSV = ['ms,exchange,symbol,price', `${T0},Binance,BTCUSDT,95447`].join('\n');

describe('range setup and templates (issue 32)', () => {
  let replay: Awaited<ReturnType<typeof startPaperReplayApp>>;
  let c: Client;
  let other: Client;
  let uid: string;
  const base = { exchange: 'Binance', symbol: 'BTCUSDT', botType: 'Spot', orderSize: '0.001', takeProfit: 1 };
  /** The ladder the runner places for the stored bot (the engine's buildLadder on its stored fields, at the market's step). */
  const ladderOf = async (id: string) => {
    const b = (await c.get(`/api/bot-details/${id}`)).body;
    const config = { botType: b.bottype, entryPrice: b.entryprice, interval: b.interval, numOfOrders: b.numoforders, orderSize: b.ordersize, takeProfit: b.takeprofit, leverage: 1, spacing: b.spacing };
    return buildLadder(config, { priceStep: 0.01, amountStep: 0.00001, minNotional: 5 }).map((r) => r.price);
  };

  beforeAll(async () => {
    replay = await startPaperReplayApp(CSV, T0);
    c = new Client(replay.app.url);
    other = new Client(replay.app.url);
    uid = (await c.signUp('range-templates@example.com')).uid;
    await other.signUp('someone-else@example.com');
    // the hand computations below assume the market's price step of 0.01
    expect((await c.get('/api/market-rules?exchange=Binance&symbol=BTCUSDT&botType=Spot')).body.priceStep).toBe(0.01);
  });
  afterAll(() => replay.close());

  describe('range setup', () => {
    it('90,000 to 95,000 in 6 arithmetic levels: entry 95,000, interval 1,000, rungs 1,000 apart down to 90,000', async () => {
      const res = await c.post('/api/bots', { ...base, userId: uid, lower: 90000, upper: 95000, levels: 6, kind: 'arithmetic' });
      expect(res.status).toBe(201);
      // interval = (95000 − 90000) ÷ (6 − 1) = 1000
      expect({ entry: res.body.entryprice, interval: res.body.interval, n: res.body.numoforders }).toEqual({ entry: 95000, interval: 1000, n: 6 });
      expect(await ladderOf(res.body.id)).toEqual([95000, 94000, 93000, 92000, 91000, 90000]);
    });

    it('an interval finer than the price step is rounded down: 7 levels from 90,000 to 95,000 are 833.33 apart', async () => {
      const res = await c.post('/api/bots', { ...base, lower: '90000', upper: '95000', levels: '7' }); // kind: arithmetic by default; text as from a query string
      expect(res.status).toBe(201);
      // 5000 ÷ 6 = 833.333… → 833.33; 95000 − i × 833.33
      expect(res.body.interval).toBe(833.33);
      expect(await ladderOf(res.body.id)).toEqual([95000, 94166.67, 93333.34, 92500.01, 91666.68, 90833.35, 90000.02]);
    });

    it('80,000 to 95,000 in 4 geometric levels: each rung the same percentage below the last, the last at 80,000', async () => {
      const res = await c.post('/api/bots', { ...base, lower: 80000, upper: 95000, levels: 4, kind: 'geometric' });
      expect(res.status).toBe(201);
      // (80000 ÷ 95000)^(1/3) = 0.842105…^(1/3) = 0.9443264…; (1 − 0.9443264) × 100 = 5.5673608…% → 5.56736 (6 decimals, down)
      expect({ spacing: res.body.spacing, interval: res.body.interval }).toEqual({ spacing: 'percent', interval: 5.56736 });
      // 95000 × 0.9443264^i floored to 0.01: 95000, 89711.008 → 89711, 84716.473… → 84716.47, 80000.002… → 80000
      expect(await ladderOf(res.body.id)).toEqual([95000, 89711, 84716.47, 80000]);
    });

    it('a short futures grid given as a range sells from its bottom up: 96,000.05 to 100,000 in 4 levels at the perpetual\'s 0.1 step', async () => {
      expect((await c.get('/api/market-rules?exchange=Binance&symbol=BTCUSDT&botType=Futures')).body.priceStep).toBe(0.1);
      const res = await c.post('/api/bots', { exchange: 'Binance', symbol: 'BTCUSDT', botType: 'Futures', leverage: 2, orderSize: '0.002', takeProfit: 1, direction: 'short', lower: 96000.05, upper: 100000, levels: 4 });
      expect(res.status).toBe(201);
      // entry = the lower price rounded UP to 0.1 = 96000.1; interval = floor((100000 − 96000.1) ÷ 3 = 1333.3) = 1333.3
      expect({ entry: res.body.entryprice, interval: res.body.interval, n: res.body.numoforders, direction: res.body.direction }).toEqual({ entry: 96000.1, interval: 1333.3, n: 4, direction: 'short' });
      const b = (await c.get(`/api/bot-details/${res.body.id}`)).body;
      const config = { botType: 'Futures' as const, direction: 'short' as const, entryPrice: b.entryprice, interval: b.interval, numOfOrders: b.numoforders, orderSize: b.ordersize, takeProfit: b.takeprofit, leverage: 2 };
      // sells at 96000.1 + i × 1333.3: 96000.1, 97333.4, 98666.7, 100000
      expect(buildLadder(config, { priceStep: 0.1, amountStep: 0.001, minNotional: 100 }).map((r) => r.price)).toEqual([96000.1, 97333.4, 98666.7, 100000]);
    });

    it('a bad range is a 400 with a message per field, and nothing is created', async () => {
      const before = (await c.get(`/api/bots/${uid}`)).body.length;
      const res = await c.post('/api/bots', { ...base, lower: 95000, upper: 90000, levels: 1 });
      expect({ status: res.status, errors: res.body.errors }).toEqual({
        status: 400,
        errors: [
          { field: 'upper', message: 'upper must be above lower' },
          { field: 'levels', message: 'levels must be a whole number of at least 2' },
        ],
      });
      const both = await c.post('/api/bots', { ...base, lower: 90000, upper: 95000, levels: 5, entryPrice: 95000 });
      expect({ status: both.status, errors: both.body.errors }).toEqual({
        status: 400,
        errors: [{ field: 'entryPrice', message: 'entryPrice cannot be given with a range (lower, upper, levels): the range sets it' }],
      });
      const narrow = await c.post('/api/bots', { ...base, lower: 95000, upper: 95000.03, levels: 5 });
      expect({ status: narrow.status, errors: narrow.body.errors }).toEqual({
        status: 400,
        errors: [{ field: 'levels', message: "The range 95000 to 95000.03 is too narrow for 5 levels at the market's price step of 0.01: choose fewer levels or a wider range" }],
      });
      // 100 levels: the ladder's own bound (at most 99 orders), said on levels
      const many = await c.post('/api/bots', { ...base, lower: 90000, upper: 95000, levels: 100 });
      expect(many.status).toBe(400);
      expect(many.body.errors).toEqual([{ field: 'levels', message: 'levels must be at most 99' }]);
      expect((await c.get(`/api/bots/${uid}`)).body.length).toBe(before);
    });

    it('an edit with a range stores the ladder it makes', async () => {
      const created = await c.post('/api/bots', { ...base, numOfOrders: 3, interval: 500, entryPrice: 95000 });
      const edited = await c.put(`/api/bots/${created.body.id}`, { exchange: 'Binance', orderSize: '0.001', takeProfit: 1, lower: 91000, upper: 94000, levels: 4 });
      expect(edited.status).toBe(200);
      // (94000 − 91000) ÷ 3 = 1000
      expect(await ladderOf(created.body.id)).toEqual([94000, 93000, 92000, 91000]);
    });
  });

  describe('templates', () => {
    let botId: string;
    let templateId: string;
    const fieldsOf = (b: Record<string, unknown>) => ({ bottype: b.bottype, exchange: b.exchange, symbol: b.symbol, numoforders: b.numoforders, ordersize: b.ordersize, interval: b.interval, entryprice: b.entryprice, takeprofit: b.takeprofit, spacing: b.spacing });

    beforeAll(async () => {
      botId = (await c.post('/api/bots', { ...base, lower: 80000, upper: 95000, levels: 4, kind: 'geometric', takeProfit: 1.5 })).body.id;
    });

    it('a bot saved as a template lists with its settings, and a bot created from them has the same settings', async () => {
      const saved = await c.post('/api/bot-templates', { name: 'BTC wide', botId });
      expect(saved.status).toBe(201);
      templateId = saved.body.id;
      expect(saved.body).toMatchObject({ name: 'BTC wide', fromBotId: botId, settings: { botType: 'Spot', exchange: 'Binance', symbol: 'BTCUSDT', entryPrice: 95000, interval: 5.56736, numOfOrders: 4, spacing: 'percent', orderSize: 0.001, takeProfit: 1.5 } });
      const list = await c.get('/api/bot-templates');
      expect(list.body.templates.map((t: { id: string; name: string }) => [t.id, t.name])).toEqual([[templateId, 'BTC wide']]);
      const one = await c.get(`/api/bot-templates/${templateId}`);
      const created = await c.post('/api/bots', one.body.settings);
      expect(created.status).toBe(201);
      const original = (await c.get(`/api/bot-details/${botId}`)).body;
      expect(fieldsOf(created.body)).toEqual(fieldsOf(original));
      expect(created.body.id).not.toBe(botId);
    });

    it('a copy of one of one’s bots (its settings sent back as a create) is a new bot with the same settings', async () => {
      const b = (await c.get(`/api/bot-details/${botId}`)).body;
      const copy = await c.post('/api/bots', { botType: b.bottype, exchange: b.exchange, symbol: b.symbol, numOfOrders: b.numoforders, orderSize: b.ordersize, interval: b.interval, entryPrice: b.entryprice, takeProfit: b.takeprofit, spacing: b.spacing });
      expect(copy.status).toBe(201);
      expect(fieldsOf(copy.body)).toEqual(fieldsOf(b));
    });

    it('a template saved from form settings (a range) keeps the ladder the range makes; a name is used once', async () => {
      const saved = await c.post('/api/bot-templates', { name: 'Narrow', settings: { ...base, lower: 90000, upper: 95000, levels: 6 } });
      expect(saved.status).toBe(201);
      expect(saved.body.settings).toMatchObject({ entryPrice: 95000, interval: 1000, numOfOrders: 6 });
      const again = await c.post('/api/bot-templates', { name: 'narrow', settings: { ...base, lower: 90000, upper: 95000, levels: 6 } });
      expect({ status: again.status, errors: again.body.errors }).toEqual({ status: 400, errors: [{ field: 'name', message: 'You already have a template named narrow' }] });
      const bad = await c.post('/api/bot-templates', { name: '', settings: { ...base, lower: 1, upper: 0.5, levels: 3 } });
      expect(bad.status).toBe(400);
      expect(bad.body.errors).toEqual([{ field: 'name', message: 'Name is required' }]);
      const badSettings = await c.post('/api/bot-templates', { name: 'Bad', settings: { ...base, lower: 1, upper: 0.5, levels: 3 } });
      expect(badSettings.body.errors).toEqual([{ field: 'settings.upper', message: 'upper must be above lower' }]);
      expect((await c.delete(`/api/bot-templates/${saved.body.id}`)).status).toBe(204);
    });

    it('another user’s template or bot is 404, as one that does not exist', async () => {
      expect((await other.get(`/api/bot-templates/${templateId}`)).status).toBe(404);
      expect((await other.delete(`/api/bot-templates/${templateId}`)).status).toBe(404);
      expect((await other.post('/api/bot-templates', { name: 'Stolen', botId })).status).toBe(404);
      expect((await other.get('/api/bot-templates')).body.templates).toEqual([]);
      expect((await c.get(`/api/bot-templates/${templateId}`)).status).toBe(200); // still there
    });

    it('a user holds at most 50 templates: the 51st is a 409 and nothing is saved', async () => {
      const have = (await c.get('/api/bot-templates')).body.templates.length;
      for (let i = have; i < 50; i++) expect((await c.post('/api/bot-templates', { name: `T${i}`, botId })).status).toBe(201);
      const over = await c.post('/api/bot-templates', { name: 'One too many', botId });
      expect({ status: over.status, message: over.body.message }).toEqual({ status: 409, message: 'You have 50 templates, the most allowed: delete one you no longer use first' });
      expect((await c.get('/api/bot-templates')).body.templates.length).toBe(50);
      // deleting one makes room again
      expect((await c.delete(`/api/bot-templates/${templateId}`)).status).toBe(204);
      expect((await c.get(`/api/bot-templates/${templateId}`)).status).toBe(404);
      expect((await c.post('/api/bot-templates', { name: 'One too many', botId })).status).toBe(201);
    });
  });
});
