import { createHash } from 'node:crypto';
import type { Mailer } from '@gridrocket/identity';
import type { Alert } from '../domain/alert-mapping';
import { backoffMs } from '../domain/alert-rate';
import { NotificationSink, SinkOutcome, SinkTarget, pause } from './notification-sink.port';

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * What an SMTP failure means (RFC 5321, https://www.rfc-editor.org/rfc/rfc5321):
 * - a 5yz reply is a permanent failure: "the SMTP client SHOULD NOT repeat the exact request" (§4.2.1);
 *   e.g. 550 to RCPT TO, the mailbox does not exist (§3.3, §4.2.2), or 535 to AUTH (RFC 4954 §6);
 * - a 4yz reply is transient: "the action may be requested again" (§4.2.1), after a delay (§4.5.4.1);
 *   e.g. 421 (the server is shutting down), 450/451/452;
 * - a connection that fails, closes or times out is treated "as if a 451 response had been received"
 *   (§3.8): transient as well.
 * nodemailer puts the reply's code on the error as `responseCode`.
 */
export function smtpFailure(err: unknown): { permanent: boolean; code: number | null; error: string } {
  const e = (err ?? {}) as { responseCode?: unknown; code?: unknown; name?: unknown };
  const code = typeof e.responseCode === 'number' && e.responseCode >= 400 && e.responseCode < 600 ? e.responseCode : null;
  if (code !== null && code >= 500) return { permanent: true, code, error: `The mail server refused the message (${code})` };
  if (code !== null) return { permanent: false, code, error: `The mail server could not take the message now (${code})` };
  return { permanent: false, code: null, error: `The mail server did not answer (${String(e.code ?? e.name ?? 'no answer')})` };
}

/** The Message-ID of one alert's e-mail: the same on every try and after a restart (RFC 5322 §3.6.4). */
export function alertMessageId(deliveryId: string, publicUrl: string): string {
  let host = 'gridrocket.invalid';
  try {
    host = new URL(publicUrl).hostname || host;
  } catch {
    // keep the placeholder
  }
  return `<alert-${createHash('sha256').update(deliveryId).digest('hex').slice(0, 32)}@${host}>`;
}

/**
 * E-mail through the product's mailer (SMTP via nodemailer when SMTP_URL is set, else .eml files) to the
 * account's address. A transient failure is tried again with back-off, up to `maxAttempts`; a permanent
 * one (5yz) is final at once. Every try carries the same Message-ID and X-GridRocket-Delivery header.
 */
export class EmailSink implements NotificationSink {
  readonly channel = 'email' as const;

  constructor(
    private readonly mailer: Mailer,
    private readonly options: { maxAttempts: number; retryBaseMs: number; publicUrl: string },
  ) {}

  async send(alert: Alert, deliveryId: string, target: SinkTarget, signal: AbortSignal): Promise<SinkOutcome> {
    if (target.channel !== 'email') throw new Error('Not an e-mail target');
    const link = `${this.options.publicUrl}/bots/${alert.botId}`;
    const message = {
      to: target.to,
      subject: `GridRocket: ${alert.title}`,
      text: `${alert.text}\n\nOpen the bot: ${link}\n\nChange what you hear about under Alerts in your account.`,
      html: `<p>${escapeHtml(alert.text)}</p><p><a href="${escapeHtml(link)}">Open the bot</a></p><p>Change what you hear about under Alerts in your account.</p>`,
      messageId: alertMessageId(deliveryId, this.options.publicUrl),
      headers: { 'X-GridRocket-Delivery': deliveryId },
    };
    let last = smtpFailure(null);
    for (let attempt = 1; attempt <= this.options.maxAttempts; attempt++) {
      if (signal.aborted) throw new Error('stopped');
      try {
        await this.mailer.send(message);
        return { status: 'delivered', code: this.mailer.kind === 'smtp' ? 250 : null, attempts: attempt, error: null };
      } catch (err) {
        last = smtpFailure(err);
        if (last.permanent) return { status: 'failed', code: last.code, attempts: attempt, error: last.error };
      }
      if (attempt < this.options.maxAttempts) await pause(backoffMs(attempt, this.options.retryBaseMs), signal);
    }
    return { status: 'failed', code: last.code, attempts: this.options.maxAttempts, error: last.error };
  }
}
