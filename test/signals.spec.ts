import { createHmac, randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SqliteEventStore } from '@gridrocket/event-store';
import { Client, spotBot } from './support/http-client';
import { useTraderApp } from './support/trader-app';

/**
 * Issue 32, signed signals: a bot started and stopped by a signed POST /api/signals/{botId} (a script,
 * or a TradingView alert with the secret in its message), through the real app on the embedded stores
 * and the paper exchange. The signature is computed here as docs/signals.md tells a sender to.
 */
describe('signed signals (issue 32)', () => {
  const t = useTraderApp('signals-alice@example.com', { env: { PUBLIC_URL: 'https://grid.example' }, key: 'Binance' });

  const now = () => Math.floor(Date.now() / 1000);

  /** A request as a script sends it: X-Signature = sha256=<hex HMAC-SHA256(secret, "<timestamp>.<body>")>. */
  function signed(secret: string, body: string, opts: { ts?: number; id?: string; contentType?: string } = {}) {
    const ts = String(opts.ts ?? now());
    const id = opts.id ?? randomUUID();
    const signature = createHmac('sha256', secret).update(`${ts}.${body}`).digest('hex');
    return { id, body, headers: { 'content-type': opts.contentType ?? 'application/json', 'x-signal-timestamp': ts, 'x-signal-id': id, 'x-signature': `sha256=${signature}` } };
  }

  /** POSTs with no cookie at all, as TradingView or a script does. */
  async function send(botId: string, req: { body: string; headers: Record<string, string> }) {
    const res = await fetch(`${t.app.url}/api/signals/${botId}`, { method: 'POST', headers: req.headers, body: req.body });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined, text };
  }

  async function newBot(owner = t.c): Promise<string> {
    const res = await owner.post('/api/bots', { ...spotBot });
    expect(res.status).toBe(201);
    return res.body.id;
  }

  async function enable(botId: string, body: Record<string, unknown> = {}, owner = t.c) {
    const res = await owner.post(`/api/bots/${botId}/signals`, body);
    expect(res.status).toBe(201);
    return res.body as { enabled: boolean; url: string; secret: string; secretLast4: string; allowBodySecret: boolean };
  }

  async function history(botId: string, owner = t.c): Promise<Array<{ type: string; data: any; metadata: any }>> {
    const res = await owner.get(`/api/bots/${botId}/history`);
    expect(res.status).toBe(200);
    return res.body;
  }

  /** Reads the bot until it is in `state` (the runner works on its own): the last one read otherwise. */
  async function settles(botId: string, state: string): Promise<string> {
    let seen = '';
    for (let i = 0; i < 100 && seen !== state; i++) {
      seen = (await t.c.get(`/api/bot-details/${botId}`)).body.state;
      if (seen !== state) await new Promise((r) => setTimeout(r, 100));
    }
    return seen;
  }

  it('the owner enables the webhook: a URL and a secret shown once; GET never shows the secret', async () => {
    const botId = await newBot();
    const before = await t.c.get(`/api/bots/${botId}/signals`);
    expect(before.status).toBe(200);
    expect(before.body).toEqual({ enabled: false, url: `https://grid.example/api/signals/${botId}`, secretLast4: null, allowBodySecret: false, windowSeconds: 300, heldPosition: 'refuse' });
    const made = await enable(botId);
    expect(made).toMatchObject({ enabled: true, allowBodySecret: false, url: `https://grid.example/api/signals/${botId}` });
    expect(made.secret).toMatch(/^grs_[A-Za-z0-9_-]{43}$/);
    expect(made.secretLast4).toBe(made.secret.slice(-4));
    const after = await t.c.get(`/api/bots/${botId}/signals`);
    expect(after.body).toMatchObject({ enabled: true, secretLast4: made.secret.slice(-4) });
    expect(after.text).not.toContain(made.secret);
    // enabling twice is refused: the secret is rotated instead
    expect((await t.c.post(`/api/bots/${botId}/signals`, {})).status).toBe(409);
  }, 30_000);

  it('a valid signal starts the bot and a stop signal stops it; both are in the bot\'s history with what they did', async () => {
    const botId = await newBot();
    const { secret } = await enable(botId);

    const start = signed(secret, JSON.stringify({ action: 'start' }));
    const started = await send(botId, start);
    expect(started.status).toBe(202);
    expect(started.body).toEqual({ id: start.id, action: 'start', outcome: 'requested', state: 'starting' });
    expect(await settles(botId, 'running')).toBe('running');

    const stop = signed(secret, JSON.stringify({ action: 'stop', cancelAllOrders: true }));
    const stopped = await send(botId, stop);
    expect(stopped.status).toBe(202);
    expect(stopped.body).toMatchObject({ id: stop.id, action: 'stop', outcome: 'requested' });
    expect(await settles(botId, 'stopped')).toBe('stopped');

    const events = await history(botId);
    const types = events.map((e) => e.type);
    // the signal taken, the bot's own start request (as its owner), then what the signal did
    const s = types.indexOf('SignalReceived');
    expect(types.slice(s, s + 3)).toEqual(['SignalReceived', 'BotStartRequested', 'SignalHandled']);
    expect(events[s]).toMatchObject({ data: { signalId: start.id, action: 'start', auth: 'signature' } });
    expect(events[s + 1].metadata.userId).toBe(t.uid);
    expect(events[s + 2].data).toMatchObject({ signalId: start.id, outcome: 'requested', status: 202 });
    const stopAt = types.indexOf('BotStopRequested');
    expect(events[stopAt].data).toMatchObject({ cancelAllOrders: true });
    expect(events.filter((e) => e.type === 'SignalHandled').map((e) => [e.data.action, e.data.outcome])).toEqual([['start', 'requested'], ['stop', 'requested']]);
    // the plain-text form of a signed signal: the word in the body
    const again = await send(botId, signed(secret, 'start', { contentType: 'text/plain' }));
    expect(again.status).toBe(202);
    expect(again.body).toMatchObject({ action: 'start', outcome: 'requested' });
    expect(await settles(botId, 'running')).toBe('running');
  }, 60_000);

  it('a replay, a stale timestamp and a bad signature are refused (409, 400, 401) and recorded in the bot\'s history', async () => {
    const botId = await newBot();
    const { secret } = await enable(botId);
    const stop = signed(secret, JSON.stringify({ action: 'stop' }));
    // the bot is stopped: a stop is taken and changes nothing
    expect((await send(botId, stop)).body).toMatchObject({ outcome: 'unchanged', state: 'stopped' });

    const replay = await send(botId, stop);
    expect(replay.status).toBe(409);
    expect(replay.body.message).toMatch(/already taken/);

    // correctly signed, but 301 s old (the window is 300 s either way)
    const stale = await send(botId, signed(secret, JSON.stringify({ action: 'start' }), { ts: now() - 301 }));
    expect(stale.status).toBe(400);
    expect(stale.body.errors).toEqual([{ field: 'X-Signal-Timestamp', message: expect.stringMatching(/more than 300 seconds/) }]);
    // and one from 301 s in the future
    expect((await send(botId, signed(secret, JSON.stringify({ action: 'start' }), { ts: now() + 301 }))).status).toBe(400);

    const forged = signed('grs_' + 'x'.repeat(43), JSON.stringify({ action: 'start' }));
    const bad = await send(botId, forged);
    expect(bad.status).toBe(401);
    // a body changed after signing
    const tampered = signed(secret, JSON.stringify({ action: 'stop' }));
    expect((await send(botId, { ...tampered, body: JSON.stringify({ action: 'start' }) })).status).toBe(401);

    // none of them started the bot
    expect((await t.c.get(`/api/bot-details/${botId}`)).body.state).toBe('stopped');
    const events = await history(botId);
    expect(events.filter((e) => e.type === 'BotStartRequested')).toHaveLength(0);
    const refused = events.filter((e) => e.type === 'SignalRefused').map((e) => ({ reason: e.data.reason, status: e.data.status, signalId: e.data.signalId, who: e.metadata.userId }));
    expect(refused).toEqual([
      { reason: 'replay', status: 409, signalId: stop.id, who: 'anonymous' },
      { reason: 'stale', status: 400, signalId: expect.any(String), who: 'anonymous' },
      { reason: 'stale', status: 400, signalId: expect.any(String), who: 'anonymous' },
      { reason: 'bad-signature', status: 401, signalId: forged.id, who: 'anonymous' },
      { reason: 'bad-signature', status: 401, signalId: tampered.id, who: 'anonymous' },
    ]);
  }, 30_000);

  it('refusals are bounded: at most 5 recorded a minute per bot, and at most 30 requests a minute reach the checks (429 beyond)', async () => {
    const botId = await newBot();
    await enable(botId);
    const statuses: number[] = [];
    for (let i = 0; i < 32; i++) statuses.push((await send(botId, signed('grs_wrong-secret', JSON.stringify({ action: 'start' })))).status);
    // 30 requests reach the checks (each refused 401), the 31st and 32nd are turned away before them
    expect(statuses.slice(0, 30)).toEqual(Array(30).fill(401));
    expect(statuses.slice(30)).toEqual([429, 429]);
    const events = await history(botId);
    // the first 5 of the minute are recorded; the other 25 are counted into the next record
    expect(events.filter((e) => e.type === 'SignalRefused')).toHaveLength(5);
  }, 30_000);

  it('a captured signed start replayed under new ids is refused, copies sent in parallel too: the signature is remembered (issue 38, break 4)', async () => {
    const botId = await newBot();
    const { secret } = await enable(botId);
    const captured = signed(secret, JSON.stringify({ action: 'start' }));
    // the attacker keeps the body, timestamp and signature and gives each copy an id of its own
    const copy = () => ({ body: captured.body, headers: { ...captured.headers, 'x-signal-id': randomUUID() } });
    const first = await send(botId, captured);
    expect(first.status).toBe(202);
    const parallel = await Promise.all([send(botId, copy()), send(botId, copy()), send(botId, copy())]);
    expect(parallel.map((r) => r.status)).toEqual([409, 409, 409]);
    expect(parallel[0].body.message).toBe('This signed request was already taken for this bot (a copy under another id is the same signal): each signal needs its own id, timestamp and signature');
    const events = await history(botId);
    expect(events.filter((e) => e.type === 'SignalReceived')).toHaveLength(1);
    expect(events.filter((e) => e.type === 'BotStartRequested')).toHaveLength(1);
    // the history keeps a digest of the signature, never the signature
    expect(JSON.stringify(events)).not.toContain(captured.headers['x-signature'].slice(7));
  }, 30_000);

  it('three copies of a new signed request sent at once: one is taken, two are replays (issue 38, break 4)', async () => {
    const botId = await newBot();
    const { secret } = await enable(botId);
    const original = signed(secret, JSON.stringify({ action: 'start' }));
    const copies = [original, { ...original, headers: { ...original.headers, 'x-signal-id': randomUUID() } }, { ...original, headers: { ...original.headers, 'x-signal-id': randomUUID() } }];
    const statuses = (await Promise.all(copies.map((c) => send(botId, c)))).map((r) => r.status).sort();
    expect(statuses).toEqual([202, 409, 409]);
  }, 30_000);

  it('junk never makes the owner wait: after 40 unsigned and badly signed requests, the owner\'s signed signals are taken (issue 38, break 5)', async () => {
    const botId = await newBot();
    const { secret } = await enable(botId);
    const junk: number[] = [];
    for (let i = 0; i < 20; i++) junk.push((await send(botId, { body: JSON.stringify({ action: 'start' }), headers: { 'content-type': 'application/json' } })).status);
    for (let i = 0; i < 20; i++) junk.push((await send(botId, signed('grs_not-the-secret', JSON.stringify({ action: 'stop' })))).status);
    // the junk is refused, and past its own count turned away (429), unrecorded
    expect(junk.slice(0, 30).every((s) => s === 400 || s === 401)).toBe(true);
    expect(junk.slice(30)).toEqual(Array(10).fill(429));
    const start = await send(botId, signed(secret, JSON.stringify({ action: 'start' })));
    expect(start.status).toBe(202);
    expect(start.body.outcome).toBe('requested');
    const stop = await send(botId, signed(secret, JSON.stringify({ action: 'stop' })));
    expect(stop.status).toBe(202);
    const events = await history(botId);
    expect(events.filter((e) => e.type === 'SignalReceived').map((e) => e.data.action)).toEqual(['start', 'stop']);
  }, 30_000);

  it('TradingView\'s form (the secret in the JSON message) is refused unless the owner allows it; a rotation stops the old secret', async () => {
    const botId = await newBot();
    const { secret } = await enable(botId);
    // what a TradingView alert sends: its message, as JSON, without custom headers
    const message = (s: string, id: string) => JSON.stringify({ action: 'start', id, timestamp: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'), secret: s, ticker: 'BTCUSDT', close: 60000 });
    const tv = (s: string, id: string = randomUUID()) => send(botId, { body: message(s, id), headers: { 'content-type': 'application/json' } });
    const off = await tv(secret);
    expect(off.status).toBe(401);
    expect(off.body.message).toMatch(/signed signals only/);

    const rotated = await t.c.post(`/api/bots/${botId}/signals/rotate`, { allowBodySecret: true });
    expect(rotated.status).toBe(200);
    expect(rotated.body).toMatchObject({ enabled: true, allowBodySecret: true });
    expect(rotated.body.secret).not.toBe(secret);
    expect((await tv(secret)).status).toBe(401); // the old secret no longer works
    const on = await tv(rotated.body.secret, 'tv-start-1');
    expect(on.status).toBe(202);
    expect(on.body).toMatchObject({ id: 'tv-start-1', action: 'start', outcome: 'requested' });
    expect((await tv(rotated.body.secret, 'tv-start-1')).status).toBe(409); // the same alert again
    // text/plain without a signature names what is missing
    const plain = await send(botId, { body: 'start', headers: { 'content-type': 'text/plain' } });
    expect(plain.status).toBe(400);
    expect(plain.body.errors[0]).toMatchObject({ field: 'body' });
    // a JSON message without id and timestamp: a field message for each
    const partial = await send(botId, { body: JSON.stringify({ action: 'start', secret: rotated.body.secret }), headers: { 'content-type': 'application/json' } });
    expect(partial.status).toBe(400);
    expect(partial.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['id', 'timestamp']);

    // disabled: the route answers 404 and records nothing more
    expect((await t.c.delete(`/api/bots/${botId}/signals`)).status).toBe(204);
    // (the signals' own records: the runner goes on appending the started bot's orders meanwhile)
    const signalRecords = async () => (await history(botId)).filter((e) => e.type.startsWith('Signal')).length;
    const count = await signalRecords();
    expect((await tv(rotated.body.secret)).status).toBe(404);
    expect(await signalRecords()).toBe(count);
    expect((await t.c.get(`/api/bots/${botId}/signals`)).body).toMatchObject({ enabled: false, secretLast4: null });
  }, 60_000);

  it('another user\'s bot cannot be driven: not its settings, not with their own secret, not with their session cookie', async () => {
    const botId = await newBot();
    const { secret } = await enable(botId);
    const bob = new Client(t.app.url);
    const bobUid = (await bob.signUp('signals-bob@example.com')).uid;
    await bob.addKey(bobUid, 'Binance');
    // Alice's bot's settings are not Bob's to read, enable, rotate or disable
    expect((await bob.get(`/api/bots/${botId}/signals`)).status).toBe(404);
    expect((await bob.post(`/api/bots/${botId}/signals`, {})).status).toBe(404);
    expect((await bob.post(`/api/bots/${botId}/signals/rotate`, {})).status).toBe(404);
    expect((await bob.delete(`/api/bots/${botId}/signals`)).status).toBe(404);
    // Bob's own bot's secret does not sign for Alice's bot
    const bobBot = await newBot(bob);
    const bobSecret = (await enable(bobBot, {}, bob)).secret;
    expect((await send(botId, signed(bobSecret, JSON.stringify({ action: 'start' })))).status).toBe(401);
    // Bob's session cookie and CSRF header are no signature (the route reads no cookie)
    const withSession = await bob.raw('POST', `/api/signals/${botId}`, { body: JSON.stringify({ action: 'start' }), headers: { 'content-type': 'application/json' } });
    expect(withSession.status).toBe(400);
    // nor is Alice's own session: the cookie alone drives nothing, even on her own bot
    const own = await t.c.raw('POST', `/api/signals/${botId}`, { body: JSON.stringify({ action: 'start', id: 'cookie-1', timestamp: now(), secret: 'none' }), headers: { 'content-type': 'application/json' } });
    expect(own.status).toBe(401);
    expect((await t.c.get(`/api/bot-details/${botId}`)).body.state).toBe('stopped');
    expect((await history(botId)).filter((e) => e.type === 'BotStartRequested')).toHaveLength(0);
    // and Alice's secret still works
    expect((await send(botId, signed(secret, JSON.stringify({ action: 'start' })))).status).toBe(202);
  }, 60_000);

  it('the start goes through the bot\'s own checks: an owner without an API key is refused (409) and the history says why', async () => {
    const carol = new Client(t.app.url);
    await carol.signUp('signals-carol@example.com'); // no API key for Binance
    const botId = await newBot(carol);
    const { secret } = await enable(botId, {}, carol);
    const start = signed(secret, JSON.stringify({ action: 'start' }));
    const refused = await send(botId, start);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toMatch(/^No API key for Binance/);
    const events = await history(botId, carol);
    expect(events.filter((e) => e.type === 'BotStartRequested')).toHaveLength(0);
    const handled = events.filter((e) => e.type === 'SignalHandled').map((e) => e.data);
    expect(handled).toEqual([{ botId, signalId: start.id, action: 'start', outcome: 'refused', status: 409, reason: expect.stringMatching(/^No API key for Binance/) }]);
  }, 30_000);

  it('the secret is in no API answer after its creation, and the event store holds it only sealed', async () => {
    const botId = await newBot();
    const { secret } = await enable(botId, { allowBodySecret: true });
    expect((await send(botId, signed(secret, JSON.stringify({ action: 'start' })))).status).toBe(202);
    const answers = await Promise.all([
      t.c.get(`/api/bots/${botId}/signals`),
      t.c.get(`/api/bots/${botId}/history`),
      t.c.get(`/api/bots/${botId}/history?format=csv`),
      t.c.get(`/api/bots/${botId}/state`),
      t.c.get(`/api/bot-details/${botId}`),
      t.c.get(`/api/bots/${t.uid}`),
    ]);
    for (const a of answers) {
      expect(a.status).toBe(200);
      expect(a.text).not.toContain(secret);
      expect(a.text).not.toContain(secret.slice(4, 20));
    }
    // the event store's files (database and WAL) hold no copy of the secret; its settings event holds a sealed one
    const files = readdirSync(t.app.dataDir).filter((f) => f.startsWith('events.sqlite'));
    expect(files.length).toBeGreaterThan(0);
    const bytes = Buffer.concat(files.map((f) => readFileSync(join(t.app.dataDir, f))));
    expect(bytes.includes(Buffer.from(secret))).toBe(false);
    expect(bytes.includes(Buffer.from(secret.slice(4, 20)))).toBe(false);
    const store = new SqliteEventStore(join(t.app.dataDir, 'events.sqlite'));
    try {
      const settings = await store.readStream(`signal-webhook-${botId}`);
      expect(settings.map((e) => e.type)).toEqual(['SignalWebhookEnabled']);
      const data = settings[0].data as { sealedSecret: string; secretLast4: string };
      expect(data.sealedSecret).toMatch(/^v1\./);
      expect(data.secretLast4).toBe(secret.slice(-4));
      expect(JSON.stringify(settings[0].data)).not.toContain(secret);
    } finally {
      await store.close();
    }
  }, 30_000);
});
