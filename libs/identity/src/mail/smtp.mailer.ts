import { Logger } from '@nestjs/common';
import { correlated } from '@gridrocket/shared';
import nodemailer, { Transporter } from 'nodemailer';
import type { Mailer, MailMessage } from './mail.port';

/** How long a mail may wait on the SMTP server, per step (RFC 5321 §4.5.3.2 suggests minutes per command for a relay; a client that sends mail as it happens cannot wait that long). */
export const SMTP_TIMEOUTS = { connectMs: 15_000, greetingMs: 15_000, socketMs: 60_000 };

/** Production mailer: nodemailer over SMTP (`SMTP_URL`, e.g. smtps://user:pass@smtp.example.com:465). */
export class SmtpMailer implements Mailer {
  readonly kind = 'smtp' as const;
  private readonly logger = new Logger('Mail');
  private readonly transport: Transporter;

  constructor(
    smtpUrl: string,
    private readonly from: string,
  ) {
    // Bounded waits: nodemailer's defaults (socket 10 min) let a server that accepts and never answers
    // stall the mails behind it (an alert's retries, a shutdown). A slow server is a failed try, retried.
    this.transport = nodemailer.createTransport({ url: smtpUrl, connectionTimeout: SMTP_TIMEOUTS.connectMs, greetingTimeout: SMTP_TIMEOUTS.greetingMs, socketTimeout: SMTP_TIMEOUTS.socketMs });
  }

  async send(message: MailMessage, correlationId?: string): Promise<void> {
    const info = await this.transport.sendMail({ from: this.from, to: message.to, subject: message.subject, text: message.text, html: message.html, messageId: message.messageId, headers: message.headers });
    // The link is a credential: it goes to the recipient, not to the log.
    this.logger.log(correlated(`Mail to ${message.to} "${message.subject}" sent over SMTP (${info.messageId})`, correlationId));
  }

  async close(): Promise<void> {
    this.transport.close();
  }
}
