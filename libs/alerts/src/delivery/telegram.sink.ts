import type { Alert } from '../domain/alert-mapping';
import { backoffMs } from '../domain/alert-rate';
import { NotificationSink, SinkOutcome, SinkTarget, pause } from './notification-sink.port';

/** Longest wait for Telegram's flood control we honour inside one delivery; beyond it the delivery fails. */
export const MAX_RETRY_AFTER_SECONDS = 120;

/**
 * The message text: the alert's title, its words and the address of the bot's page (Telegram's limit is
 * 4096 characters; ours are far shorter). Plain text: no parse_mode, so a bot's name is shown as written.
 */
export const telegramText = (alert: Alert) => `${alert.title}\n${alert.text}${alert.url ? `\n${alert.url}` : ''}`.slice(0, 4096);

/**
 * Telegram's Bot API `sendMessage` (https://core.telegram.org/bots/api#sendmessage):
 * `POST <api>/bot<token>/sendMessage` with JSON `{chat_id, text}` (https://core.telegram.org/bots/api#making-requests:
 * "All queries to the Telegram Bot API must be served over HTTPS and need to be presented in this form:
 * https://api.telegram.org/bot<token>/METHOD_NAME"; parameters may be passed as application/json).
 * The answer is `{ok: true, result}` or `{ok: false, error_code, description, parameters?}`; on flood
 * control `parameters.retry_after` is "the number of seconds left to wait before the request can be
 * repeated" (ResponseParameters). So: 429 waits retry_after (at most MAX_RETRY_AFTER_SECONDS) and
 * tries again, 5xx and no answer back off exponentially, and 400/401/403/404 are final (a bad token
 * or chat id does not heal by itself). The token is in the URL: the URL is never logged or recorded.
 */
export class TelegramSink implements NotificationSink {
  readonly channel = 'telegram' as const;

  constructor(private readonly options: { apiOrigin: string; maxAttempts: number; retryBaseMs: number }) {}

  async send(alert: Alert, _deliveryId: string, target: SinkTarget, signal: AbortSignal): Promise<SinkOutcome> {
    if (target.channel !== 'telegram') throw new Error('Not a Telegram target');
    const url = `${this.options.apiOrigin}/bot${target.botToken}/sendMessage`;
    const chatId = /^-?\d+$/.test(target.chatId) ? Number(target.chatId) : target.chatId;
    const body = JSON.stringify({ chat_id: chatId, text: telegramText(alert), disable_web_page_preview: true });
    let code: number | null = null;
    let error: string | null = null;
    for (let attempt = 1; attempt <= this.options.maxAttempts; attempt++) {
      let wait = backoffMs(attempt, this.options.retryBaseMs);
      try {
        const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body, signal, redirect: 'error' });
        code = res.status;
        const answer = (await res.json().catch(() => null)) as { ok?: boolean; description?: unknown; parameters?: { retry_after?: unknown } } | null;
        if (res.ok && answer?.ok === true) return { status: 'delivered', code, attempts: attempt, error: null };
        // Telegram's description is its own words (e.g. "Bad Request: chat not found"); it never echoes the token.
        error = `Telegram answered ${code}${typeof answer?.description === 'string' ? `: ${answer.description.slice(0, 200)}` : ''}`;
        if (code === 429) {
          const retryAfter = Number(answer?.parameters?.retry_after);
          if (Number.isFinite(retryAfter) && retryAfter >= 0) {
            if (retryAfter > MAX_RETRY_AFTER_SECONDS) return { status: 'failed', code, attempts: attempt, error };
            wait = retryAfter * 1000;
          }
        } else if (code < 500) return { status: 'failed', code, attempts: attempt, error };
      } catch (err) {
        if (signal.aborted) throw err;
        code = null;
        error = 'No answer from Telegram';
      }
      if (attempt < this.options.maxAttempts) await pause(wait, signal);
    }
    return { status: 'failed', code, attempts: this.options.maxAttempts, error };
  }
}
