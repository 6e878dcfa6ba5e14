import { join } from 'node:path';
import { SqliteEventStore } from '@gridrocket/event-store';
import { EVENT_SINK, Forwarder, InProcessSink, MetricsService, StreamValue } from '@gridrocket/streaming';
import { parseReplayArgs, replay } from '../apps/api/src/cli/replay';
import { parseTailArgs, startTail } from '../apps/api/src/cli/tail';
import { Client, spotBot } from './support/http-client';
import { startTestApp } from './support/test-app';
import { useTraderApp } from './support/trader-app';
import { until } from '@gridrocket/shared/testing/until';

/** The operators' side of the running app: the in-process stream, /metrics, the tail and replay CLIs. */
describe('forwarder and operators, in the app (embedded mode)', () => {
  let botId: string;
  const t = useTraderApp('ops-alice@example.com', { env: { METRICS_PUBLIC: 'true' }, key: true });
  beforeAll(async () => {
    const bot = await t.c.raw('POST', '/api/bots', {
      body: JSON.stringify({ ...spotBot, userId: t.uid }),
      headers: { 'content-type': 'application/json', 'x-correlation-id': 'ops-corr-1' },
    });
    expect(bot.status).toBe(201);
    botId = bot.body.id;
  });

  it('feeds every event to the in-process stream, keyed by stream, with the request\'s correlation id', async () => {
    const sink = t.app.app.get<InProcessSink>(EVENT_SINK);
    expect(sink).toBeInstanceOf(InProcessSink);
    expect(sink.topics()).toEqual(['gridrocket.bots', 'gridrocket.credentials', 'gridrocket.users', 'gridrocket.other']);
    const messages = await until('the bot\'s events in the in-process stream', () => {
      const s = sink.snapshot();
      return s.some((m) => m.key === `bot-${botId}`) && s;
    });
    const created = messages.find((m) => m.key === `bot-${botId}`)!;
    expect(created.topic).toBe('gridrocket.bots');
    expect(created.headers).toMatchObject({ 'event-type': 'BotCreated', 'correlation-id': 'ops-corr-1' });
    const users = messages.filter((m) => m.topic === 'gridrocket.users');
    expect(users.length).toBeGreaterThan(0);
    for (const m of users) {
      const value = JSON.parse(m.value) as StreamValue;
      expect(JSON.stringify(value.data)).not.toMatch(/passwordHash|v1\.[A-Za-z0-9_-]{8,}\./);
    }
    // the running t.app keeps appending (the runner's lease heartbeats), so the forwarder is caught up when
    // it reaches the log's head at some moment, not at the instant of one read
    await until('the forwarder caught up with the log', async () => (await t.app.app.get(Forwarder).lag()).behind === 0n);
  });

  it('serves Prometheus metrics at /metrics', async () => {
    await t.c.get(`/api/startBot?userId=${t.uid}&id=${botId}`);
    await until('the bot running', async () => (await t.c.get(`/api/bot-details/${botId}`)).body.state === 'running');
    t.app.app.get(MetricsService).exchangeError('Binance', 'network');
    const res = await fetch(`${t.app.url}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/plain/);
    const text = await res.text();
    expect(text).toMatch(/gridrocket_commands_total\{command="CreateBotCommand",outcome="ok"\} 1/);
    expect(text).toMatch(/gridrocket_commands_total\{command="StartBotCommand",outcome="ok"\} 1/);
    expect(text).toMatch(/gridrocket_events_appended_total\{type="BotCreated",category="bot"\} 1/);
    expect(text).toMatch(/gridrocket_events_forwarded_total\{topic="gridrocket.bots"\} \d+/);
    expect(text).toMatch(/gridrocket_forwarder_lag_events \d+/);
    expect(text).toMatch(/gridrocket_projection_lag_events \d+/);
    expect(text).toMatch(/gridrocket_running_bots 1/);
    expect(text).toMatch(/gridrocket_exchange_errors_total\{exchange="Binance",kind="network"\} 1/);
    expect(text).toMatch(/gridrocket_http_requests_total\{method="POST",route="\/api\/bots",status="201"\} 1/);
    expect(text).toMatch(/gridrocket_process_cpu_seconds_total/);
    // whether events get out (finding 5): delivering, nothing waiting, at most one batch held
    expect(text).toMatch(/^gridrocket_forwarder_delivering 1$/m);
    expect(text).toMatch(/^gridrocket_forwarder_undelivered_seconds 0$/m);
    expect(text).toMatch(/^gridrocket_forwarder_buffered_events 0$/m);
    expect(text).toMatch(/^gridrocket_forwarder_last_delivery_timestamp_seconds \d+(\.\d+)?$/m);
    expect(text).toMatch(/# TYPE gridrocket_forwarder_publish_failures_total counter/);
    expect(text).toMatch(/# TYPE gridrocket_forwarder_producer_resets_total counter/);
  });

  it('reports in /api/health whether the forwarder delivers', async () => {
    const health = (await t.c.get('/api/health')).body;
    expect(health.status).toBe('ok');
    expect(health.forwarder).toMatchObject({ state: 'live', delivering: true, undeliveredSeconds: 0, failedAttempts: 0, buffered: 0, batchSize: 500 });
    expect(Date.now() - Date.parse(health.forwarder.lastDeliveryAt)).toBeLessThan(60_000);
    expect(health.forwarder.secondsSinceLastDelivery).toBeGreaterThanOrEqual(0);
  });

  it('counts refused commands apart', async () => {
    const busy = await t.c.delete(`/api/bots/${botId}`); // running: refused
    expect(busy.status).toBe(409);
    const text = await (await fetch(`${t.app.url}/metrics`)).text();
    expect(text).toMatch(/gridrocket_commands_total\{command="DeleteBotCommand",outcome="rejected"\} 1/);
  });

  it('answers every request with an x-correlation-id', async () => {
    const given = await fetch(`${t.app.url}/api/health`, { headers: { 'x-correlation-id': 'from-the-caller' } });
    expect(given.headers.get('x-correlation-id')).toBe('from-the-caller');
    const made = await fetch(`${t.app.url}/api/health`, { headers: { 'x-correlation-id': 'bad id with spaces' } });
    expect(made.headers.get('x-correlation-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('tails the embedded store live: from the beginning, by type', async () => {
    const lines: string[] = [];
    const tail = await startTail(parseTailArgs(['--from-beginning', '--type', 'BotCreated', '--json']), { DATA_DIR: t.app.dataDir }, (l) => lines.push(l));
    try {
      expect(tail.source).toMatch(/sqlite event store/);
      await until('one tailed line', () => lines.length >= 1);
      expect(JSON.parse(lines[0])).toMatchObject({ type: 'BotCreated', streamId: `bot-${botId}` });
      const second = await t.c.post('/api/bots', { ...spotBot, userId: t.uid });
      await until('two tailed lines', () => lines.length >= 2);
      expect(lines.map((l) => JSON.parse(l).streamId)).toEqual([`bot-${botId}`, `bot-${second.body.id}`]);
      expect(lines.every((l) => JSON.parse(l).type === 'BotCreated')).toBe(true);
    } finally {
      await tail.stop();
    }
  });

  it('tails only what comes next without --from-beginning, and prints readable lines', async () => {
    const lines: string[] = [];
    const tail = await startTail(parseTailArgs([]), { DATA_DIR: t.app.dataDir }, (l) => lines.push(l));
    try {
      await new Promise((r) => setTimeout(r, 100));
      expect(lines).toEqual([]);
      await t.c.get(`/api/stopBot?userId=${t.uid}&id=${botId}`);
      await until('two tailed lines', () => lines.length >= 2);
      expect(lines[0]).toContain(`bot-${botId}@`);
      expect(lines[0]).toContain('BotStopRequested');
      expect(lines[0]).toContain(`user=${t.uid}`);
    } finally {
      await tail.stop();
    }
  });

  it('replays a bot: its events and the folded state, now or at a time', async () => {
    const store = new SqliteEventStore(join(t.app.dataDir, 'events.sqlite'));
    try {
      const out: string[] = [];
      await replay(store, parseReplayArgs([`bot-${botId}`]), (l) => out.push(l));
      expect(out[0]).toMatch(new RegExp(`bot-${botId}: \\d+ of \\d+ events`));
      expect(out.some((l) => l.includes('BotCreated'))).toBe(true);
      expect(out.join('\n')).toContain('"status": ');

      const json: string[] = [];
      await replay(store, parseReplayArgs([botId, '--at', '2000-01-01T00:00:00Z', '--json']), (l) => json.push(l));
      expect(json).toHaveLength(1);
      expect(JSON.parse(json[0]).folded).toMatchObject({ eventsApplied: 0, view: null });

      expect(() => parseReplayArgs([botId, '--at', 'last tuesday'])).toThrow(/ISO-8601/);
      expect(() => parseReplayArgs([])).toThrow(/usage/);
    } finally {
      await store.close();
    }
  });
});

describe('/metrics behind a token', () => {
  it('needs the bearer token when METRICS_TOKEN is set', async () => {
    const app = await startTestApp({ METRICS_TOKEN: 'scrape-me' });
    try {
      const none = await fetch(`${app.url}/metrics`);
      expect(none.status).toBe(401);
      expect(none.headers.get('www-authenticate')).toMatch(/^Bearer /);
      expect((await fetch(`${app.url}/metrics`, { headers: { authorization: 'Bearer wrong-one' } })).status).toBe(401);
      expect((await fetch(`${app.url}/metrics`, { headers: { authorization: 'scrape-me' } })).status).toBe(401); // not a Bearer credential
      expect((await fetch(`${app.url}/metrics`, { headers: { authorization: 'Bearer scrape-me' } })).status).toBe(200);
    } finally {
      await app.close();
    }
  });

  it('is closed by default, with what to set (issue 31: it was public), and open with METRICS_PUBLIC=true', async () => {
    const closed = await startTestApp();
    try {
      const res = await fetch(`${closed.url}/metrics`);
      expect(res.status).toBe(403);
      expect(((await res.json()) as { message: string }).message).toMatch(/METRICS_TOKEN.*METRICS_PUBLIC=true/);
    } finally {
      await closed.close();
    }
    const open = await startTestApp({ METRICS_PUBLIC: 'true' });
    try {
      expect((await fetch(`${open.url}/metrics`)).status).toBe(200);
    } finally {
      await open.close();
    }
  });
});
