import { createHmac } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import { RefusedDestinationError, checkedDestination, pinnedLookup, type Resolver } from '@gridrocket/shared/net';
import type { Alert } from '../domain/alert-mapping';
import { backoffMs } from '../domain/alert-rate';
import { NotificationSink, SinkOutcome, SinkTarget, pause } from './notification-sink.port';

export const SIGNATURE_HEADER = 'X-GridRocket-Signature';
export const TIMESTAMP_HEADER = 'X-GridRocket-Timestamp';
export const DELIVERY_HEADER = 'X-GridRocket-Delivery';
export const EVENT_HEADER = 'X-GridRocket-Event';

/**
 * The signature of a webhook request: `sha256=<hex HMAC-SHA256(secret, "<timestamp>.<raw body>")>`.
 * The timestamp (seconds, also sent as X-GridRocket-Timestamp) is inside what is signed, so a receiver
 * that refuses timestamps older than a few minutes refuses replays (the scheme of Stripe's
 * `Stripe-Signature` and Slack's `X-Slack-Signature`).
 */
export function webhookSignature(secret: string, timestamp: number, rawBody: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${rawBody}`).digest('hex')}`;
}

/**
 * The JSON body of a webhook: the alert's public facts, never a secret. `bot` names the bot (its name, or
 * null, and the label the words use), where it trades and its page; `currency` is what every amount in
 * `text` and `details` is in (issue 40). A test ("Send a test") has `kind: "test"` and `bot: null`.
 */
export function webhookBody(alert: Alert, deliveryId: string): string {
  return JSON.stringify({
    id: deliveryId,
    kind: alert.kind,
    event: alert.eventType,
    occurredAt: alert.occurredAt,
    bot: alert.kind === 'test' ? null : { id: alert.botId, name: alert.botName, label: alert.botLabel, symbol: alert.symbol, exchange: alert.exchange, market: alert.market, url: alert.url },
    title: alert.title,
    text: alert.text,
    currency: alert.currency,
    url: alert.url,
    details: alert.details,
  });
}

interface PostResult {
  code: number;
  retryAfter: number | null;
}

/**
 * One POST through the guarded way out (`checkedDestination`, issue 38): the URL's host resolved once,
 * every address checked, the connection pinned to the checked one; no redirect followed.
 */
async function post(url: URL, body: string, headers: Record<string, string>, guard: { allowPrivate: boolean; resolver?: Resolver }, signal: AbortSignal): Promise<PostResult> {
  const destination = await checkedDestination(url, guard);
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = client.request(
      url,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), 'user-agent': 'GridRocket-Alerts/1', ...headers },
        lookup: pinnedLookup(destination),
        agent: false, // a connection of its own: a kept-alive one could lead elsewhere
        timeout: 10_000,
        signal,
      },
      (res) => {
        res.resume(); // the answer's body is not read: only its status counts (redirects are not followed)
        const ra = Number(res.headers['retry-after']);
        res.on('end', () => resolve({ code: res.statusCode ?? 0, retryAfter: Number.isFinite(ra) && ra >= 0 ? ra : null }));
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error('The webhook did not answer within 10 s')));
    // and the whole exchange within 15 s: a receiver that trickles a byte every few seconds holds nothing open
    const deadline = setTimeout(() => req.destroy(new Error('The webhook took more than 15 s')), 15_000);
    deadline.unref();
    req.on('close', () => clearTimeout(deadline));
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * Signed webhooks: one POST of the JSON body to the configured URL (only there: no redirect is
 * followed), retried on no answer, 408, 429 (after its Retry-After when given) and 5xx, up to
 * `maxAttempts` tries with exponential back-off; any other 4xx is final. 2xx is delivered.
 */
export class WebhookSink implements NotificationSink {
  readonly channel = 'webhook' as const;

  constructor(private readonly options: { allowPrivateUrls: boolean; maxAttempts: number; retryBaseMs: number; now?: () => number; resolver?: Resolver }) {}

  async send(alert: Alert, deliveryId: string, target: SinkTarget, signal: AbortSignal): Promise<SinkOutcome> {
    if (target.channel !== 'webhook') throw new Error('Not a webhook target');
    const body = webhookBody(alert, deliveryId);
    const url = new URL(target.url);
    let code: number | null = null;
    let error: string | null = null;
    for (let attempt = 1; attempt <= this.options.maxAttempts; attempt++) {
      const timestamp = Math.floor((this.options.now?.() ?? Date.now()) / 1000);
      const headers = {
        [SIGNATURE_HEADER]: webhookSignature(target.secret, timestamp, body),
        [TIMESTAMP_HEADER]: String(timestamp),
        [DELIVERY_HEADER]: deliveryId,
        [EVENT_HEADER]: alert.kind,
      };
      let retryAfter: number | null = null;
      try {
        const res = await post(url, body, headers, { allowPrivate: this.options.allowPrivateUrls, resolver: this.options.resolver }, signal);
        code = res.code;
        retryAfter = res.retryAfter;
        if (code >= 200 && code < 300) return { status: 'delivered', code, attempts: attempt, error: null };
        error = `The webhook answered ${code}`;
        if (!(code === 408 || code === 429 || code >= 500)) return { status: 'failed', code, attempts: attempt, error };
      } catch (err) {
        if (signal.aborted) throw err;
        if (err instanceof RefusedDestinationError) return { status: 'refused', code: null, attempts: attempt, error: `Refused: ${err.message}` };
        code = null;
        // No network detail (ECONNREFUSED, a parse error, a reset): they told open ports from closed ones
        // on the server's own network (issue 38).
        error = 'Failed: no answer from the webhook';
      }
      if (attempt < this.options.maxAttempts) {
        const wait = backoffMs(attempt, this.options.retryBaseMs);
        await pause(retryAfter !== null ? Math.max(wait, retryAfter * 1000) : wait, signal);
      }
    }
    return { status: 'failed', code, attempts: this.options.maxAttempts, error };
  }
}
