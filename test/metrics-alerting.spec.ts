/**
 * Metrics an operator can alert on (issue 31): every series of a known label set is there at 0 from
 * the start, so `increase()` sees the first failure after a restart; the scrape passes Prometheus's own
 * linter (`promtool check metrics`, Debian's prometheus package) and the example alert rules pass
 * `promtool check rules`. Without promtool those two skip, saying why.
 */
import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { loadConfig } from '@gridrocket/shared/runtime';
import { RunningApp, startApp } from '../apps/api/src/bootstrap';
import { until } from '@gridrocket/shared/testing/until';
import { freePort } from './support/free-port';
import { Client, spotBot } from './support/http-client';

const promtool = ['/usr/bin/promtool', '/usr/local/bin/promtool'].find((p) => spawnSync(p, ['--version']).status === 0) ?? null;
const PROMTOOL_MISSING = 'promtool not found (Debian: apt-get install --no-install-recommends prometheus)';
const withPromtool = promtool ? it : it.skip;
if (!promtool) console.warn(`metrics-alerting: the promtool checks skip: ${PROMTOOL_MISSING}`);
const prometheus = ['/usr/bin/prometheus', '/usr/local/bin/prometheus'].find((p) => spawnSync(p, ['--version']).status === 0) ?? null;
const withPrometheus = prometheus ? describe : describe.skip;
if (!prometheus) console.warn('metrics-alerting: the real-Prometheus check skips: prometheus not found (the same Debian package as promtool)');

/** The value of one series in a scrape (null when the series is absent). */
function sample(scrape: string, series: string): number | null {
  const line = scrape.split('\n').find((l) => l.startsWith(series + ' '));
  return line === undefined ? null : Number(line.slice(series.length + 1));
}

/** Σ of gridrocket_commands_total over the series whose outcome is not ok (PromQL's {outcome!="ok"}). */
function notOk(scrape: string): { series: number; sum: number } {
  const lines = scrape.split('\n').filter((l) => l.startsWith('gridrocket_commands_total{') && !l.includes('outcome="ok"'));
  return { series: lines.length, sum: lines.reduce((s, l) => s + Number(l.split(' ').pop()), 0) };
}

describe('metrics an operator can alert on', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'gr-metrics-'));
  const start = (env: Record<string, string> = {}) =>
    startApp(loadConfig({ DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', WEB_DIST: join(dataDir, 'no-web'), METRICS_TOKEN: 'scrape-token', ...env }));
  let app: RunningApp | null = null;
  const scrape = async () => {
    const res = await fetch(`${app!.url}/metrics`, { headers: { authorization: 'Bearer scrape-token' } });
    expect(res.status).toBe(200);
    return res.text();
  };
  let uid = '';
  let botId = '';

  beforeAll(async () => {
    // a first life of the app: a user with a key and a bot
    app = await start();
    const alice = new Client(app.url);
    uid = (await alice.signUp('metrics-alice@example.com')).uid;
    await alice.addKey(uid);
    const bot = await alice.post('/api/bots', { ...spotBot, userId: uid });
    expect(bot.status).toBe(201);
    botId = bot.body.id;
    await app.close();
    app = null;
  });
  afterAll(async () => {
    await app?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('after a restart, the first failed start goes from 0 to 1 in gridrocket_commands_total{outcome!="ok"}', async () => {
    app = await start();
    const before = await scrape();
    // there before any command ran in this process, at 0
    expect(sample(before, 'gridrocket_commands_total{command="StartBotCommand",outcome="rejected"}')).toBe(0);
    expect(sample(before, 'gridrocket_commands_total{command="StartBotCommand",outcome="failed"}')).toBe(0);
    expect(notOk(before).series).toBeGreaterThan(0);
    expect(notOk(before).sum).toBe(0);

    const alice = new Client(app.url);
    const signedIn = await alice.post('/api/auth/login', { email: 'metrics-alice@example.com', password: 'correct-horse-1' });
    expect(signedIn.status).toBe(200);
    const refused = await alice.get(`/api/startBot?userId=${uid}&id=${randomUUID()}`); // no such bot
    expect(refused.status).toBe(404);

    const after = await scrape();
    expect(sample(after, 'gridrocket_commands_total{command="StartBotCommand",outcome="rejected"}')).toBe(1);
    expect(notOk(after).sum).toBe(1);
    // and the bot that exists still starts
    expect((await alice.get(`/api/startBot?userId=${uid}&id=${botId}`)).status).toBe(202);
    expect(sample(await scrape(), 'gridrocket_commands_total{command="StartBotCommand",outcome="ok"}')).toBe(1);
  });

  it('has the mail, alert and watchdog counters at 0 for every known label, counters named _total and gauges not, and the scrape as its own route', async () => {
    const text = await scrape();
    for (const kind of ['verification', 'reset', 'registration-attempt', 'alert', 'other'])
      for (const outcome of ['sent', 'failed']) expect(sample(text, `gridrocket_mail_sent_total{kind="${kind}",outcome="${outcome}"}`)).toBe(0);
    for (const channel of ['email', 'webhook', 'telegram'])
      for (const outcome of ['delivered', 'failed', 'rate-limited', 'refused']) expect(sample(text, `gridrocket_alerts_total{channel="${channel}",outcome="${outcome}"}`)).toBe(0);
    for (const kind of ['missed-fill', 'order-missing', 'unknown-order', 'balance-short', 'position-differs', 'no-resting-order', 'venue-refusals', 'price-outside-ladder'])
      expect(sample(text, `gridrocket_watchdog_findings_total{kind="${kind}"}`)).toBe(0);
    expect(sample(text, 'gridrocket_forwarder_publish_failures_total{error="KafkaJSConnectionError"}')).toBe(0);
    // consumer failures: a counter, one series per consumer of the log
    expect(text).toMatch(/^# TYPE gridrocket_consumer_failures_total counter$/m);
    expect(sample(text, 'gridrocket_consumer_failures_total{consumer="projections",kind="projector"}')).toBe(0);
    expect(text).not.toMatch(/^gridrocket_consumer_failures\{/m);
    // every _total is a counter
    const types = [...text.matchAll(/^# TYPE (\S+) (\S+)$/gm)].map(([, name, type]) => ({ name, type }));
    expect(types.filter((t) => t.name.endsWith('_total') && t.type !== 'counter')).toEqual([]);
    // scrapes are counted as themselves, not as static files
    expect(text).toMatch(/^gridrocket_http_requests_total\{method="GET",route="\/metrics",status="200"\} [1-9]/m);
    expect(text).not.toMatch(/route="static"/);
  });

  it('counts a mail by its kind once sent', async () => {
    const bob = new Client(app!.url);
    await bob.signUp('metrics-bob@example.com'); // a verification mail, sent after the answer (to .eml files here)
    await until('the verification mail counted', async () => sample(await scrape(), 'gridrocket_mail_sent_total{kind="verification",outcome="sent"}') === 1);
    expect(sample(await scrape(), 'gridrocket_mail_sent_total{kind="verification",outcome="failed"}')).toBe(0);
  });

  withPromtool('passes `promtool check metrics` on a real scrape', async () => {
    const run = spawnSync(promtool!, ['check', 'metrics'], { input: await scrape(), encoding: 'utf8', timeout: 30_000 });
    expect({ status: run.status, problems: (run.stdout + run.stderr).trim() }).toEqual({ status: 0, problems: '' });
  });

  withPromtool('the Kafka outage pages within a minute of delivery stopping, a trading pause within a minute of it, and a Kafka outage pauses no trading: `promtool test rules` (issue 41)', () => {
    const run = spawnSync(promtool!, ['test', 'rules', join(__dirname, '../deploy/prometheus/alerts.test.yml')], { encoding: 'utf8', timeout: 30_000 });
    expect({ status: run.status, out: `${run.stdout}${run.stderr}` }).toMatchObject({ status: 0, out: expect.stringContaining('SUCCESS') });
  });

  withPromtool('has example alert rules that pass `promtool check rules`', () => {
    const run = spawnSync(promtool!, ['check', 'rules', join(__dirname, '../deploy/prometheus/alerts.yml')], { encoding: 'utf8', timeout: 30_000 });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/SUCCESS: \d+ rules found/);
  });
});

/**
 * The issue's own check, with the real Prometheus scraping every second across a restart of the app on
 * the same port and data: after the restart, the first failed start shows in
 * `increase(gridrocket_commands_total{outcome!="ok"}[1m])` (it did not when the series first appeared at 1).
 */
withPrometheus('a real Prometheus, across a restart', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gr-prom-'));
  const dataDir = join(dir, 'data');
  let appPort = 0;
  let promPort = 0;
  let app: RunningApp | null = null;
  let server: ChildProcess | null = null;
  let promLog = '';
  const start = () =>
    startApp(loadConfig({ DATA_DIR: dataDir, PORT: String(appPort), HOST: '127.0.0.1', LOG_LEVEL: 'silent', WEB_DIST: join(dir, 'no-web'), METRICS_TOKEN: 'prom-token' }));
  /** One instant vector from Prometheus's HTTP API (GET /api/v1/query). */
  const query = async (promql: string): Promise<{ metric: Record<string, string>; value: [number, string] }[]> => {
    const res = await fetch(`http://127.0.0.1:${promPort}/api/v1/query?query=${encodeURIComponent(promql)}`);
    const body = (await res.json()) as { status: string; data: { result: { metric: Record<string, string>; value: [number, string] }[] } };
    expect(body.status).toBe('success');
    return body.data.result;
  };
  const scalar = async (promql: string) => {
    const r = await query(promql);
    return r.length ? Number(r[0].value[1]) : null;
  };

  beforeAll(async () => {
    appPort = await freePort();
    promPort = await freePort();
    writeFileSync(join(dir, 'token'), 'prom-token');
    writeFileSync(
      join(dir, 'prometheus.yml'),
      [
        'global: { scrape_interval: 1s, evaluation_interval: 1s }',
        'scrape_configs:',
        '  - job_name: gridrocket',
        `    authorization: { type: Bearer, credentials_file: ${join(dir, 'token')} }`,
        `    static_configs: [{ targets: ['127.0.0.1:${appPort}'] }]`,
        '',
      ].join('\n'),
    );
    server = spawn(prometheus!, [`--config.file=${join(dir, 'prometheus.yml')}`, `--storage.tsdb.path=${join(dir, 'tsdb')}`, `--web.listen-address=127.0.0.1:${promPort}`], { stdio: ['ignore', 'ignore', 'pipe'] });
    server.stderr!.on('data', (d: Buffer) => (promLog = (promLog + d.toString()).slice(-4000)));
    await until('Prometheus ready', async () => (await fetch(`http://127.0.0.1:${promPort}/-/ready`).catch(() => null))?.status === 200, 30_000).catch((err) => {
      throw new Error(`${(err as Error).message}\n${promLog}`);
    });
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    if (server && server.exitCode === null) {
      const exited = new Promise((r) => server!.once('exit', r));
      server.kill('SIGTERM');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  });

  it('sees the first failed start after a restart in increase(gridrocket_commands_total{outcome!="ok"}[1m])', async () => {
    // the first life: a user, scraped (up == 1)
    app = await start();
    const alice = new Client(app.url);
    const { uid } = await alice.signUp('prom-alice@example.com');
    await until('a scrape of the first life', async () => (await scalar('max_over_time(up{job="gridrocket"}[1m])')) === 1, 30_000);
    await app.close();
    app = null;
    // the restart, on the same port and data: scraped at least twice before anything fails
    app = await start();
    await until('two scrapes of the second life', async () => ((await scalar('count_over_time(gridrocket_commands_total{command="StartBotCommand",outcome="rejected"}[1m])')) ?? 0) >= 2, 30_000);
    expect(await scalar('sum(increase(gridrocket_commands_total{outcome!="ok"}[1m]))')).toBe(0);

    const again = new Client(app.url);
    expect((await again.post('/api/auth/login', { email: 'prom-alice@example.com', password: 'correct-horse-1' })).status).toBe(200);
    expect((await again.get(`/api/startBot?userId=${uid}&id=${randomUUID()}`)).status).toBe(404);

    const seen = await until('the failure in increase()', async () => {
      const r = await query('increase(gridrocket_commands_total{outcome!="ok"}[1m]) > 0');
      return r.length ? r : undefined;
    }, 30_000);
    expect(seen.map((r) => r.metric)).toEqual([expect.objectContaining({ command: 'StartBotCommand', outcome: 'rejected' })]);
  }, 120_000);
});
