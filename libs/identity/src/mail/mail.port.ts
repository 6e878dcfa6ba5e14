/** An outgoing message; `link` is the one action it carries (logged by the file mailer). */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  link?: string;
  /**
   * The Message-ID (RFC 5322 §3.6.4, `<left@right>`): the same for every try of one message, so that a
   * message sent again (its "250" after DATA lost, RFC 5321 §4.1.1.4 / RFC 1047) can be recognised as a
   * duplicate; the mailer makes one up when absent.
   */
  messageId?: string;
  /** Extra header fields (e.g. X-GridRocket-Delivery). */
  headers?: Record<string, string>;
}

/** Sends mail: to files in the data folder by default, over SMTP when SMTP_URL is set. */
export interface Mailer {
  readonly kind: 'file' | 'smtp';
  /** `correlationId`: of the request the mail is sent for (its log line carries it). */
  send(message: MailMessage, correlationId?: string): Promise<void>;
  close?(): Promise<void>;
}

export const MAILER = Symbol('MAILER');
