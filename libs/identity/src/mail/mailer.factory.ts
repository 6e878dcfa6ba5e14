import { join } from 'node:path';
import type { AppConfig } from '@gridrocket/shared/runtime';
import { EmlFileMailer } from './eml-file.mailer';
import type { Mailer } from './mail.port';
import { SmtpMailer } from './smtp.mailer';

/** SMTP when SMTP_URL is set, otherwise `.eml` files in DATA_DIR/mail. */
export function createMailer(config: AppConfig): Mailer {
  return config.mail.smtpUrl ? new SmtpMailer(config.mail.smtpUrl, config.mail.from) : new EmlFileMailer(join(config.dataDir, 'mail'), config.mail.from);
}
