/** Issue 40: a bot's name and investment in the bot list's projection (what the lists and GET /api/bots answer). */
import { projectionSpec, type GivenEvent } from '@gridrocket/read-store/testing/projection-spec';
import { BotDoc, botListProjection, publicBot } from './bot-list.projection';
import type { BotEvent } from './domain/bot.events';

const A = '11111111-1111-4111-8111-111111111111';
const at = (minute: number) => `2025-01-01T00:${String(minute).padStart(2, '0')}:00.000Z`;
const on = (e: BotEvent, minute: number): GivenEvent => ({ streamId: `bot-${A}`, type: e.type, data: e.data, at: at(minute) });
const config = { exchange: 'Binance' as const, symbol: 'BTCUSDT', numOfOrders: 5, orderSize: 0.00344, interval: 1000, entryPrice: 60000, takeProfit: 1, leverage: 1 };
const created: BotEvent = { type: 'BotCreated', data: { botId: A, userId: 'u1', botType: 'Spot', ...config, name: 'Night grid', investment: 1000 } };
const edit = (extra: Record<string, unknown>): BotEvent => ({ type: 'BotEdited', data: { botId: A, ...config, ...extra } as never });

describe('a bot\'s name in the bot list', () => {
  let spec: ReturnType<typeof projectionSpec<BotDoc>>;
  beforeEach(() => {
    spec = projectionSpec(botListProjection, { deliverTwice: true });
  });
  afterEach(() => spec.close());

  it('the list shows the name and the investment it was created with', async () => {
    const [doc] = await spec.given(on(created, 1));
    expect(publicBot(doc)).toMatchObject({ name: 'Night grid', investment: 1000, ordersize: 0.00344 });
  });

  it('a rename shows; an edit that removes the name (null) and the investment (order size by hand) shows none', async () => {
    const [renamed] = await spec.given(on(created, 1), on(edit({ name: 'Day grid' }), 2));
    expect(publicBot(renamed)).toMatchObject({ name: 'Day grid', investment: 1000 });
    const [cleared] = await spec.given(on(edit({ name: null, investment: null, orderSize: 0.002 }), 3));
    const view = publicBot(cleared);
    expect(view).not.toHaveProperty('name');
    expect(view).not.toHaveProperty('investment');
    expect(view.ordersize).toBe(0.002);
  });
});
