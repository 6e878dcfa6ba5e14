/**
 * Issue 29, first "Done when", the whole chain: watchdog → drift event in the bot's stream → repair or
 * flag → an alert delivered to the webhook stand-in (signature verified) and the Telegram stand-in.
 *
 * The topology is the scaled-out one (docs/deployment): the API app (EMBEDDED_RUNNER=false) hosts the
 * projections and the alert dispatcher; a runner beside it, on the same stores, runs the bot on the paper
 * exchange or on the ccxt adapter against the Binance spot venue stand-in, its venue messages about the
 * hidden orders lost (test/support/deaf-provider.ts). The trader saves alert settings through the API.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { until } from '@gridrocket/shared/testing/until';
import type { EventStore } from '@gridrocket/event-store';
import type { BotConfig, DriftEventData } from '@gridrocket/bots';
import { CcxtExchange, CsvReplayFeed, PaperExchangeProvider, PaperVenue, type ExchangeProvider } from '@gridrocket/exchanges';
import { STUB_KEY } from '@gridrocket/exchanges/testing/ccxt.fixtures';
import { startVenueStandIn, type VenueStandIn } from '@gridrocket/exchanges/testing/standin/venue-standin';
import { MetricsService } from '@gridrocket/streaming';
import type { GridRunner } from '@gridrocket/trading';
import { TelegramStandIn, WebhookReceiver, type TelegramCall, type WebhookCall } from './support/alert-stand-ins';
import { deafTo } from './support/deaf-provider';
import { createAndStartSpotBot, eventsOf, startRunnerBeside } from './support/runner-beside-app';
import { Client } from './support/http-client';
import { startTestApp } from './support/test-app';
import { closeAll } from './support/close-all';

jest.setTimeout(90_000);

const WEBHOOK_SECRET = 'whsec-drift-0123456789-abcdXYZ9';
const BOT_TOKEN = '123456789:AAE-secretPartOfTheToken_abcdefghijKLMN';
const CHAT = '987654321';
const WATCHDOG_MS = 150;

const T = Date.now();
// T-5s: above the ladder; T+1s: the 60000 buy fills (not the 59500 one)
const CSV = ['ms,exchange,symbol,price', `${T - 5000},Binance,BTCUSDT,61000`, `${T + 1000},Binance,BTCUSDT,59900`].join('\n');
const bot: BotConfig = { exchange: 'Binance', symbol: 'BTCUSDT', numOfOrders: 3, orderSize: 0.01, interval: 500, entryPrice: 60000, takeProfit: 1, leverage: 1 };

const VENUES = ['paper', 'ccxt Binance spot stand-in'] as const;

describe.each(VENUES)('the watchdog alerts the trader on %s', (venueName) => {
  let app: Awaited<ReturnType<typeof startTestApp>>;
  let telegram: TelegramStandIn;
  let webhook: WebhookReceiver;
  let standIn: VenueStandIn | null = null;
  let venue: PaperVenue;
  let paper: PaperExchangeProvider;
  let runner: GridRunner;
  let events: EventStore;
  let uid: string;
  let alice: Client;
  const dir = mkdtempSync(join(tmpdir(), 'gr-wd-alerts-'));
  /** The watchdog's clock runs this far ahead (GridRunnerOptions.now): hours pass without waiting for them. */
  let skewMs = 0;
  const hidden = new Set<string>();

  beforeAll(async () => {
    telegram = await new TelegramStandIn(BOT_TOKEN, [CHAT]).start();
    webhook = await new WebhookReceiver(WEBHOOK_SECRET).start();
    app = await startTestApp({ EMBEDDED_RUNNER: 'false', ALERTS_ALLOW_PRIVATE_URLS: 'true', ALERTS_TELEGRAM_API: telegram.url, ALERTS_RETRY_BASE_MS: '50' });
    alice = new Client(app.url);
    uid = (await alice.signUp(`drift-${venueName.split(' ')[0]}@example.com`)).uid;
    events = eventsOf(app);

    venue = new PaperVenue({ store: join(dir, 'paper.sqlite'), feed: new CsvReplayFeed(CSV) });
    venue.advanceTo(T - 5000);
    paper = new PaperExchangeProvider(venue);
    let provider: ExchangeProvider;
    if (venueName === 'paper') {
      provider = deafTo(hidden, (ref) => paper.for(ref), 'paper');
    } else {
      standIn = await startVenueStandIn(venue, 'Binance', 'spot', [{ ...STUB_KEY, userId: uid }]);
      const origin = standIn.origin;
      provider = deafTo(
        hidden,
        async (ref) => new CcxtExchange({ exchange: ref.exchange, market: ref.market, mode: 'live', credential: STUB_KEY, apiOrigin: origin, timeoutMs: 5000, retry: { attempts: 2, baseDelayMs: 5 } }),
        'live',
      );
    }
    // the runner beside the API, on its stores; the fill poller (ccxt) polls once an hour: only the watchdog finds what the bot missed
    runner = await startRunnerBeside(app, provider, {
      pollMs: 3_600_000,
      retryBaseMs: 10,
      retryMaxMs: 50,
      watchdogMs: WATCHDOG_MS,
      metrics: app.app.get(MetricsService),
      now: () => Date.now() + skewMs,
    });
  }, 60_000);

  afterAll(async () => {
    await closeAll(runner, app, standIn, telegram, webhook, dir);
  });

  const history = () => (botId: string) => events.readStream(`bot-${botId}`);
  const drifts = async (botId: string): Promise<DriftEventData[]> => (await history()(botId)).filter((e) => e.type === 'BotDriftDetected').map((e) => e.data as DriftEventData);
  const types = async (botId: string) => (await history()(botId)).map((e) => e.type);
  const venueOpen = async () => (await (await paper.for({ userId: uid, exchange: 'Binance', market: 'spot' })).openOrders('BTCUSDT')).map((o) => `${o.side} ${o.price} ${o.clientOrderId}`).sort();
  const hookOf = (pred: (body: any) => boolean) => () => webhook.accepted.find((c) => pred(JSON.parse(c.raw)));
  const tgOf = (pred: (text: string) => boolean) => () => telegram.delivered.find((c) => pred(c.body.text));
  /** Created and started as the API's commands do (the bot decider through the command runner). */
  const startBot = (botId: string, config: BotConfig) => createAndStartSpotBot(events, uid, botId, config);

  it('a fill missed and a buy cancelled behind the bot\'s back: drift events, the fill applied, the buy placed again, and one alert per channel for each', async () => {
    // the trader turns drift alerts on, with a webhook and Telegram, in the dashboard (its API)
    const saved = await alice.put(`/api/alerts/${uid}`, {
      kinds: ['drift', 'botFailed'],
      email: { enabled: false },
      webhook: { enabled: true, url: `${webhook.url}/hooks/gridrocket`, secret: WEBHOOK_SECRET },
      telegram: { enabled: true, chatId: CHAT, botToken: BOT_TOKEN },
    });
    expect(saved.status).toBe(200);

    const botId = randomUUID();
    await startBot(botId, bot);
    await until('started', async () => (await types(botId)).includes('BotStarted'), 20_000);
    await until('three buys rest', async () => (await venueOpen()).length === 3, 20_000);
    const [lowest, , top] = (await venueOpen()).map((o) => o.split(' ')[2]); // sorted: buy 59000, 59500, 60000

    // behind the bot's back: its top buy fills and the venue's word of it is lost
    hidden.add(top);
    venue.advanceTo(T + 1000);
    // not runner.idle(): with a check every 150 ms it can wait out up to 100 checks on a loaded machine (test/watchdog.spec.ts)
    await until('the top buy filled on the venue', async () => (await (await paper.for({ userId: uid, exchange: 'Binance', market: 'spot' })).orderByClientId('BTCUSDT', top))?.status === 'filled', 20_000);
    await new Promise((r) => setTimeout(r, WATCHDOG_MS * 4));
    expect((await types(botId)).includes('OrderFilled')).toBe(false); // the bot missed it
    hidden.delete(top); // the venue's trade history has it now

    const missed = await until('a missed-fill drift', async () => (await drifts(botId)).find((d) => d.kind === 'missed-fill'), 20_000);
    expect(missed).toMatchObject({ action: 'repaired', actual: 'buy 0.01 at 60000 filled' });
    await until('the fill applied and its take-profit placed', async () => (await types(botId)).includes('TakeProfitPlaced') && (await venueOpen()).some((o) => o.startsWith('sell 60600')), 20_000);

    // the alert of the repaired fill reaches both channels
    const isMissed = (text: string) => text.includes('a fill the bot had missed');
    const hook1 = await until('the webhook alert of the missed fill', hookOf((b) => b.kind === 'drift' && isMissed(b.text)), 20_000);
    const tg1 = await until('the Telegram alert of the missed fill', tgOf(isMissed), 20_000);

    // behind the bot's back: the trader cancels its lowest buy on the exchange, and the bot is not told
    hidden.add(lowest);
    await (await paper.for({ userId: uid, exchange: 'Binance', market: 'spot' })).cancelOrder('BTCUSDT', lowest);
    const cancelled = await until('an order-missing drift', async () => (await drifts(botId)).find((d) => d.kind === 'order-missing'), 20_000);
    expect(cancelled).toMatchObject({ subject: lowest, action: 'repaired', replacedBy: `${lowest}r1`, expected: 'buy 0.01 at 59000', actual: 'cancelled on the exchange outside GridRocket' });
    // repaired, per the rule: the same buy rests again under a new id, and the bot runs on
    await until('the replacement resting', async () => (await venueOpen()).some((o) => o === `buy 59000 ${lowest}r1`), 20_000);

    const isCancelled = (text: string) => text.includes('an order missing on the exchange');
    const hook2 = await until('the webhook alert of the cancelled buy', hookOf((b) => b.kind === 'drift' && isCancelled(b.text)), 20_000);
    const tg2 = await until('the Telegram alert of the cancelled buy', tgOf(isCancelled), 20_000);

    // each webhook call is signed with the user's secret and verified by the receiver
    for (const h of [hook1, hook2] as WebhookCall[]) {
      expect(h.verified).toBe(true);
      expect(JSON.parse(h.raw)).toMatchObject({ kind: 'drift', event: 'BotDriftDetected', bot: { id: botId, symbol: 'BTCUSDT', exchange: 'Binance' } });
    }
    // what the trader reads: what differed, the numbers, what was done; never an order id or a secret
    expect(tg1.body.text).toContain('the exchange has buy 0.01 at 60000 filled');
    // the webhook's JSON carries the same words
    expect(tg1.body.text).toContain(JSON.parse(hook1.raw).text);
    expect(tg2.body.text).toContain(JSON.parse(hook2.raw).text);
    expect(tg1.body.text).toContain('It was repaired.');
    expect(tg2.body.text).toContain('expected buy 0.01 at 59000');
    expect(tg2.body.text).toContain('cancelled on the exchange outside GridRocket');
    expect(tg2.body.text).toContain('It was placed again.');
    for (const text of [hook1.raw, hook2.raw, ...([tg1, tg2] as TelegramCall[]).map((c) => c.body.text)]) {
      expect(text).not.toContain(lowest);
      expect(text).not.toContain(top);
      expect(text).not.toContain(WEBHOOK_SECRET);
      expect(text).not.toContain('secretPartOfTheToken');
    }
    // one alert per channel and difference, however many checks saw it
    const driftHooks = webhook.accepted.filter((c) => JSON.parse(c.raw).kind === 'drift');
    expect(driftHooks).toHaveLength(2);
    expect(telegram.delivered.filter((c) => isMissed(c.body.text) || isCancelled(c.body.text))).toHaveLength(2);
    // and the trader sees them in the delivery log
    const log = await until('the deliveries in the log', async () => {
      const res = await alice.get(`/api/alerts/${uid}/deliveries`);
      const drift = res.body.filter((d: any) => d.kind === 'drift');
      return drift.length >= 4 ? drift : undefined;
    }, 20_000);
    expect(log.every((d: any) => d.status === 'delivered')).toBe(true);
    // and the operator counts them (issue 31): the findings by kind, the deliveries by channel and outcome
    const scrape = await app.app.get(MetricsService).metrics();
    const value = (series: string) => Number(new RegExp(`^${series.replace(/[{}]/g, '\\$&')} (\\d+)$`, 'm').exec(scrape)?.[1]);
    expect(value('gridrocket_watchdog_findings_total{kind="missed-fill"}')).toBeGreaterThanOrEqual(1);
    expect(value('gridrocket_watchdog_findings_total{kind="order-missing"}')).toBeGreaterThanOrEqual(1);
    expect(value('gridrocket_watchdog_findings_total{kind="unknown-order"}')).toBe(0);
    expect(value('gridrocket_alerts_total{channel="webhook",outcome="delivered"}')).toBe(2);
    expect(value('gridrocket_alerts_total{channel="telegram",outcome="delivered"}')).toBe(2);
    expect(value('gridrocket_alerts_total{channel="webhook",outcome="failed"}')).toBe(0);
  });

  it('a bot whose ladder sits below the price for 6 h, with nothing held and no follow, is reported as not trading, on both channels', async () => {
    const saved = await alice.put(`/api/alerts/${uid}`, { kinds: ['drift', 'botFailed', 'notTrading'], webhook: { enabled: true, url: `${webhook.url}/hooks/gridrocket` }, telegram: { enabled: true, chatId: CHAT } });
    expect(saved.status).toBe(200);
    // the price is 59,900 now: a ladder whose top buy is 59,000 waits below it
    const botId = randomUUID();
    await startBot(botId, { ...bot, entryPrice: 59000 });
    await until('its three buys placed', async () => (await types(botId)).filter((t) => t === 'OrderPlaced').length === 3, 20_000);
    await runner.checkNow(botId); // the watchdog notes since when the price is above the ladder
    expect((await types(botId)).includes('BotNotTrading')).toBe(false);
    skewMs = 7 * 3600_000; // seven hours later, on the watchdog's clock
    const event = await until('the not-trading event', async () => (await history()(botId)).find((e) => e.type === 'BotNotTrading'), 20_000);
    expect(event.data).toMatchObject({ reason: 'price-outside-ladder' });

    const isIdle = (text: string) => text.includes('running but not trading');
    const hook = await until('the webhook alert', hookOf((b) => b.kind === 'notTrading' && b.bot?.id === botId), 20_000);
    expect(hook.verified).toBe(true);
    const tg = await until('the Telegram alert', tgOf(isIdle), 20_000);
    expect(tg.body.text).toContain('above the ladder (top buy 59000)');
    for (const text of [hook.raw, tg.body.text]) {
      expect(text).not.toMatch(/gr-[0-9a-z]{8}-/);
      expect(text).not.toContain(WEBHOOK_SECRET);
      expect(text).not.toContain('secretPartOfTheToken');
    }
    // once per run, however many checks see it
    await runner.checkNow(botId);
    expect((await types(botId)).filter((t) => t === 'BotNotTrading')).toHaveLength(1);
    expect(telegram.delivered.filter((c) => isIdle(c.body.text))).toHaveLength(1);
  });
});
