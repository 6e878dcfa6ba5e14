import { Logger } from '@nestjs/common';
import { correlated } from '@gridrocket/shared';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import nodemailer from 'nodemailer';
import type { Mailer, MailMessage } from './mail.port';

/**
 * The embedded mailer: every message becomes an RFC 822 `.eml` file under
 * `DATA_DIR/mail/` (open it with any mail client) and its link is logged, so a
 * fresh machine needs no mail server. nodemailer composes the message, so the
 * file is byte for byte what SMTP would have carried.
 */
export class EmlFileMailer implements Mailer {
  readonly kind = 'file' as const;
  private readonly logger = new Logger('Mail');
  private readonly composer = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });

  constructor(
    readonly folder: string,
    private readonly from: string,
  ) {}

  async send(message: MailMessage, correlationId?: string): Promise<void> {
    const info = await this.composer.sendMail({ from: this.from, to: message.to, subject: message.subject, text: message.text, html: message.html, messageId: message.messageId, headers: message.headers });
    await mkdir(this.folder, { recursive: true, mode: 0o700 });
    const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(4).toString('hex')}.eml`;
    const tmp = join(this.folder, `.${name}.tmp`);
    // Written then renamed, so a reader never sees half a message.
    await writeFile(tmp, info.message as Buffer, { mode: 0o600 });
    await rename(tmp, join(this.folder, name));
    this.logger.log(correlated(`Mail to ${message.to} "${message.subject}" written to ${join(this.folder, name)}${message.link ? `; link: ${message.link}` : ''}`, correlationId));
  }
}
