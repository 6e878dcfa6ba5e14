import { smtpFailure, stableMessageId, type Mailer } from '@gridrocket/identity';
import type { Alert } from '../domain/alert-mapping';
import { backoffMs } from '../domain/alert-rate';
import { NotificationSink, SinkOutcome, SinkTarget, pause } from './notification-sink.port';

// What an SMTP reply means (4yz transient, 5yz permanent): one reading for every mail, in the identity context.
export { smtpFailure };

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The Message-ID of one alert's e-mail: the same on every try and after a restart (RFC 5322 §3.6.4). */
export function alertMessageId(deliveryId: string, publicUrl: string): string {
  return stableMessageId('alert', deliveryId, publicUrl);
}

/**
 * E-mail through the product's mailer (SMTP via nodemailer when SMTP_URL is set, else .eml files) to the
 * account's address. A transient failure is tried again with back-off, up to `maxAttempts`; then the
 * outcome is `later` and the dispatcher's reactor tries again with its own back-off until the server
 * takes it (issue 31: mail is never lost to an outage). A permanent one (5yz) is final at once. Every try
 * carries the same Message-ID and X-GridRocket-Delivery header.
 */
export class EmailSink implements NotificationSink {
  readonly channel = 'email' as const;

  constructor(
    private readonly mailer: Mailer,
    private readonly options: { maxAttempts: number; retryBaseMs: number; publicUrl: string },
  ) {}

  async send(alert: Alert, deliveryId: string, target: SinkTarget, signal: AbortSignal): Promise<SinkOutcome> {
    if (target.channel !== 'email') throw new Error('Not an e-mail target');
    const test = alert.kind === 'test';
    const link = alert.url ?? (test ? `${this.options.publicUrl}/alerts` : `${this.options.publicUrl}/bots/${alert.botId}`);
    const open = test ? 'Open your alert settings' : 'Open the bot';
    const message = {
      to: target.to,
      subject: `GridRocket: ${alert.title}`,
      text: `${alert.text}\n\n${open}: ${link}\n\nChange what you hear about under Alerts in your account.`,
      html: `<p>${escapeHtml(alert.text)}</p><p><a href="${escapeHtml(link)}">${open}</a></p><p>Change what you hear about under Alerts in your account.</p>`,
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
    return { status: 'failed', code: last.code, attempts: this.options.maxAttempts, error: last.error, later: true };
  }
}
