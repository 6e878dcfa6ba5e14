import { join } from 'node:path';
import type { Socket } from 'socket.io-client';
import { BOT_LIFECYCLE_EVENTS } from '@gridrocket/bots';
import { SqliteEventStore } from '@gridrocket/event-store';
import { Client, spotBot } from './support/http-client';
import { startTestApp } from './support/test-app';

function nextEvent<T = any>(socket: Socket, name: string, match: (p: T) => boolean = () => true, timeoutMs = 3000): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${name} within ${timeoutMs} ms`)), timeoutMs);
    const handler = (payload: T) => {
      if (!match(payload)) return;
      clearTimeout(timer);
      socket.off(name, handler);
      resolve(payload);
    };
    socket.on(name, handler);
  });
}

describe('bot lifecycle, end to end on the embedded stores', () => {
  let app: Awaited<ReturnType<typeof startTestApp>>;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(async () => {
    sockets.forEach((s) => s.close());
    await app.close();
  });

  it('register → login → create → edit → start (pushed) → stop (pushed) → delete', async () => {
    const alice = new Client(app.url);
    const registered = await alice.signUp('alice@example.com');
    await alice.addKey(registered.uid, 'Kucoin');
    expect(registered).toMatchObject({ email: 'alice@example.com', emailVerified: false, displayName: '', photoURL: null });

    // a fresh browser logs in with the same credentials
    const browser = new Client(app.url);
    expect((await browser.get('/api/auth/me')).status).toBe(401);
    const login = await browser.post('/api/auth/login', { email: 'Alice@Example.com', password: 'correct-horse-1' });
    expect(login.status).toBe(200);
    expect(login.body.uid).toBe(registered.uid);
    const me = await browser.get('/api/auth/me');
    expect(me.body).toEqual({ uid: registered.uid, displayName: '', email: 'alice@example.com', emailVerified: false, photoURL: null });

    const socket = await browser.socket();
    sockets.push(socket);
    // another user's socket must never hear about Alice's bots
    const bob = new Client(app.url);
    await bob.signUp('bob@example.com');
    const bobSocket = await bob.socket();
    sockets.push(bobSocket);
    const bobHeard: string[] = [];
    bobSocket.onAny((name) => bobHeard.push(name));

    const changed = nextEvent(socket, 'bot:changed');
    const created = await browser.post('/api/bots', { ...spotBot, userId: registered.uid });
    expect(created.status).toBe(201);
    const id = created.body.id;
    expect(created.body).toEqual({
      id,
      bottype: 'Spot',
      userid: registered.uid,
      exchange: 'Binance',
      symbol: 'BTCUSDT',
      numoforders: 5,
      ordersize: 0.01,
      interval: 100,
      entryprice: 60000,
      takeprofit: 1,
      botstatus: false,
      pid: -1,
      profit: 0,
      state: 'stopped',
      lasterror: null,
    });
    expect(await changed).toEqual({ id });

    const edited = await browser.put(`/api/bots/${id}`, { exchange: 'Kucoin', numOfOrders: 6, orderSize: 0.02, interval: 50, entryPrice: 61000, takeProfit: 2 });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ exchange: 'Kucoin', numoforders: 6, ordersize: 0.02, interval: 50, entryprice: 61000, takeprofit: 2, symbol: 'BTCUSDT' });

    const startedPush = nextEvent(socket, 'bot:status', (p) => p.id === id && p.botstatus === true);
    const start = await browser.get(`/api/startBot?userId=${registered.uid}&id=${id}&symbol=BTCUSDT&exchange=Kucoin&botType=Spot`);
    expect(start.status).toBe(202);
    expect(await startedPush).toEqual({ id, botstatus: true, pid: process.pid });
    const running = await browser.get(`/api/bot-details/${id}`);
    expect(running.body).toMatchObject({ botstatus: true, pid: process.pid, state: 'running' });

    // a running bot cannot be edited or deleted
    const busyEdit = await browser.put(`/api/bots/${id}`, { exchange: 'Kucoin', numOfOrders: 6, orderSize: 0.02, interval: 50, entryPrice: 61000, takeProfit: 2 });
    expect(busyEdit.status).toBe(409);
    expect(busyEdit.body.message).toMatch(/stop it before editing/);
    expect((await browser.delete(`/api/bots/${id}`)).status).toBe(409);

    const stoppedPush = nextEvent(socket, 'bot:status', (p) => p.id === id && p.botstatus === false);
    const stop = await browser.get(`/api/stopBot?userId=${registered.uid}&id=${id}&pid=${process.pid}&cancelAllOrders=true&exchange=Kucoin&symbol=BTCUSDT&botType=Spot`);
    expect(stop.status).toBe(202);
    expect(await stoppedPush).toEqual({ id, botstatus: false, pid: -1 });

    const deletedPush = nextEvent(socket, 'bot:deleted');
    expect((await browser.delete(`/api/bots/${id}`)).status).toBe(204);
    expect(await deletedPush).toEqual({ id });
    expect((await browser.get(`/api/bot-details/${id}`)).status).toBe(404);
    expect((await browser.get(`/api/bots/${registered.uid}`)).body).toEqual([]);

    // the stream tells the whole story, with metadata
    const store = new SqliteEventStore(join(app.dataDir, 'events.sqlite'));
    const all = await store.readStream(`bot-${id}`);
    await store.close();
    // the grid runner's order history: the edited ladder of 6 placed at start, all cancelled at the stop (cancel-all)
    expect(all.filter((e) => e.type === 'OrderPlaced')).toHaveLength(6);
    expect(all.filter((e) => e.type === 'OrderCancelled')).toHaveLength(6);
    const events = all.filter((e) => (BOT_LIFECYCLE_EVENTS as string[]).includes(e.type));
    expect(events.map((e) => e.type)).toEqual([
      'BotCreated', 'BotEdited', 'BotStartRequested', 'BotStarted', 'BotStopRequested', 'BotStopped', 'BotDeleted',
    ]);
    expect(events[4].data).toEqual({ botId: id, cancelAllOrders: true });
    const userEvents = events.filter((e) => e.metadata.userId === registered.uid).map((e) => e.type);
    expect(userEvents).toEqual(['BotCreated', 'BotEdited', 'BotStartRequested', 'BotStopRequested', 'BotDeleted']);
    // the runner's events are caused by the user's requests and share their correlation id
    expect(events[3].metadata.causationId).toBe(events[2].id);
    expect(events[3].metadata.correlationId).toBe(events[2].metadata.correlationId);
    for (const placed of all.filter((e) => e.type === 'OrderPlaced')) expect(placed.metadata.causationId).toBe(events[2].id);
    // what the stop does (cancels, BotStopped) is caused by the stop request
    for (const e of [...all.filter((x) => x.type === 'OrderCancelled'), events[5]]) {
      expect(e.metadata.causationId).toBe(events[4].id);
      expect(e.metadata.correlationId).toBe(events[4].metadata.correlationId);
    }
    for (const e of events) {
      expect(e.metadata).toEqual(expect.objectContaining({ schemaVersion: 1, occurredAt: expect.any(String), correlationId: expect.any(String) }));
    }

    await new Promise((r) => setTimeout(r, 100));
    expect(bobHeard.filter((n) => n.startsWith('bot:'))).toEqual([]);
  });

  it('keeps users apart: another user\'s bot is 404, another userId is 403', async () => {
    const carol = new Client(app.url);
    const c = await carol.signUp('carol@example.com');
    const dave = new Client(app.url);
    const d = await dave.signUp('dave@example.com');
    const bot = await carol.post('/api/bots', spotBot);
    expect(bot.status).toBe(201);
    expect((await dave.get(`/api/bot-details/${bot.body.id}`)).status).toBe(404);
    expect((await dave.get(`/api/startBot?id=${bot.body.id}`)).status).toBe(404);
    expect((await dave.put(`/api/bots/${bot.body.id}`, { exchange: 'Binance', numOfOrders: 1, orderSize: 1, interval: 1, entryPrice: 2, takeProfit: 1 })).status).toBe(404);
    expect((await dave.delete(`/api/bots/${bot.body.id}`)).status).toBe(404);
    expect((await dave.get(`/api/bots/${c.uid}`)).status).toBe(403);
    expect((await dave.post('/api/bots', { ...spotBot, userId: c.uid })).status).toBe(403);
    expect((await dave.get(`/api/bots/${d.uid}`)).body).toEqual([]);
    expect((await carol.get(`/api/bots/${c.uid}`)).body.map((b: { id: string }) => b.id)).toEqual([bot.body.id]);
  });

  it('refuses state changes without the session or the CSRF header', async () => {
    const anon = new Client(app.url);
    expect((await anon.post('/api/bots', spotBot)).status).toBe(401);
    const eve = new Client(app.url);
    await eve.signUp('eve@example.com');
    const noCsrf = await eve.post('/api/bots', spotBot, { csrf: false });
    expect(noCsrf.status).toBe(403);
    expect(noCsrf.body.message).toMatch(/CSRF/);
    const bot = await eve.post('/api/bots', spotBot);
    expect((await eve.get(`/api/startBot?id=${bot.body.id}`, { csrf: false })).status).toBe(403);
    const anonSocket = anon.socket();
    await expect(anonSocket).rejects.toBeTruthy();
  });

  it('refuses to start a bot on an exchange the owner has no API key for, paper mode included', async () => {
    const gina = new Client(app.url);
    const { uid } = await gina.signUp('gina@example.com');
    const bot = await gina.post('/api/bots', spotBot);
    expect(bot.status).toBe(201);
    const refused = await gina.get(`/api/startBot?userId=${uid}&id=${bot.body.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toMatch(/No API key for Binance: add one on the Security page/);
    expect((await gina.get(`/api/bot-details/${bot.body.id}`)).body).toMatchObject({ state: 'stopped', botstatus: false });
    // a Kucoin key does not open Binance; a Binance key does
    await gina.addKey(uid, 'Kucoin');
    expect((await gina.get(`/api/startBot?userId=${uid}&id=${bot.body.id}`)).status).toBe(409);
    await gina.addKey(uid, 'Binance');
    expect((await gina.get(`/api/startBot?userId=${uid}&id=${bot.body.id}`)).status).toBe(202);
  }, 30000);

  it('refuses a ladder the market refuses, with the form\'s field messages (create and edit)', async () => {
    const hank = new Client(app.url);
    await hank.signUp('hank@example.com');
    // BTCUSDT on the paper exchange: price step 0.01, minimum order value 5 USDT
    const offStep = await hank.post('/api/bots', { ...spotBot, entryPrice: '60000.005' });
    expect(offStep.status).toBe(400);
    expect(offStep.body.errors).toEqual([{ field: 'entryPrice', message: "Entry Price must be a multiple of 0.01 (the market's price step)" }]);
    const belowZero = await hank.post('/api/bots', { ...spotBot, numOfOrders: 5, interval: 20000 });
    expect(belowZero.status).toBe(400);
    expect(belowZero.body.errors[0]).toEqual({ field: 'numOfOrders', message: 'The lowest order would be at -20000: lower the grid size or the price interval' });
    const ok = await hank.post('/api/bots', spotBot);
    expect(ok.status).toBe(201);
    const tiny = await hank.put(`/api/bots/${ok.body.id}`, { exchange: 'Binance', numOfOrders: 2, orderSize: 0.01, interval: 10, entryPrice: 100, takeProfit: 1 });
    expect(tiny.status).toBe(400);
    expect(tiny.body.errors[0].field).toBe('orderSize');
    expect(tiny.body.errors[0].message).toMatch(/below the market's minimum order value of 5 USDT/);
    expect((await hank.get(`/api/bot-details/${ok.body.id}`)).body.ordersize).toBe(0.01);
    // an edit of a SPOT bot is held to the spot take-profit minimum (0.21 % at the 0.1 % maker fee),
    // not the futures one (0.05 %): 0.205 % passed before the edit knew the bot's type
    const edit = { exchange: 'Binance', numOfOrders: 3, orderSize: 0.01, interval: 100, entryPrice: 60000 };
    const lowTp = await hank.put(`/api/bots/${ok.body.id}`, { ...edit, takeProfit: 0.205 });
    expect(lowTp.status).toBe(400);
    expect(lowTp.body.errors).toEqual([{ field: 'takeProfit', message: 'Take profit must be at least 0.21 %: the buy and the take-profit sell each pay the 0.1 % maker fee' }]);
    expect((await hank.put(`/api/bots/${ok.body.id}`, { ...edit, takeProfit: 0.21 })).status).toBe(200);
  }, 30000);

  it('logout ends the session', async () => {
    const frank = new Client(app.url);
    await frank.signUp('frank@example.com');
    const cookie = frank.cookieHeader();
    expect((await frank.post('/api/auth/logout')).status).toBe(204);
    const replay = await fetch(`${app.url}/api/auth/me`, { headers: { cookie } });
    expect(replay.status).toBe(401);
  });

  it('serves OpenAPI and health', async () => {
    const c = new Client(app.url);
    expect((await c.get('/api/docs')).status).toBe(200);
    const health = await c.get('/api/health');
    expect(health.status).toBe(200);
    expect(health.body).toMatchObject({ status: 'ok', eventStore: 'sqlite', readStore: 'sqlite' });
  });
});
