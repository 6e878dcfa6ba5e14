/** An outgoing message; `link` is the one action it carries (logged by the file mailer). */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  link?: string;
}

/** Sends mail: to files in the data folder by default, over SMTP when SMTP_URL is set. */
export interface Mailer {
  readonly kind: 'file' | 'smtp';
  /** `correlationId`: of the request the mail is sent for (its log line carries it). */
  send(message: MailMessage, correlationId?: string): Promise<void>;
  close?(): Promise<void>;
}

export const MAILER = Symbol('MAILER');
