/**
 * Issue 39: a venue's rate-limit pause reaches the trader and the operator. The API app in live mode (its
 * health and /metrics read the install's venue figures in the limits file) with a runner beside it on its
 * stores, trading on the Binance spot stand-in through a provider that shares that file. The venue answers
 * 429: the bot records the pause, its trader's webhook gets the alert ("Paused by the venue's rate limit",
 * signed), health and /metrics show the pause and the used share; when it ends the bot resumes by itself.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { until } from '@gridrocket/shared/testing/until';
import type { EventStore } from '@gridrocket/event-store';
import { SqliteVenueFigureStore } from '@gridrocket/read-store';
import type { BotConfig } from '@gridrocket/bots';
import { CcxtExchangeProvider, CsvReplayFeed, PaperVenue, sharedBudgets } from '@gridrocket/exchanges';
import { STUB_KEY } from '@gridrocket/exchanges/testing/ccxt.fixtures';
import { startVenueStandIn, type VenueStandIn } from '@gridrocket/exchanges/testing/standin/venue-standin';
import type { GridRunner } from '@gridrocket/trading';
import { WebhookReceiver } from './support/alert-stand-ins';
import { createAndStartSpotBot, eventsOf, startRunnerBeside } from './support/runner-beside-app';
import { Client } from './support/http-client';
import { startTestApp } from './support/test-app';
import { closeAll } from './support/close-all';

jest.setTimeout(90_000);

const WEBHOOK_SECRET = 'whsec-ratelimit-0123456789-abcdXYZ9';
const T = Date.now();
const CSV = ['ms,exchange,symbol,price', `${T - 5000},Binance,BTCUSDT,61000`].join('\n');
const bot: BotConfig = { exchange: 'Binance', symbol: 'BTCUSDT', numOfOrders: 3, orderSize: 0.01, interval: 500, entryPrice: 60000, takeProfit: 1, leverage: 1 };
const WINDOW_MS = 10_000;

describe("a venue's rate-limit pause, told to the trader and the operator", () => {
  let app: Awaited<ReturnType<typeof startTestApp>>;
  let webhook: WebhookReceiver;
  let standIn: VenueStandIn;
  let venue: PaperVenue;
  let figures: SqliteVenueFigureStore;
  let provider: CcxtExchangeProvider;
  let runner: GridRunner;
  let events: EventStore;
  let uid: string;
  let alice: Client;
  const dir = mkdtempSync(join(tmpdir(), 'gr-rl-alert-'));

  beforeAll(async () => {
    webhook = await new WebhookReceiver(WEBHOOK_SECRET).start();
    venue = new PaperVenue({ store: join(dir, 'paper.sqlite'), feed: new CsvReplayFeed(CSV) });
    venue.advanceTo(T - 5000);
    // the venue's account of the key (the app's user id is known only once it runs)
    standIn = await startVenueStandIn(venue, 'Binance', 'spot', [{ ...STUB_KEY, userId: 'trader' }], { limits: { minuteMs: WINDOW_MS } });
    app = await startTestApp({ EMBEDDED_RUNNER: 'false', EXCHANGE_MODE: 'live', EXCHANGE_API_ORIGIN: standIn.origin, ALERTS_ALLOW_PRIVATE_URLS: 'true', ALERTS_RETRY_BASE_MS: '50', METRICS_PUBLIC: 'true' });
    alice = new Client(app.url);
    uid = (await alice.signUp('paused@example.com')).uid;
    events = eventsOf(app);
    figures = new SqliteVenueFigureStore(join(app.dataDir, 'limits.sqlite'));
    provider = new CcxtExchangeProvider({
      mode: 'live',
      apiOrigin: () => standIn.origin,
      resolveCredential: async (userId) => (userId === uid ? STUB_KEY : null),
      retry: { attempts: 2, baseDelayMs: 10, maxDelayMs: 50 },
      timeoutMs: 5000,
      enableRateLimit: false,
      budgetStore: sharedBudgets(figures),
      budgetSyncMs: 100,
      venueLimits: { binance: { limit: 6000, windowMs: WINDOW_MS } },
    });
    runner = await startRunnerBeside(app, provider, { pollMs: 300, retryBaseMs: 50, retryMaxMs: 200, watchdogMs: 200 });
  }, 60_000);

  afterAll(async () => {
    await closeAll(runner, provider, figures, app, standIn, webhook, venue, dir);
  });

  const types = async (botId: string) => (await events.readStream(`bot-${botId}`)).map((e) => e.type);

  it('alerts the trader, shows the operator, and resumes by itself', async () => {
    const saved = await alice.put(`/api/alerts/${uid}`, { kinds: ['notTrading'], email: { enabled: false }, webhook: { enabled: true, url: `${webhook.url}/hooks/gridrocket`, secret: WEBHOOK_SECRET } });
    expect(saved.status).toBe(200);
    const botId = randomUUID();
    await createAndStartSpotBot(events, uid, botId, bot);
    await until('started', async () => (await types(botId)).includes('BotStarted'), 20_000);

    // the operator sees the venue's use in the install's figure
    const used = await until('the venue on health', async () => ((await alice.get('/api/health')).body.venues as any[]).find((v) => v.venue === 'binance' && v.used > 0), 10_000);
    expect(used).toMatchObject({ share: 0.5, limit: 6000, pausedUntil: null });

    // the venue's limit drops below what was spent this window: the next call is refused with 429
    standIn.rate!.limits.weightPerMinute = 1;
    await until('the pause recorded', async () => (await types(botId)).includes('VenueRateLimited'), 10_000);
    standIn.rate!.limits.weightPerMinute = 6000;
    const paused = (await events.readStream(`bot-${botId}`)).find((e) => e.type === 'VenueRateLimited')!.data as { status: number; until: number };
    expect(paused.status).toBe(429);

    const health = ((await alice.get('/api/health')).body.venues as any[]).find((v) => v.venue === 'binance');
    expect(health).toMatchObject({ pausedUntil: paused.until, pauseStatus: 429 });
    const metrics = await (await fetch(`${app.url}/metrics`)).text();
    expect(metrics).toMatch(/gridrocket_venue_paused\{venue="binance"\} 1/);
    expect(metrics).toMatch(/gridrocket_venue_budget_allowed_ratio\{venue="binance"\} 0.5/);

    // the trader's webhook: signed, in words, with when it resumes
    const hook = await until('the alert delivered', () => webhook.accepted.find((c) => JSON.parse(c.raw).event === 'VenueRateLimited'), 20_000);
    expect(hook.verified).toBe(true);
    const body = JSON.parse(hook.raw);
    expect(body).toMatchObject({ kind: 'notTrading', bot: { id: botId, symbol: 'BTCUSDT', exchange: 'Binance' } });
    expect(body.text).toContain("is paused by the venue's rate limit: Binance refused the server's requests for too much weight (429). It resumes by itself at");

    // it resumes by itself when the Retry-After ends
    await until('the pause over', async () => (await types(botId)).includes('VenueRateLimitLifted'), 20_000);
    expect(((await alice.get('/api/health')).body.venues as any[]).find((v) => v.venue === 'binance').pausedUntil).toBeNull();
  });
});
