import type { OpsMeter } from '@gridrocket/shared/runtime';
import type { MailMessage, Mailer } from './mail.port';

/** What a mail is, for gridrocket_mail_sent_total{kind}: every kind is a series from the start. */
export const MAIL_KINDS = ['verification', 'reset', 'registration-attempt', 'alert', 'other'] as const;
export type MailKind = (typeof MAIL_KINDS)[number];

/** Tells a mail's kind from what it carries: an alert's delivery header, else the path of its link. */
export function mailKind(message: MailMessage): MailKind {
  if (message.headers?.['X-GridRocket-Delivery']) return 'alert';
  let path = '';
  try {
    path = message.link ? new URL(message.link).pathname : '';
  } catch {
    path = '';
  }
  if (path.endsWith('/verify-email-address')) return 'verification';
  // the registration-attempt notice links to the reset page too (account.service.ts)
  if (path.endsWith('/reset-password')) return /register/i.test(message.subject) ? 'registration-attempt' : 'reset';
  return 'other';
}

/** Counts each mail handed to `inner`: sent when it returned, failed when it threw (the error goes on). */
export function meteredMailer(inner: Mailer, meter: OpsMeter): Mailer {
  meter.declareMailKinds(MAIL_KINDS);
  return {
    kind: inner.kind,
    async send(message, correlationId) {
      const kind = mailKind(message);
      try {
        await inner.send(message, correlationId);
      } catch (err) {
        meter.mailSent(kind, 'failed');
        throw err;
      }
      meter.mailSent(kind, 'sent');
    },
    ...(inner.close ? { close: () => inner.close!() } : {}),
  };
}
