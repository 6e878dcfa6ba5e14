/**
 * Issue 40, bot names over HTTP on the real app: a trader names a bot at create (trimmed, at most 60
 * characters, no control characters), renames it or removes the name by an edit; the lists, the bot's
 * details and its history carry it, and the alerts name the bot by it (the webhook stand-in, signed).
 */
import { EVENT_STORE, EventStore } from '@gridrocket/event-store';
import { toNewEvents } from '@gridrocket/shared';
import { until } from '@gridrocket/shared/testing/until';
import { WebhookReceiver } from './support/alert-stand-ins';
import { spotBot } from './support/http-client';
import { useTraderApp } from './support/trader-app';

jest.setTimeout(60_000);

const WEBHOOK_SECRET = 'whsec-names-0123456789-abcdXYZ9';

describe('bot names (issue 40)', () => {
  let webhook: WebhookReceiver;
  beforeAll(async () => {
    webhook = await new WebhookReceiver(WEBHOOK_SECRET).start();
  });
  const t = useTraderApp('alice-names@example.com', { env: { ALERTS_ALLOW_PRIVATE_URLS: 'true', ALERTS_RETRY_BASE_MS: '200' }, key: true });
  beforeAll(async () => {
    const saved = await t.c.put(`/api/alerts/${t.uid}`, { kinds: ['cycle'], email: { enabled: false }, webhook: { enabled: true, url: `${webhook.url}/hooks/gridrocket`, secret: WEBHOOK_SECRET } });
    expect(saved.status).toBe(200);
  });
  afterAll(async () => {
    await webhook?.close();
  });

  /** What the runner appends when a take-profit completes a cycle; the webhook alert it causes. */
  async function cycleAlert(botId: string, cycle: number): Promise<{ title: string; bot: { name: string | null; label: string } }> {
    const [e] = toNewEvents([{ type: 'CycleCompleted', data: { botId, run: 0, cycle, profit: 6.02, nextCycle: cycle + 1 } }], { userId: t.uid, correlationId: `cycle-${botId}-${cycle}` });
    await t.app.app.get<EventStore>(EVENT_STORE).append(`bot-${botId}`, [e], 'any');
    const call = await until(`the alert of cycle ${cycle}`, () => webhook.accepted.find((c) => JSON.parse(c.raw).id === `${e.id}:webhook`), 20_000);
    return JSON.parse(call.raw);
  }

  it('a bad name is a 400 with its message, nothing created', async () => {
    const before = ((await t.c.get(`/api/bots/${t.uid}`)).body as unknown[]).length;
    for (const [name, message] of [
      ['x'.repeat(61), 'name must be at most 60 characters'],
      ['Night\ngrid', 'name must not contain control characters (tabs, line breaks) or direction overrides'],
      [7, 'name must be text'],
    ] as const) {
      const res = await t.c.post('/api/bots', { ...spotBot, userId: t.uid, name });
      expect({ status: res.status, errors: res.body.errors }).toEqual({ status: 400, errors: [{ field: 'name', message }] });
    }
    expect(((await t.c.get(`/api/bots/${t.uid}`)).body as unknown[]).length).toBe(before);
  });

  it('named at create (trimmed): the list, the details, the history and the alert carry it; renamed, the next alert says the new name; unnamed, the alert names the bot by its id', async () => {
    const created = await t.c.post('/api/bots', { ...spotBot, userId: t.uid, name: '  Night grid ' });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    expect(created.body.name).toBe('Night grid');
    expect(((await t.c.get(`/api/bots/${t.uid}`)).body as { id: string; name?: string }[]).find((b) => b.id === id)?.name).toBe('Night grid');
    expect((await t.c.get('/api/bots')).body.items.find((b: { id: string }) => b.id === id).name).toBe('Night grid');
    expect((await t.c.get(`/api/bot-details/${id}`)).body.name).toBe('Night grid');
    const history = (await t.c.get(`/api/bots/${id}/history`)).body as { type: string; data: { name?: string } }[];
    expect(history.find((e) => e.type === 'BotCreated')?.data.name).toBe('Night grid');

    const first = await cycleAlert(id, 1);
    expect(first.bot).toMatchObject({ name: 'Night grid', label: '"Night grid"' });
    expect(first.title).toBe('Cycle completed: "Night grid" (BTCUSDT, Binance spot)');

    const edit = { exchange: 'Binance', numOfOrders: spotBot.numOfOrders, orderSize: spotBot.orderSize, interval: spotBot.interval, entryPrice: spotBot.entryPrice, takeProfit: spotBot.takeProfit };
    const renamed = await t.c.put(`/api/bots/${id}`, { ...edit, name: 'Day grid' });
    expect(renamed.body.name).toBe('Day grid');
    expect((await cycleAlert(id, 2)).title).toBe('Cycle completed: "Day grid" (BTCUSDT, Binance spot)');
    // an edit that sends no name keeps it; '' removes it
    expect((await t.c.put(`/api/bots/${id}`, edit)).body.name).toBe('Day grid');
    const unnamed = await t.c.put(`/api/bots/${id}`, { ...edit, name: '' });
    expect(unnamed.body).not.toHaveProperty('name');
    expect((await cycleAlert(id, 3)).bot).toMatchObject({ name: null, label: `bot ${id.slice(0, 8)}` });
  });
});
