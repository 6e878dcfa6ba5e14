/**
 * Issue 38, break 2: an alert webhook at `http://[::ffff:127.0.0.1]:port/` passed the private-address
 * check, was saved (as `[::ffff:7f00:1]`) and posted to; and the delivery log told open ports from closed
 * ones on the server's own network (ECONNREFUSED against a parse error). What an attacker with an
 * ordinary account would try: every spelling of an inside address, at save and at send, and names that
 * resolve inside.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebhookSink, type Alert } from '@gridrocket/alerts';
import { REFUSED_URL_SPELLINGS, NAMES_RESOLVING_INSIDE } from './support/address-spellings';
import { Client } from './support/http-client';
import { startTestApp } from './support/test-app';

jest.setTimeout(60_000);

const alert: Alert = {
  kind: 'cycle',
  eventId: 'e-1',
  eventType: 'TakeProfitFilled',
  botId: 'b-1',
  userId: 'u-1',
  symbol: 'BTCUSDT',
  exchange: 'Binance',
  botName: null,
  botLabel: 'bot b-1',
  market: 'spot',
  currency: 'USDT',
  url: null,
  occurredAt: '2026-11-28T12:00:00.000Z',
  title: 'A cycle closed',
  text: 'BTCUSDT: +1.00 USDT',
  details: {},
};

/** A listener on the server's own loopback that counts what reaches it: what the attack aimed at. */
async function insideListener() {
  const hits: string[] = [];
  const server = http.createServer((req, res) => {
    hits.push(`${req.method} ${req.headers.host} ${req.url}`);
    res.writeHead(200).end('ok');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { hits, port: (server.address() as AddressInfo).port, close: () => new Promise<void>((r) => server.close(() => r())) };
}

describe('alert webhooks reach only the outside (issue 38, break 2)', () => {
  let app: Awaited<ReturnType<typeof startTestApp>>;
  let inside: Awaited<ReturnType<typeof insideListener>>;
  let user: Client;
  let uid: string;

  beforeAll(async () => {
    inside = await insideListener();
    app = await startTestApp({}); // the default: no ALERTS_ALLOW_PRIVATE_URLS
    user = new Client(app.url);
    uid = (await user.signUp('ssrf@example.com')).uid;
  });
  afterAll(async () => {
    await app?.close();
    await inside?.close();
  });

  const save = (url: string) => user.put(`/api/alerts/${uid}`, { kinds: ['cycle'], webhook: { enabled: true, url, secret: 'a-webhook-secret-0123456789' } });

  it('a webhook at the IPv4-mapped spelling of loopback is refused at save (it was saved as [::ffff:7f00:1] before)', async () => {
    const res = await save(`http://[::ffff:127.0.0.1]:${inside.port}/hook`);
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ field: 'webhook.url', message: 'The webhook URL must not point to a private or loopback address' }]);
    expect((await user.get(`/api/alerts/${uid}`)).body.webhook.url ?? null).toBeNull();
  });

  it.each(REFUSED_URL_SPELLINGS)('refuses $url ($family) at save', async ({ url }) => {
    const res = await save(url);
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ field: 'webhook.url', message: expect.stringContaining('private or loopback') }]);
  });

  it('a public name that does not resolve here is kept (it is checked again at every send)', async () => {
    const res = await save('https://hooks.example.invalid/x');
    expect(res.status).toBe(200);
  });

  describe('at send', () => {
    const sink = (resolver?: (h: string) => Promise<Array<{ address: string; family: number }>>) =>
      new WebhookSink({ allowPrivateUrls: false, maxAttempts: 1, retryBaseMs: 1, resolver });
    const send = (s: WebhookSink, url: string) => s.send(alert, 'd-1', { channel: 'webhook', url, secret: 'a-webhook-secret-0123456789' }, new AbortController().signal);

    it.each(REFUSED_URL_SPELLINGS)('refuses $url ($family) and posts nothing', async ({ url }) => {
      const out = await send(sink(), url);
      expect(out.status).toBe('refused');
      expect(out.error).toBe('Refused: The address is not allowed: it is private, loopback or reserved');
      expect(inside.hits).toEqual([]);
    });

    it.each(NAMES_RESOLVING_INSIDE)('refuses $name, which resolves to $addresses', async ({ name, addresses }) => {
      const resolver = async () => addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
      const out = await send(sink(resolver), `http://${name}:${inside.port}/hook`);
      expect(out.status).toBe('refused');
      expect(inside.hits).toEqual([]);
    });

    it('resolves a name once and connects to the address it checked (no second lookup to rebind)', async () => {
      let lookups = 0;
      const resolver = async () => {
        lookups++;
        return [{ address: '127.0.0.1', family: 4 }];
      };
      const allowed = new WebhookSink({ allowPrivateUrls: true, maxAttempts: 1, retryBaseMs: 1, resolver });
      const out = await allowed.send(alert, 'd-2', { channel: 'webhook', url: `http://hook.test:${inside.port}/pinned`, secret: 'a-webhook-secret-0123456789' }, new AbortController().signal);
      expect(out.status).toBe('delivered');
      expect(lookups).toBe(1);
      expect(inside.hits).toEqual([`POST hook.test:${inside.port} /pinned`]);
      inside.hits.length = 0;
    });

    it('the delivery record of a failure says "failed" with no network detail that maps ports', async () => {
      const closed = http.createServer();
      await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
      const port = (closed.address() as AddressInfo).port;
      await new Promise<void>((r) => closed.close(() => r()));
      // a closed port, and a port that speaks something other than HTTP: the same record
      const sockets = new Set<import('node:net').Socket>();
      const raw = (await import('node:net')).createServer((s) => {
        sockets.add(s);
        s.on('error', () => undefined);
        s.end('-ERR unknown command\r\n');
      });
      await new Promise<void>((r) => raw.listen(0, '127.0.0.1', r));
      const allowed = new WebhookSink({ allowPrivateUrls: true, maxAttempts: 1, retryBaseMs: 1 });
      const target = (p: number) => ({ channel: 'webhook' as const, url: `http://127.0.0.1:${p}/x`, secret: 'a-webhook-secret-0123456789' });
      const a = await allowed.send(alert, 'd-3', target(port), new AbortController().signal);
      const b = await allowed.send(alert, 'd-4', target((raw.address() as AddressInfo).port), new AbortController().signal);
      for (const s of sockets) s.destroy();
      raw.close();
      expect(a).toEqual({ status: 'failed', code: null, attempts: 1, error: 'Failed: no answer from the webhook' });
      expect(b).toEqual(a);
    });
  });
});
