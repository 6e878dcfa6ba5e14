import { Client, spotBot } from './support/http-client';
import { startTestApp } from './support/test-app';
import { readEventFile } from './support/event-file';

/** PUT /api/bots/{id} with If-Match: an edit decided on a stale read is refused, not silently applied. */
describe('editing a bot with If-Match (its stream revision, served as the ETag)', () => {
  let app: Awaited<ReturnType<typeof startTestApp>>;
  let c: Client;
  let uid: string;
  const edit = { exchange: 'Binance', numOfOrders: 3, orderSize: 1, interval: 10, entryPrice: 100, takeProfit: 1 };
  const putWith = (id: string, body: unknown, ifMatch?: string) =>
    c.raw('PUT', `/api/bots/${id}`, { body: JSON.stringify(body), headers: { 'content-type': 'application/json', ...(ifMatch === undefined ? {} : { 'if-match': ifMatch }) } });
  const streamLength = (id: string) => readEventFile(app.dataDir, async (store) => (await store.readStream(`bot-${id}`)).length);

  beforeAll(async () => {
    app = await startTestApp();
    c = new Client(app.url);
    uid = (await c.signUp('etag@example.com')).uid;
  }, 60_000);
  afterAll(async () => app.close());

  it('serves the revision as the ETag, applies an edit made on it, and refuses (412) a second edit made on the same stale read', async () => {
    const { body: bot } = await c.post('/api/bots', { ...spotBot, userId: uid });
    const read = await c.get(`/api/bot-details/${bot.id}`);
    expect(read.status).toBe(200);
    expect(read.headers.get('etag')).toBe('"0"'); // BotCreated is revision 0

    // two tabs read the bot at "0"; the first edit wins and moves the ETag on
    const first = await putWith(bot.id, { ...edit, userId: uid, entryPrice: 101 }, '"0"');
    expect(first.status).toBe(200);
    expect(first.body.entryprice).toBe(101);
    expect(first.headers.get('etag')).toBe('"1"');

    const stale = await putWith(bot.id, { ...edit, userId: uid, entryPrice: 202 }, '"0"');
    expect(stale.status).toBe(412);
    expect(stale.body).toEqual({ statusCode: 412, message: expect.stringMatching(/changed since you loaded it.*reload/) });
    expect(await streamLength(bot.id)).toBe(2); // nothing written
    const after = await c.get(`/api/bot-details/${bot.id}`);
    expect(after.body.entryprice).toBe(101);
    expect(after.headers.get('etag')).toBe('"1"');

    // the fresh ETag is accepted; a list containing it too
    expect((await putWith(bot.id, { ...edit, userId: uid, entryPrice: 103 }, '"1"')).status).toBe(200);
    expect((await putWith(bot.id, { ...edit, userId: uid, entryPrice: 104 }, '"0", "2"')).status).toBe(200);
    expect(await streamLength(bot.id)).toBe(4);
  }, 60_000);

  it('refuses tags that name no revision of ours (weak or foreign), and keeps the spec edit without If-Match', async () => {
    const { body: bot } = await c.post('/api/bots', { ...spotBot, userId: uid });
    expect((await putWith(bot.id, { ...edit, userId: uid }, 'W/"0"')).status).toBe(412);
    expect((await putWith(bot.id, { ...edit, userId: uid }, '"abc"')).status).toBe(412);
    expect(await streamLength(bot.id)).toBe(1);

    const plain = await putWith(bot.id, { ...edit, userId: uid, entryPrice: 150 });
    expect(plain.status).toBe(200);
    expect(plain.body.entryprice).toBe(150);
    expect((await putWith(bot.id, { ...edit, userId: uid, entryPrice: 151 }, '*')).status).toBe(200);
  }, 60_000);

  it('still answers 404 for a missing bot and 400 for bad input, whatever If-Match says', async () => {
    const missing = await putWith('00000000-0000-4000-8000-000000000000', { ...edit, userId: uid }, '"0"');
    expect(missing.status).toBe(404);
    const { body: bot } = await c.post('/api/bots', { ...spotBot, userId: uid });
    const bad = await putWith(bot.id, { ...edit, userId: uid, numOfOrders: -1 }, '"0"');
    expect(bad.status).toBe(400);
  }, 60_000);
});
