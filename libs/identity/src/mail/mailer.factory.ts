import { join } from 'node:path';
import type { AppConfig, OpsMeter } from '@gridrocket/shared/runtime';
import { EmlFileMailer } from './eml-file.mailer';
import type { Mailer } from './mail.port';
import { meteredMailer } from './metered.mailer';
import { SmtpMailer } from './smtp.mailer';

/** SMTP when SMTP_URL is set, otherwise `.eml` files in DATA_DIR/mail; counted by `meter` when given (gridrocket_mail_sent_total). */
export function createMailer(config: AppConfig, meter?: OpsMeter | null): Mailer {
  const mailer = config.mail.smtpUrl ? new SmtpMailer(config.mail.smtpUrl, config.mail.from) : new EmlFileMailer(join(config.dataDir, 'mail'), config.mail.from);
  return meter ? meteredMailer(mailer, meter) : mailer;
}
