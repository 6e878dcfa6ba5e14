/**
 * Issue 41: a runner process has its own /health and /metrics, and nothing says it trades while it cannot.
 * The real runner (dist/apps/runner/src/main.js) runs beside the API (EMBEDDED_RUNNER=false) on one data
 * folder, in live mode against the Binance spot stand-in, with a lease of 2 s. Checked over HTTP, as an
 * operator would:
 *  - the runner's port is on 127.0.0.1, a free one when RUNNER_PORT=0; a second runner on the same port
 *    refuses to start, saying so; /health says it trades (its partitions, epochs, lease age, bots running and
 *    paused by reason), /metrics counts the same; the API's /api/health shows the runner and its bots;
 *  - the event store away for the runner (the test holds SQLite's write lock: its renewals cannot be
 *    written): the runner lets its bot go, /health says `degraded`, trading false, the bot paused for
 *    `ownership`; /metrics has gridrocket_running_bots 0, gridrocket_paused_bots{reason="ownership"} 1,
 *    gridrocket_runner_trading 0; the API's health says the runners do not trade. Once the lock is gone, it
 *    trades again, under a new epoch. The samples are printed: the trading-pause rule's promtool case
 *    (deploy/prometheus/alerts.test.yml) follows their timeline;
 *  - stopped cleanly, the runner releases its partitions: the API's health says the bot has no runner.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { CsvReplayFeed, PaperVenue, STANDIN_SYMBOLS } from '@gridrocket/exchanges';
import { startVenueStandIn, type VenueStandIn } from '@gridrocket/exchanges/testing/standin/venue-standin';
import { until } from '@gridrocket/shared/testing/until';
import { Client } from './support/http-client';
import { startTestApp } from './support/test-app';
import { SERVER_NODE_FLAGS } from './support/server-process';

jest.setTimeout(180_000);

const ROOT = join(__dirname, '..');
const MAIN = join(ROOT, 'dist', 'apps', 'runner', 'src', 'main.js');
const T = Date.now();
const CSV = ['ms,exchange,symbol,price', `${T - 5000},Binance,BTCUSDT,61000`, `${T + 1000},Binance,BTCUSDT,61100`].join('\n');
const KEY = { userId: 'venue-trader', apiKey: 'test-binance-key', secret: 'test-secret-0123456789' };
const LEASE_MS = 2_000;

const gauge = (text: string, name: string, labels = ''): number | null => {
  const m = new RegExp(`^${name}${labels ? `\\{${labels}\\}` : '(?:\\{[^}]*\\})?'} (\\S+)$`, 'm').exec(text);
  return m ? Number(m[1]) : null;
};

interface Runner {
  proc: ChildProcess;
  out: () => string;
  /** The exit code, or the signal it ended by (a Nest app ends a SIGTERM by raising it again once it has closed). */
  exited: Promise<number | string | null>;
}

function spawnRunner(env: Record<string, string>): Runner {
  const proc = spawn(process.execPath, [...SERVER_NODE_FLAGS, MAIN], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  proc.stdout!.on('data', (d) => (out += d));
  proc.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<number | string | null>((r) => proc.once('exit', (code, signal) => r(code ?? signal)));
  return { proc, out: () => out, exited };
}

describe('a runner process says on its own port whether it trades (issue 41)', () => {
  let dir: string;
  let venue: PaperVenue;
  let standIn: VenueStandIn;
  let app: Awaited<ReturnType<typeof startTestApp>>;
  let runner: Runner | null = null;
  let lock: Database.Database | null = null;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'gr-runner-ops-'));
    venue = new PaperVenue({ store: join(dir, 'venue.sqlite'), feed: new CsvReplayFeed(CSV, STANDIN_SYMBOLS), symbols: STANDIN_SYMBOLS, clock: Date.now });
    venue.advanceTo(T - 5000);
    standIn = await startVenueStandIn(venue, 'Binance', 'spot', [KEY]);
    app = await startTestApp({ EXCHANGE_MODE: 'live', EXCHANGE_API_ORIGIN: standIn.origin, EMBEDDED_RUNNER: 'false', METRICS_PUBLIC: 'true' });
  });

  afterAll(async () => {
    if (lock?.inTransaction) lock.exec('ROLLBACK');
    lock?.close();
    if (runner && runner.proc.exitCode === null) {
      runner.proc.kill('SIGKILL');
      await runner.exited;
    }
    await app?.close();
    await standIn?.close();
    venue?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves /health and /metrics on 127.0.0.1, pauses honestly while the event store is away, and the API shows it', async () => {
    const c = new Client(app.url);
    const { uid } = await c.signUp('runner-ops@example.com');
    await c.addKey(uid, 'Binance');
    const created = await c.post('/api/bots', { userId: uid, exchange: 'Binance', botType: 'Spot', symbol: 'BTCUSDT', numOfOrders: 2, orderSize: '0.001', interval: 500, entryPrice: 60000, takeProfit: 1, status: false, pid: -1 });
    expect(created.status).toBe(201);
    const botId = created.body.id as string;
    expect((await c.get(`/api/startBot?id=${botId}&userId=${uid}`)).status).toBe(202);

    const env = {
      DATA_DIR: app.dataDir,
      EXCHANGE_MODE: 'live',
      EXCHANGE_API_ORIGIN: standIn.origin,
      KAFKA_BROKERS: '',
      RUNNER_PORT: '0',
      RUNNER_NAME: 'ops-runner',
      RUNNER_LEASE_MS: String(LEASE_MS),
      RUNNER_RENEW_MS: '500',
      METRICS_PUBLIC: 'true',
      LOG_LEVEL: 'warn',
    };
    runner = spawnRunner(env);
    const url = await until('the runner says where its health and metrics are', () => / health and metrics on (http:\/\/\S+)/.exec(runner!.out())?.[1] ?? (runner!.proc.exitCode !== null ? Promise.reject(new Error(runner!.out())) : null), 60_000, 100);
    expect(new URL(url).hostname).toBe('127.0.0.1');
    const health = async () => (await (await fetch(`${url}/health`)).json()) as any;
    const metrics = async () => (await fetch(`${url}/metrics`)).text();
    const apiHealth = async () => (await (await fetch(`${app.url}/api/health`)).json()) as any;
    const apiMetrics = async () => (await fetch(`${app.url}/metrics`)).text();

    // trading: its ladder on the stand-in, and every view says so
    await until('the bot placed its ladder', async () => ((await c.get(`/api/bots/${botId}/history`)).body as Array<{ type: string }>).filter((e) => e.type === 'OrderPlaced').length >= 2, 60_000, 250);
    await until('the runner reports the bot running', async () => (await health()).bots.running === 1, 30_000, 100);
    const h = await health();
    expect(h).toMatchObject({ status: 'ok', trading: true, runner: 'ops-runner', ownership: { kind: 'leases', partitions: 24, lapsed: [], lease: { ms: LEASE_MS } }, bots: { running: 1, paused: { ownership: 0, 'venue-rate-limit': 0, 'venue-errors': 0 } } });
    expect(h.ownership.owned).toHaveLength(24);
    expect(h.ownership.lease.ageMs).toBeLessThan(LEASE_MS);
    const m = await metrics();
    expect([gauge(m, 'gridrocket_running_bots'), gauge(m, 'gridrocket_paused_bots', 'reason="ownership"'), gauge(m, 'gridrocket_runner_trading'), gauge(m, 'gridrocket_runner_owned_partitions')]).toEqual([1, 0, 1, 24]);
    expect(gauge(m, 'gridrocket_runner_lease_age_seconds')).toBeLessThan(LEASE_MS / 1000);
    expect((await fetch(`${url}/anything`)).status).toBe(404);
    await until('the API shows the runner trading its bot', async () => (await apiHealth()).runners?.runningBots === 1, 30_000, 250);
    const ah = await apiHealth();
    expect(ah).toMatchObject({ status: 'ok', runners: { ownership: 'leases', trading: true, runningBots: 1, unowned: [], pausedBots: { ownership: 0 } } });
    expect(ah.runners.members).toEqual([expect.objectContaining({ name: 'ops-runner', alive: true, running: 1 })]);
    expect(ah.runners.members[0].partitions).toHaveLength(24);
    const am = await apiMetrics();
    expect([gauge(am, 'gridrocket_running_bots'), gauge(am, 'gridrocket_runners_alive'), gauge(am, 'gridrocket_partitions_unowned'), gauge(am, 'gridrocket_paused_bots', 'reason="ownership"')]).toEqual([1, 1, 0, 0]);

    // a second runner on the same port: refused before it joins the group, saying what to do
    const port = new URL(url).port;
    const second = spawnRunner({ ...env, RUNNER_PORT: port, RUNNER_NAME: 'second' });
    expect(await second.exited).toBe(1);
    expect(second.out()).toContain(`GridRocket runner not started: 127.0.0.1:${port} is in use: give each runner on this host its own RUNNER_PORT (0: any free port)`);

    // the event store away for the runner: its renewals cannot be written
    const epochBefore = h.ownership.epochs[Object.keys(h.ownership.epochs)[0]];
    lock = new Database(join(app.dataDir, 'events.sqlite'));
    lock.pragma('busy_timeout = 5000');
    lock.exec('BEGIN IMMEDIATE');
    const lockedAt = Date.now();
    const samples: { t: number; status: string; trading: boolean; running: number | null; paused: number | null; tradingGauge: number | null; leaseAge: number | null; api: { status: string; trading: boolean; paused: number } }[] = [];
    const sample = async () => {
      const [rh, rm, a] = await Promise.all([health(), metrics(), apiHealth()]);
      const s = {
        t: Date.now() - lockedAt,
        status: rh.status,
        trading: rh.trading,
        running: gauge(rm, 'gridrocket_running_bots'),
        paused: gauge(rm, 'gridrocket_paused_bots', 'reason="ownership"'),
        tradingGauge: gauge(rm, 'gridrocket_runner_trading'),
        leaseAge: gauge(rm, 'gridrocket_runner_lease_age_seconds'),
        api: { status: a.status, trading: a.runners?.trading, paused: a.runners?.pausedBots?.ownership },
      };
      samples.push(s);
      return s;
    };
    await until('the runner and the API say the bot is paused for ownership', async () => {
      const s = await sample();
      return !s.trading && s.paused === 1 && s.api.trading === false && s.api.paused === 1;
    }, 30_000, 500);
    const paused = samples[samples.length - 1];
    expect(paused).toMatchObject({ status: 'degraded', trading: false, running: 0, paused: 1, tradingGauge: 0, api: { status: 'degraded', trading: false, paused: 1 } });
    expect(paused.leaseAge!).toBeGreaterThan(LEASE_MS / 1000);
    lock.exec('ROLLBACK');
    lock.close();
    lock = null;
    const unlockedAt = Date.now() - lockedAt;
    await until('trading again', async () => {
      const s = await sample();
      return s.trading && s.running === 1 && s.paused === 0 && s.api.trading === true;
    }, 30_000, 500);
    const back = await health();
    expect(back.status).toBe('ok');
    expect(BigInt(back.ownership.epochs[Object.keys(back.ownership.epochs)[0]])).toBeGreaterThan(BigInt(epochBefore)); // claimed again: a new epoch
    const firstPaused = samples.find((s) => !s.trading)!;
    console.log(
      `runner ops: store locked at 0 s, unlocked at ${(unlockedAt / 1000).toFixed(1)} s; the runner said paused from ${(firstPaused.t / 1000).toFixed(1)} s, trading again by ${(samples[samples.length - 1].t / 1000).toFixed(1)} s (lease ${LEASE_MS} ms)\n` +
        `  samples (t s: runner status, running, paused for ownership, trading gauge, lease age s | API trading): ${samples.map((s) => `${(s.t / 1000).toFixed(1)}: ${s.status} ${s.running} ${s.paused} ${s.tradingGauge} ${s.leaseAge} | ${s.api.trading}`).join('; ')}`,
    );

    // stopped cleanly: its partitions released, nobody runs the bot, and the API says so
    runner.proc.kill('SIGTERM');
    expect([0, 'SIGTERM']).toContain(await runner.exited);
    expect(runner.out()).not.toMatch(/"level":"(error|fatal)"/);
    await until('the API says the bot has no runner', async () => {
      const a = await apiHealth();
      return a.runners && a.runners.trading === false && a.runners.pausedBots.ownership === 1 && a.runners.unowned.length === 24 && a.runners.members.length === 0 ? a : null;
    }, 30_000, 250);
    expect((await apiHealth()).status).toBe('degraded');
  });
});
