import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** One message the stand-in accepted (it answered 250 to the end of its DATA). */
export interface ReceivedMail {
  at: number;
  /** The envelope (MAIL FROM / RCPT TO), not the headers. */
  from: string;
  to: string[];
  user: string | undefined;
  raw: string;
  /** Header fields, unfolded, names in lower case. */
  headers: Record<string, string>;
  /** The text/plain part, decoded. */
  text: string;
}

/** One transaction the stand-in ended, and its reply: 250 taken, 451 after DATA, 550 to RCPT TO, 421 to the connection. */
export interface SmtpTransaction {
  at: number;
  to: string[];
  code: number;
  /** The message's header fields, when its DATA was sent (not for a refused RCPT TO). */
  headers?: Record<string, string>;
}

function decodeQuotedPrintable(s: string): string {
  const bytes = s.replace(/=\r?\n/g, '').replace(/=([0-9A-Fa-f]{2})/g, (_, h) => String.fromCharCode(parseInt(h, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

/**
 * A header value as a mail reader shows it: RFC 2047 encoded words (`=?UTF-8?Q?…?=`, `=?UTF-8?B?…?=`)
 * decoded, the white space between two adjacent encoded words dropped (§6.2: "any 'linear-white-space'
 * that separates a pair of adjacent 'encoded-word's is ignored"; in Q, "_" is a space, §4.2;
 * https://www.rfc-editor.org/rfc/rfc2047). Nodemailer encodes a subject this way when it holds a quote.
 */
function decodeEncodedWords(value: string): string {
  const word = /=\?([^?]+)\?([QqBb])\?([^?]*)\?=/g;
  return value.replace(/(=\?[^?]+\?[QqBb]\?[^?]*\?=)\s+(?==\?[^?]+\?[QqBb]\?[^?]*\?=)/g, '$1').replace(word, (_, charset: string, enc: string, text: string) => {
    const bytes = enc.toUpperCase() === 'B' ? Buffer.from(text, 'base64') : Buffer.from(text.replace(/_/g, ' ').replace(/=([0-9A-Fa-f]{2})/g, (_m, h) => String.fromCharCode(parseInt(h, 16))), 'latin1');
    return bytes.toString(/^utf-?8$/i.test(charset) ? 'utf8' : 'latin1');
  });
}

function parseHeaders(block: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of block.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const i = line.indexOf(':');
    if (i > 0) out[line.slice(0, i).trim().toLowerCase()] = decodeEncodedWords(line.slice(i + 1).trim());
  }
  return out;
}

function decodeBody(headers: Record<string, string>, body: string): string {
  const cte = (headers['content-transfer-encoding'] ?? '7bit').toLowerCase();
  if (cte === 'quoted-printable') return decodeQuotedPrintable(body);
  if (cte === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  return body;
}

/** The headers and the text/plain part of an RFC 5322 message (single part or multipart, as nodemailer writes them). */
export function parseMail(raw: string): { headers: Record<string, string>; text: string } {
  const split = raw.search(/\r?\n\r?\n/);
  const headers = parseHeaders(raw.slice(0, split));
  const body = raw.slice(split).replace(/^\r?\n\r?\n/, '');
  const boundary = /boundary="?([^";]+)"?/i.exec(headers['content-type'] ?? '')?.[1];
  if (!boundary) return { headers, text: decodeBody(headers, body) };
  for (const part of body.split(`--${boundary}`)) {
    const p = part.replace(/^\r?\n/, '');
    const at = p.search(/\r?\n\r?\n/);
    if (at < 0) continue;
    const ph = parseHeaders(p.slice(0, at));
    if ((ph['content-type'] ?? '').toLowerCase().startsWith('text/plain')) return { headers, text: decodeBody(ph, p.slice(at).replace(/^\r?\n\r?\n/, '')) };
  }
  return { headers, text: '' };
}

const replyError = (code: number, message: string) => Object.assign(new Error(message), { responseCode: code });

/**
 * A local SMTP server (the smtp-server package speaks the protocol) with the rules of a real one that
 * matter to a sender, from RFC 5321 (https://www.rfc-editor.org/rfc/rfc5321) and RFC 4954:
 * - AUTH is required and wrong credentials are refused with 535 (RFC 4954 §4 and §6,
 *   https://www.rfc-editor.org/rfc/rfc4954), when `user`/`pass` are given;
 * - a RCPT TO whose mailbox does not exist is refused with 550 "mailbox unavailable" ("if the recipient
 *   is known not to be a deliverable address, the SMTP server returns a 550 reply", §3.3; the code, §4.2.2),
 *   and a transaction without an accepted recipient has nothing to send (§3.3: DATA then gets 503/554);
 * - a message is taken only when the server answers 250 to the end of its DATA (§4.1.1.4, §6.1: the
 *   receiver then accepts responsibility for it); `tempFailures` makes the next transactions end with
 *   451 "Requested action aborted: local error in processing" instead (a 4yz reply, transient, §4.2.1),
 *   the message not kept, as a server short of resources or grey-listing does;
 * - `refuseConnections` answers the greeting with 421 "Service not available, closing transmission
 *   channel" (§3.1: a server may refuse a connection; 421, §4.2.2 and §4.2.3).
 */
export class SmtpStandIn {
  readonly inbox: ReceivedMail[] = [];
  readonly transactions: SmtpTransaction[] = [];
  /** How many of the next transactions end with 451 after DATA. */
  tempFailures = 0;
  refuseConnections = false;
  private server!: SMTPServer;
  url = '';
  port = 0;

  constructor(
    /** The mailboxes that exist here (lower case); any other RCPT TO gets 550. */
    readonly mailboxes: string[],
    private readonly credentials: { user: string; pass: string } = { user: 'mailer', pass: 's3cret-smtp' },
  ) {}

  /** The messages accepted for `to`. */
  to(address: string): ReceivedMail[] {
    return this.inbox.filter((m) => m.to.includes(address.toLowerCase()));
  }

  /**
   * Listens on `port` (0: a free one). Started again after `close()` on its former `port`, it is the same
   * server back after an outage (stopped: connections are refused, RFC 5321 §3.8 treats that as a 451).
   */
  async start(port = 0) {
    this.server = new SMTPServer({
      authOptional: false,
      allowInsecureAuth: true, // loopback only; no TLS in tests
      disabledCommands: ['STARTTLS'],
      logger: false,
      onConnect: (_session, cb) => {
        if (!this.refuseConnections) return cb();
        this.transactions.push({ at: Date.now(), to: [], code: 421 });
        cb(replyError(421, 'Service not available, closing transmission channel'));
      },
      onAuth: (auth, _session, cb) => {
        if (auth.username === this.credentials.user && auth.password === this.credentials.pass) return cb(null, { user: auth.username });
        cb(replyError(535, 'Authentication credentials invalid'));
      },
      onRcptTo: (address, _session, cb) => {
        if (this.mailboxes.includes(address.address.toLowerCase())) return cb();
        this.transactions.push({ at: Date.now(), to: [address.address.toLowerCase()], code: 550 });
        cb(replyError(550, `Requested action not taken: mailbox unavailable <${address.address}>`));
      },
      onData: (stream, session, cb) => {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          const to = session.envelope.rcptTo.map((r) => r.address.toLowerCase());
          const raw = Buffer.concat(chunks).toString('utf8');
          const mail = parseMail(raw);
          if (this.tempFailures > 0) {
            this.tempFailures--;
            this.transactions.push({ at: Date.now(), to, code: 451, headers: mail.headers });
            return cb(replyError(451, 'Requested action aborted: local error in processing'));
          }
          this.transactions.push({ at: Date.now(), to, code: 250, headers: mail.headers });
          this.inbox.push({ at: Date.now(), from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '', to, user: session.user as string | undefined, raw, ...mail });
          cb();
        });
      },
    });
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, '127.0.0.1', () => resolve());
    });
    this.port = (this.server.server.address() as AddressInfo).port;
    this.url = `smtp://${this.credentials.user}:${this.credentials.pass}@127.0.0.1:${this.port}`;
    return this;
  }

  close() {
    return new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/**
 * The SMTP stand-in of a describe block, with `mailboxes`: started before its tests (an app's env function,
 * e.g. useTestApp's, can read its address), closed after them. Read `mail.smtp` in the tests.
 */
export function useSmtpStandIn(mailboxes: string[]): { smtp: SmtpStandIn } {
  const mail = {} as { smtp: SmtpStandIn };
  beforeAll(async () => {
    mail.smtp = await new SmtpStandIn(mailboxes).start();
  });
  afterAll(async () => {
    await mail.smtp?.close();
  });
  return mail;
}
