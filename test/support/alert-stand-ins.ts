import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, IncomingMessage, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SmtpStandIn } from './smtp-stand-in';

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

export interface TelegramCall {
  at: number;
  token: string;
  body: { chat_id: unknown; text: string };
}

/**
 * A stand-in of Telegram's Bot API `sendMessage`, written from its documentation:
 * - the address is `/bot<token>/METHOD_NAME`, JSON bodies accepted
 *   (https://core.telegram.org/bots/api#making-requests);
 * - every answer is JSON with `ok`; success carries `result` (the sent Message), failure
 *   `error_code` and `description`, optionally `parameters` (ResponseParameters) (same section; mirrored
 *   in grammyjs/types api.ts: `ApiSuccess {ok: true, result}`, `ApiError {ok: false, error_code, description, parameters?}`);
 * - an unknown token answers 401 `{"ok":false,"error_code":401,"description":"Unauthorized"}`, an unknown
 *   chat 400 "Bad Request: chat not found" (the errors catalogued at https://github.com/TelegramBotAPI/errors,
 *   unauthorized.json and bad-request-chat-not-found.json);
 * - flood control answers 429 "Too Many Requests: retry after N" with `parameters.retry_after` = N, "the
 *   number of seconds left to wait before the request can be repeated" (ResponseParameters,
 *   https://core.telegram.org/bots/api#responseparameters); a request sooner than that gets 429 again.
 */
export class TelegramStandIn {
  readonly calls: TelegramCall[] = [];
  readonly delivered: TelegramCall[] = [];
  /** How many of the next requests answer 429, and with which retry_after. */
  floods: { count: number; retryAfter: number } = { count: 0, retryAfter: 1 };
  private blockedUntil = 0;
  private server!: Server;
  url = '';

  constructor(
    readonly token: string,
    readonly chats: string[],
  ) {}

  async start() {
    this.server = createServer(async (req, res) => {
      const raw = await readBody(req);
      const answer = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      const m = /^\/bot([^/]+)\/sendMessage$/i.exec(req.url ?? ''); // method names are case-insensitive (Making requests)
      let body: TelegramCall['body'];
      try {
        body = JSON.parse(raw);
      } catch {
        return answer(400, { ok: false, error_code: 400, description: 'Bad Request: message text is empty' });
      }
      const call = { at: Date.now(), token: m?.[1] ?? '', body };
      this.calls.push(call);
      if (req.method !== 'POST' || !m) return answer(404, { ok: false, error_code: 404, description: 'Not Found' });
      if (m[1] !== this.token) return answer(401, { ok: false, error_code: 401, description: 'Unauthorized' });
      if (Date.now() < this.blockedUntil || this.floods.count > 0) {
        if (this.floods.count > 0) {
          this.floods.count--;
          this.blockedUntil = Date.now() + this.floods.retryAfter * 1000;
        }
        const left = Math.max(1, Math.ceil((this.blockedUntil - Date.now()) / 1000));
        return answer(429, { ok: false, error_code: 429, description: `Too Many Requests: retry after ${left}`, parameters: { retry_after: left } });
      }
      if (!this.chats.includes(String(body.chat_id))) return answer(400, { ok: false, error_code: 400, description: 'Bad Request: chat not found' });
      if (typeof body.text !== 'string' || body.text === '') return answer(400, { ok: false, error_code: 400, description: 'Bad Request: message text is empty' });
      this.delivered.push(call);
      answer(200, { ok: true, result: { message_id: this.delivered.length, date: Math.floor(Date.now() / 1000), chat: { id: body.chat_id, type: 'private' }, text: body.text } });
    });
    this.url = await listen(this.server);
    return this;
  }

  /** Flood control over: the next request is answered normally. */
  calm() {
    this.floods = { count: 0, retryAfter: 1 };
    this.blockedUntil = 0;
  }

  close() {
    return new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

export interface WebhookCall {
  at: number;
  headers: Record<string, string | string[] | undefined>;
  raw: string;
  /** The signature matched the body and timestamp under the shared secret. */
  verified: boolean;
  status: number;
}

/**
 * A webhook receiver as a user would write one from our documentation (libs/alerts webhook.sink.ts):
 * it recomputes `sha256=<hex HMAC-SHA256(secret, "<X-GridRocket-Timestamp>.<raw body>")>`, compares it
 * in constant time with X-GridRocket-Signature, refuses a timestamp more than 5 minutes away (replays),
 * and answers 401 when either fails. `failures`: how many of the next requests answer 500 first.
 */
export class WebhookReceiver {
  readonly calls: WebhookCall[] = [];
  failures = 0;
  private server!: Server;
  url = '';

  constructor(private readonly secret: string) {}

  get accepted() {
    return this.calls.filter((c) => c.status === 200);
  }

  async start() {
    this.server = createServer(async (req, res) => {
      const raw = await readBody(req);
      const ts = String(req.headers['x-gridrocket-timestamp'] ?? '');
      const given = Buffer.from(String(req.headers['x-gridrocket-signature'] ?? ''));
      const expected = Buffer.from(`sha256=${createHmac('sha256', this.secret).update(`${ts}.${raw}`).digest('hex')}`);
      const fresh = /^\d+$/.test(ts) && Math.abs(Date.now() / 1000 - Number(ts)) <= 300;
      const verified = fresh && given.length === expected.length && timingSafeEqual(given, expected);
      let status = verified ? 200 : 401;
      if (verified && this.failures > 0) {
        this.failures--;
        status = 500;
      }
      this.calls.push({ at: Date.now(), headers: req.headers, raw, verified, status });
      res.writeHead(status, { 'content-type': 'text/plain' });
      res.end(status === 200 ? 'ok' : 'no');
    });
    this.url = await listen(this.server);
    return this;
  }

  close() {
    return new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** The Telegram bot token and chat id the alert suites use (their Telegram stand-in knows them). */
export const BOT_TOKEN = '123456789:AAE-secretPartOfTheToken_abcdefghijKLMN';
export const CHAT = '987654321';

/** Every alert channel's far end, started: an SMTP server with `mailboxes`, a webhook receiver checking `secret`, Telegram. */
export interface AlertFarEnds {
  smtp: SmtpStandIn;
  webhook: WebhookReceiver;
  telegram: TelegramStandIn;
  close(): Promise<void>;
}

export async function startAlertFarEnds(secret: string, mailboxes: string[]): Promise<AlertFarEnds> {
  const smtp = await new SmtpStandIn(mailboxes).start();
  const webhook = await new WebhookReceiver(secret).start();
  const telegram = await new TelegramStandIn(BOT_TOKEN, [CHAT]).start();
  return {
    smtp,
    webhook,
    telegram,
    close: async () => {
      await smtp.close();
      await webhook.close();
      await telegram.close();
    },
  };
}

/** Alert settings for cycles with every channel on, pointed at the far ends (`over` replaces parts of them). */
export const everyChannel = (webhook: WebhookReceiver, secret: string, over: Record<string, unknown> = {}) => ({
  kinds: ['cycle'],
  email: { enabled: true },
  webhook: { enabled: true, url: `${webhook.url}/hooks/gridrocket`, secret },
  telegram: { enabled: true, chatId: CHAT, botToken: BOT_TOKEN },
  ...over,
});

/**
 * The Telegram stand-in (knowing `token` and `chats`) and a webhook receiver checking `secret`, of a describe
 * block: started before its tests (so that an app's env function, e.g. useTraderApp's, can read their
 * addresses), closed after them. Read `ends.telegram` and `ends.webhook` in the tests.
 */
export function useTelegramAndWebhook(secret: string, token = BOT_TOKEN, chats = [CHAT]): { telegram: TelegramStandIn; webhook: WebhookReceiver } {
  const ends = {} as { telegram: TelegramStandIn; webhook: WebhookReceiver };
  beforeAll(async () => {
    ends.telegram = await new TelegramStandIn(token, chats).start();
    ends.webhook = await new WebhookReceiver(secret).start();
  });
  afterAll(async () => {
    await ends.telegram?.close();
    await ends.webhook?.close();
  });
  return ends;
}

/**
 * Every alert channel's far end (startAlertFarEnds) for a describe block: started before its tests (an
 * app's env function, e.g. useTraderApp's, can read their addresses), closed after them.
 */
export function useAlertFarEnds(secret: string, mailboxes: string[]): AlertFarEnds {
  const world = {} as AlertFarEnds;
  let far: AlertFarEnds | undefined;
  beforeAll(async () => {
    far = await startAlertFarEnds(secret, mailboxes);
    Object.assign(world, far);
  });
  afterAll(async () => {
    await far?.close();
  });
  return world;
}
