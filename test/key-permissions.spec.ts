/**
 * Issue 30, "Keys that cannot withdraw": when a key is added, GridRocket asks the venue what the key may do
 * (Binance GET /sapi/v1/account/apiRestrictions, KuCoin GET /api/v1/user/api-key; docs/exchanges.md) and
 * - refuses a key that can withdraw (400 on apiKey, saying how to make a trading-only key on that venue),
 * - refuses a key that cannot trade (neither spot nor futures), and starts no bot whose market the key
 *   cannot trade,
 * - accepts a key without an IP restriction, with a warning in the key list naming the address to allow,
 * - asks again daily: a key that became withdraw-capable shows a warning and starts no new bot.
 * Against the paper exchange and each venue stand-in (Binance spot and USDⓈ-M futures, KuCoin spot and
 * futures; libs/exchanges/src/testing/standin), which answer those endpoints as the venues document them.
 */
import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteEventStore } from '@gridrocket/event-store';
import { EXCHANGE_PROVIDER } from '@gridrocket/credentials';
import { KeyPermissionChecks } from '@gridrocket/credentials/nest';
import { PaperVenue, type KeyPermissions, type MarketType, type PaperExchangeProvider } from '@gridrocket/exchanges';
import { Client, spotBot } from './support/http-client';
import { startTestApp } from './support/test-app';
import { useStandInApp } from './support/live-stand-in-app';

jest.setTimeout(60_000);

type Exchange = 'Binance' | 'Kucoin';
type Venue = { setKey(apiKey: string, p: Partial<KeyPermissions>): void };
type KeyView = { id: string; exchange: string; apikeyid: string; warnings?: Array<{ code: string; message: string }> };

const EGRESS = '203.0.113.7';
let n = 0;
const keyOf = (exchange: Exchange) => {
  n++;
  return { exchange, apiKey: `perm-key-${exchange.toLowerCase()}-${n}`, keySecret: `perm-secret-${n}-0123456789`, passPhrase: exchange === 'Kucoin' ? 'perm-pass' : '' };
};

/** The checks every venue must pass: add refused / accepted with a warning / refused without trading. */
function keyChecks(exchange: Exchange, venueName: string, setup: () => { app: { url: string }; venue: Venue }) {
  const howTo = exchange === 'Binance' ? /On Binance, open Account → API Management.*leave "Enable Withdrawals" unticked\./ : /On KuCoin, open Account → API Management.*leave Withdrawal \(Transfer\) unticked\./;

  it(`a key ${venueName} reports withdraw-capable is refused with how to make a trading-only key, and nothing is stored`, async () => {
    const { app, venue } = setup();
    const c = new Client(app.url);
    const { uid } = await c.signUp(`withdraw-${n}-${exchange}@example.com`);
    const key = keyOf(exchange);
    venue.setKey(key.apiKey, { withdraw: true });
    const res = await c.post('/api/api-credentials', { access: { ...key, userId: uid } });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ field: 'apiKey', message: expect.stringMatching(/can withdraw funds; GridRocket accepts only keys that cannot\./) }]);
    expect(res.body.errors[0].message).toMatch(howTo);
    expect(res.text).not.toContain(key.keySecret);
    expect((await c.get(`/api/api-credentials/${uid}`)).body).toEqual([]);
  });

  it(`a key ${venueName} reports without an IP restriction is accepted, and the key list warns with the address to allow`, async () => {
    const { app, venue } = setup();
    const c = new Client(app.url);
    const { uid } = await c.signUp(`open-${n}-${exchange}@example.com`);
    const key = keyOf(exchange);
    venue.setKey(key.apiKey, { ipRestricted: false });
    const res = await c.post('/api/api-credentials', { access: { ...key, userId: uid } });
    expect(res.status).toBe(201);
    const list = (await c.get(`/api/api-credentials/${uid}`)).body as KeyView[];
    expect(list).toEqual([{ id: res.body.id, exchange, apikeyid: key.apiKey, warnings: [{ code: 'no-ip-restriction', message: expect.stringContaining('Not restricted to IP addresses') }] }]);
    expect(list[0].warnings![0].message).toContain(EGRESS);
    // the add's own answer says so too, for the form to show at once
    expect(res.body.warnings).toEqual(list[0].warnings);
  });

  it(`a key ${venueName} reports without any trading permission is refused`, async () => {
    const { app, venue } = setup();
    const c = new Client(app.url);
    const { uid } = await c.signUp(`notrade-${n}-${exchange}@example.com`);
    const key = keyOf(exchange);
    venue.setKey(key.apiKey, { spot: false, futures: false });
    const res = await c.post('/api/api-credentials', { access: { ...key, userId: uid } });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ field: 'apiKey', message: expect.stringMatching(/API key cannot trade: the bots need .* for spot bots or .* for futures bots/) }]);
    expect((await c.get(`/api/api-credentials/${uid}`)).body).toEqual([]);
  });

  it(`a key ${venueName} reports withdraw-capable after it was added refuses the next start, from the API and from a signal, with the way to fix it (issue 38, break 9)`, async () => {
    const { app, venue } = setup();
    const c = new Client(app.url);
    const { uid } = await c.signUp(`later-${n}-${exchange}@example.com`);
    const key = keyOf(exchange);
    venue.setKey(key.apiKey, {});
    expect((await c.post('/api/api-credentials', { access: { ...key, userId: uid } })).status).toBe(201);
    const bot = (await c.post('/api/bots', { ...spotBot, exchange, entryPrice: 50000, userId: uid })).body.id as string;
    // withdrawals turned on at the venue; no daily check has run since the key was added
    venue.setKey(key.apiKey, { withdraw: true });
    const refused = await c.get(`/api/startBot?id=${bot}&userId=${uid}`);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toMatch(/reports that your API key can now withdraw funds, so no new bot starts with it\./);
    expect(refused.body.message).toMatch(howTo.source.includes('Binance') ? /On Binance, open Account → API Management/ : /On KuCoin, open Account → API Management/);
    // a signal's start is the same start
    const { secret } = (await c.post(`/api/bots/${bot}/signals`, {})).body;
    const ts = String(Math.floor(Date.now() / 1000));
    const body = JSON.stringify({ action: 'start' });
    const signature = createHmac('sha256', secret).update(`${ts}.${body}`).digest('hex');
    const signal = await fetch(`${app.url}/api/signals/${bot}`, { method: 'POST', body, headers: { 'content-type': 'application/json', 'x-signal-timestamp': ts, 'x-signal-id': `s-${n}`, 'x-signature': `sha256=${signature}` } });
    expect(signal.status).toBe(409);
    const history = (await c.get(`/api/bots/${bot}/history`)).body as Array<{ type: string }>;
    expect(history.map((e) => e.type)).not.toContain('BotStartRequested');
    expect(history.map((e) => e.type)).not.toContain('OrderPlaced');
    expect((await c.get(`/api/bot-details/${bot}`)).body.state).not.toBe('running');
  });

  it(`a trading-only, IP-restricted key ${venueName} reports is accepted without a warning`, async () => {
    const { app } = setup();
    const c = new Client(app.url);
    const { uid } = await c.signUp(`fine-${n}-${exchange}@example.com`);
    const key = keyOf(exchange);
    setup().venue.setKey(key.apiKey, {}); // the venue's default answer for a key
    const res = await c.post('/api/api-credentials', { access: { ...key, userId: uid } });
    expect(res.status).toBe(201);
    expect((await c.get(`/api/api-credentials/${uid}`)).body).toEqual([{ id: res.body.id, exchange, apikeyid: key.apiKey }]);
  });
}

describe('the paper exchange', () => {
  let app: Awaited<ReturnType<typeof startTestApp>>;
  let paper: PaperVenue;
  beforeAll(async () => {
    app = await startTestApp({ EGRESS_IP: EGRESS });
    paper = (app.app.get(EXCHANGE_PROVIDER) as PaperExchangeProvider).venue;
  });
  afterAll(async () => {
    await app.close();
  });
  const setup = () => ({ app, venue: { setKey: (apiKey: string, p: Partial<KeyPermissions>) => paper.setKeyPermissions('Binance', apiKey, p) } });
  keyChecks('Binance', 'the paper exchange', setup);

  it('a paper key is trading-only and its IP restriction does not apply: no warning', async () => {
    const c = new Client(app.url);
    const { uid } = await c.signUp('paper-plain@example.com');
    await c.addKey(uid, 'Kucoin');
    expect((await c.get(`/api/api-credentials/${uid}`)).body).toEqual([{ id: expect.any(String), exchange: 'Kucoin', apikeyid: 'test-kucoin-key' }]);
  });

  it('the paper venue also reads what a key may do from <data>/paper-key-permissions.json (its "API Management page")', async () => {
    const c = new Client(app.url);
    const { uid } = await c.signUp('paper-file@example.com');
    writeFileSync(join(app.dataDir, 'paper-key-permissions.json'), JSON.stringify({ 'file-withdraw-key': { withdraw: true }, 'file-open-key': { ipRestricted: false } }));
    const post = (apiKey: string) => c.post('/api/api-credentials', { access: { exchange: 'Kucoin', apiKey, keySecret: 'file-secret-0123456789', passPhrase: 'pass', userId: uid } });
    const refused = await post('file-withdraw-key');
    expect(refused.status).toBe(400);
    expect(refused.body.errors[0].message).toMatch(/^This KuCoin API key can withdraw funds/);
    const open = await post('file-open-key');
    expect(open.status).toBe(201);
    expect(open.body.warnings.map((w: { code: string }) => w.code)).toEqual(['no-ip-restriction']);
    rmSync(join(app.dataDir, 'paper-key-permissions.json'));
  });

  it('a key without futures trading starts spot bots but no futures bot (409 naming the permission)', async () => {
    const c = new Client(app.url);
    const { uid } = await c.signUp('spot-only@example.com');
    const key = keyOf('Binance');
    paper.setKeyPermissions('Binance', key.apiKey, { futures: false });
    expect((await c.post('/api/api-credentials', { access: { ...key, userId: uid } })).status).toBe(201);
    const futures = (await c.post('/api/bots', { ...spotBot, botType: 'Futures', leverage: 2, entryPrice: 50000, userId: uid })).body.id as string;
    const refused = await c.get(`/api/startBot?id=${futures}&userId=${uid}`);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toMatch(/Your Binance API key cannot trade futures: it needs the "Enable Futures" permission/);
    const spot = (await c.post('/api/bots', { ...spotBot, entryPrice: 50000, userId: uid })).body.id as string;
    expect((await c.get(`/api/startBot?id=${spot}&userId=${uid}`)).status).toBe(202);
    await c.get(`/api/stopBot?id=${spot}&userId=${uid}&cancelAllOrders=true`);
  });

  it('the daily check records what the venue says; a key that became withdraw-capable is flagged and starts no new bot until fixed', async () => {
    const c = new Client(app.url);
    const { uid } = await c.signUp('became-unsafe@example.com');
    const key = keyOf('Binance');
    const added = await c.post('/api/api-credentials', { access: { ...key, userId: uid } });
    expect(added.status).toBe(201);
    const checks = app.app.get(KeyPermissionChecks);

    // the owner turns withdrawals on at the venue; the next daily run (a day later) finds it
    paper.setKeyPermissions('Binance', key.apiKey, { withdraw: true });
    const tomorrow = new Date(Date.now() + 25 * 3_600_000);
    expect(await checks.runOnce(tomorrow)).toBeGreaterThanOrEqual(1);
    const list = (await c.get(`/api/api-credentials/${uid}`)).body as KeyView[];
    expect(list[0].warnings).toEqual([{ code: 'withdraw-enabled', message: expect.stringMatching(/Binance reports that this key can now withdraw funds: no new bot starts with it/) }]);

    const bot = (await c.post('/api/bots', { ...spotBot, entryPrice: 50000, userId: uid })).body.id as string;
    const refused = await c.get(`/api/startBot?id=${bot}&userId=${uid}`);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toMatch(/reports that your API key can now withdraw funds, so no new bot starts with it\. On Binance, open Account → API Management/);

    // fixed at the venue: the start asks again and goes ahead; the list no longer warns
    paper.setKeyPermissions('Binance', key.apiKey, { withdraw: false });
    expect((await c.get(`/api/startBot?id=${bot}&userId=${uid}`)).status).toBe(202);
    expect((await c.get(`/api/api-credentials/${uid}`)).body).toEqual([{ id: added.body.id, exchange: 'Binance', apikeyid: key.apiKey }]);
    await c.get(`/api/stopBot?id=${bot}&userId=${uid}&cancelAllOrders=true`);

    // each answer is an event on the key's stream, facts only
    const store = new SqliteEventStore(join(app.dataDir, 'events.sqlite'));
    const events = await store.readStream(`credential-${added.body.id}`);
    await store.close();
    const checked = events.filter((e) => e.type === 'CredentialPermissionsChecked').map((e) => e.data as { source: string; permissions: KeyPermissions });
    expect(checked.map((d) => [d.source, d.permissions.withdraw])).toEqual([
      ['add', false],
      ['daily', true],
      ['start', true], // the refused start asked again first
      ['start', false],
    ]);
    expect(JSON.stringify(events.map((e) => e.data))).not.toContain(key.keySecret);
  });
});

/** The four venue stand-ins over one paper core, each the origin of a live-mode app. */
describe.each<[Exchange, MarketType]>([
  ['Binance', 'spot'],
  ['Binance', 'futures'],
  ['Kucoin', 'spot'],
  ['Kucoin', 'futures'],
])('the %s %s stand-in (ccxt, live mode)', (exchange, market) => {
  const live = useStandInApp('gr-keyperm-', exchange, market, { EGRESS_IP: EGRESS });
  // the key is created on the venue (stand-in default: trading-only, IP-restricted) with what the test says
  const setup = () => ({ app: live.app, venue: { setKey: (apiKey: string, p: Partial<KeyPermissions>) => live.standIn.addKey({ userId: `venue-${apiKey}`, apiKey, secret: '', permissions: p }) } });
  keyChecks(exchange, `the ${exchange} ${market} stand-in`, setup);
});
