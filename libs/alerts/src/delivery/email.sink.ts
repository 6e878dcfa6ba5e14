import type { Mailer } from '@gridrocket/identity';
import type { Alert } from '../domain/alert-mapping';
import { backoffMs } from '../domain/alert-rate';
import { NotificationSink, SinkOutcome, SinkTarget, pause } from './notification-sink.port';

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** E-mail through the product's mailer (SMTP via nodemailer when SMTP_URL is set, else .eml files). */
export class EmailSink implements NotificationSink {
  readonly channel = 'email' as const;

  constructor(
    private readonly mailer: Mailer,
    private readonly options: { maxAttempts: number; retryBaseMs: number; publicUrl: string },
  ) {}

  async send(alert: Alert, _deliveryId: string, target: SinkTarget, signal: AbortSignal): Promise<SinkOutcome> {
    if (target.channel !== 'email') throw new Error('Not an e-mail target');
    const link = `${this.options.publicUrl}/bots/${alert.botId}`;
    const message = {
      to: target.to,
      subject: `GridRocket: ${alert.title}`,
      text: `${alert.text}\n\nOpen the bot: ${link}\n\nChange what you hear about under Alerts in your account.`,
      html: `<p>${escapeHtml(alert.text)}</p><p><a href="${escapeHtml(link)}">Open the bot</a></p><p>Change what you hear about under Alerts in your account.</p>`,
    };
    let error: string | null = null;
    for (let attempt = 1; attempt <= this.options.maxAttempts; attempt++) {
      try {
        await this.mailer.send(message);
        return { status: 'delivered', code: null, attempts: attempt, error: null };
      } catch (err) {
        error = `The mail server refused or did not answer (${(err as NodeJS.ErrnoException).code ?? (err as Error).name})`;
      }
      if (attempt < this.options.maxAttempts) await pause(backoffMs(attempt, this.options.retryBaseMs), signal);
    }
    return { status: 'failed', code: null, attempts: this.options.maxAttempts, error };
  }
}
