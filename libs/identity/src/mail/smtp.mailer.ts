import { Logger } from '@nestjs/common';
import { correlated } from '@gridrocket/shared';
import nodemailer, { Transporter } from 'nodemailer';
import type { Mailer, MailMessage } from './mail.port';

/** Production mailer: nodemailer over SMTP (`SMTP_URL`, e.g. smtps://user:pass@smtp.example.com:465). */
export class SmtpMailer implements Mailer {
  readonly kind = 'smtp' as const;
  private readonly logger = new Logger('Mail');
  private readonly transport: Transporter;

  constructor(
    smtpUrl: string,
    private readonly from: string,
  ) {
    this.transport = nodemailer.createTransport(smtpUrl);
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
