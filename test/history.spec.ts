import { BOT_LIFECYCLE_EVENTS } from '@gridrocket/bots';
import { Client, spotBot } from './support/http-client';
import { startTestApp } from './support/test-app';

/** A bot's history, its export formats, and its state at past moments. */
describe('bot history and state-at-time', () => {
  let app: Awaited<ReturnType<typeof startTestApp>>;
  let alice: Client;
  let uid: string;
  let id: string;
  const times: Record<string, string> = {};

  const pause = (ms = 15) => new Promise((r) => setTimeout(r, ms));

  beforeAll(async () => {
    app = await startTestApp();
    alice = new Client(app.url);
    uid = (await alice.signUp('hist-alice@example.com')).uid;
    await alice.addKey(uid, 'Kucoin');
    const created = await alice.post('/api/bots', { ...spotBot, userId: uid });
    expect(created.status).toBe(201);
    id = created.body.id;
    await pause();
    times.afterCreate = new Date().toISOString();
    await pause();
    expect((await alice.put(`/api/bots/${id}`, { exchange: 'Kucoin', numOfOrders: 7, orderSize: 0.02, interval: 50, entryPrice: 61000, takeProfit: 2 })).status).toBe(200);
    await pause();
    times.afterEdit = new Date().toISOString();
    await pause();
    expect((await alice.get(`/api/startBot?userId=${uid}&id=${id}`)).status).toBe(202);
    // the runner reports BotStarted asynchronously
    for (let i = 0; i < 100; i++) {
      if ((await alice.get(`/api/bot-details/${id}`)).body.state === 'running') break;
      await pause(20);
    }
    await pause();
    times.whileRunning = new Date().toISOString();
    await pause();
    expect((await alice.get(`/api/stopBot?userId=${uid}&id=${id}&cancelAllOrders=true`)).status).toBe(202);
    for (let i = 0; i < 100; i++) {
      if ((await alice.get(`/api/bot-details/${id}`)).body.state === 'stopped') break;
      await pause(20);
    }
  });
  afterAll(async () => {
    await app.close();
  });

  it('lists every event with revision, global position, type, data, metadata and time', async () => {
    const res = await alice.get(`/api/bots/${id}/history`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
    const events = res.body as any[];
    // the lifecycle, in order; the runner's order events (ladder placed, cancelled on stop) sit between
    expect(events.map((e) => e.type).filter((t) => BOT_LIFECYCLE_EVENTS.includes(t))).toEqual([
      'BotCreated', 'BotEdited', 'BotStartRequested', 'BotStarted', 'BotStopRequested', 'BotStopped',
    ]);
    expect(events.some((e) => e.type === 'OrderPlaced')).toBe(true);
    expect(events.map((e) => e.revision)).toEqual(events.map((_, i) => i));
    for (let i = 1; i < events.length; i++) expect(events[i].position).toBeGreaterThan(events[i - 1].position);
    expect(events[0]).toEqual({
      id: expect.any(String),
      revision: 0,
      position: expect.any(Number),
      type: 'BotCreated',
      data: expect.objectContaining({ botId: id, userId: uid, botType: 'Spot', symbol: 'BTCUSDT', numOfOrders: 5 }),
      metadata: { userId: uid, correlationId: expect.any(String), causationId: null, occurredAt: expect.any(String), schemaVersion: 1 },
      created: expect.any(String),
    });
    // who did what: the user asked, the runner answered, caused by the request and sharing its correlation id
    expect(events[2].metadata.userId).toBe(uid);
    expect(events[3].metadata.userId).toBe('runner');
    expect(events[3].metadata.causationId).toBe(events[2].id);
    expect(events[3].metadata.correlationId).toBe(events[2].metadata.correlationId);
  });

  it('carries the request correlation id into the events (x-correlation-id)', async () => {
    const bot = await alice.raw('POST', '/api/bots', {
      body: JSON.stringify({ ...spotBot, userId: uid }),
      headers: { 'content-type': 'application/json', 'x-correlation-id': 'audit-trail-42' },
    });
    expect(bot.status).toBe(201);
    expect(bot.headers.get('x-correlation-id')).toBe('audit-trail-42');
    const history = await alice.get(`/api/bots/${bot.body.id}/history`);
    expect(history.body[0].metadata.correlationId).toBe('audit-trail-42');
  });

  it('exports NDJSON, by query or Accept header', async () => {
    const json = (await alice.get(`/api/bots/${id}/history`)).body;
    for (const res of [
      await alice.get(`/api/bots/${id}/history?format=ndjson`),
      await alice.raw('GET', `/api/bots/${id}/history`, { headers: { accept: 'application/x-ndjson' } }),
    ]) {
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/application\/x-ndjson/);
      expect(res.headers.get('content-disposition')).toMatch(/attachment; filename="bot-.*-history\.ndjson"/);
      const lines = res.text.trimEnd().split('\n');
      expect(lines.map((l) => JSON.parse(l))).toEqual(json);
    }
  });

  it('exports CSV, by query or Accept header, one row per event', async () => {
    const json = (await alice.get(`/api/bots/${id}/history`)).body;
    for (const res of [
      await alice.get(`/api/bots/${id}/history?format=csv`),
      await alice.raw('GET', `/api/bots/${id}/history`, { headers: { accept: 'text/csv' } }),
    ]) {
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/text\/csv/);
      const rows = res.text.trimEnd().split('\r\n');
      expect(rows[0]).toBe('revision,position,id,type,occurredAt,created,userId,correlationId,causationId,schemaVersion,data,metadata');
      expect(rows).toHaveLength(json.length + 1);
      const first = parseCsvLine(rows[1]);
      expect(first.slice(0, 4)).toEqual(['0', String(json[0].position), json[0].id, 'BotCreated']);
      expect(first[6]).toBe(uid);
      expect(JSON.parse(first[10])).toEqual(json[0].data);
      expect(JSON.parse(first[11])).toEqual(json[0].metadata);
    }
  });

  it('refuses an unknown format', async () => {
    const res = await alice.get(`/api/bots/${id}/history?format=xml`);
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ field: 'format', message: 'format must be json, ndjson or csv' }]);
  });

  it('folds the state up to a moment', async () => {
    const before = await alice.get(`/api/bots/${id}/state?at=2000-01-01T00:00:00Z`);
    expect(before.status).toBe(200);
    expect(before.body).toMatchObject({ botId: id, revision: null, eventsApplied: 0, view: null, next: ['BotCreated'] });
    expect(before.body.state.exists).toBe(false);

    const created = await alice.get(`/api/bots/${id}/state?at=${encodeURIComponent(times.afterCreate)}`);
    expect(created.body).toMatchObject({ revision: 0, eventsApplied: 1, view: { id, exchange: 'Binance', numoforders: 5, botstatus: false, state: 'stopped' } });
    expect(created.body.next).toEqual(['BotEdited', 'BotStartRequested', 'BotDeleted']);

    const edited = await alice.get(`/api/bots/${id}/state?at=${encodeURIComponent(times.afterEdit)}`);
    expect(edited.body).toMatchObject({ revision: 1, view: { exchange: 'Kucoin', numoforders: 7, ordersize: 0.02 } });

    const history = (await alice.get(`/api/bots/${id}/history`)).body as { type: string; revision: number }[];
    const startedAt = history.find((e) => e.type === 'BotStarted')!.revision;
    const running = await alice.get(`/api/bots/${id}/state?at=${encodeURIComponent(times.whileRunning)}`);
    expect(running.body.revision).toBeGreaterThanOrEqual(startedAt);
    expect(running.body).toMatchObject({ view: { botstatus: true, state: 'running', pid: process.pid } });
    expect(running.body.state).toMatchObject({ status: 'running', userId: uid, exists: true, deleted: false });

    const now = await alice.get(`/api/bots/${id}/state`);
    expect(now.body).toMatchObject({ revision: history.length - 1, eventsApplied: history.length, view: { botstatus: false, state: 'stopped', pid: -1 } });
    expect(now.body.state.cancelAllOrders).toBe(true);
  });

  it('answers 400 to a time that is not ISO-8601', async () => {
    for (const bad of ['yesterday', '2025-13-45T00:00:00Z', '12345', '2025-01-01T25:00:00Z']) {
      const res = await alice.get(`/api/bots/${id}/state?at=${encodeURIComponent(bad)}`);
      expect(res.status).toBe(400);
      expect(res.body.errors[0].field).toBe('at');
    }
  });

  it('keeps the history of a deleted bot for its owner', async () => {
    const bot = await alice.post('/api/bots', { ...spotBot, userId: uid });
    expect((await alice.delete(`/api/bots/${bot.body.id}`)).status).toBe(204);
    const history = await alice.get(`/api/bots/${bot.body.id}/history`);
    expect(history.body.map((e: any) => e.type)).toEqual(['BotCreated', 'BotDeleted']);
    const state = await alice.get(`/api/bots/${bot.body.id}/state`);
    expect(state.body.state).toMatchObject({ deleted: true });
    expect(state.body.next).toEqual([]);
  });

  it('hides another trader\'s bot (404), unknown bots (404) and needs a session (401)', async () => {
    const bob = new Client(app.url);
    await bob.signUp('hist-bob@example.com');
    for (const path of [`/api/bots/${id}/history`, `/api/bots/${id}/history?format=csv`, `/api/bots/${id}/state`, `/api/bots/${id}/state?at=2030-01-01T00:00:00Z`]) {
      const res = await bob.get(path);
      expect(res.status).toBe(404);
      expect(res.text).not.toContain(uid);
    }
    expect((await alice.get('/api/bots/00000000-0000-4000-8000-000000000000/history')).status).toBe(404);
    expect((await alice.get('/api/bots/not-a-bot/state')).status).toBe(404);
    expect((await new Client(app.url).get(`/api/bots/${id}/history`)).status).toBe(401);
  });
});

/** Splits one CSV line (RFC 4180 quoting). */
function parseCsvLine(line: string): string[] {
  const cells: string[] = [];
  let cur = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') {
        cur += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cur += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      cells.push(cur);
      cur = '';
    } else cur += c;
  }
  cells.push(cur);
  return cells;
}
