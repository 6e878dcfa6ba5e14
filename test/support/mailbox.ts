import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { until } from '@gridrocket/shared/testing/until';
import type { Client } from './http-client';

/** Quoted-printable (RFC 2045) as nodemailer writes long lines. */
function decodeQuotedPrintable(s: string): string {
  return s.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, h) => String.fromCharCode(parseInt(h, 16)));
}

/** A mail the embedded mailer wrote: its file, raw and decoded text, To and Subject. */
export interface MailFile {
  file: string;
  raw: string;
  text: string;
  to: string;
  subject: string;
}

/** Every mail written so far (embedded mail: the .eml files under DATA_DIR/mail), oldest first. */
export function mailFiles(dataDir: string): MailFile[] {
  const dir = join(dataDir, 'mail');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.eml'))
    .sort()
    .map((file) => {
      const raw = readFileSync(join(dir, file), 'utf8');
      return { file, raw, text: decodeQuotedPrintable(raw), to: /^To: (.*)$/m.exec(raw)?.[1] ?? '', subject: /^Subject: (.*)$/m.exec(raw)?.[1] ?? '' };
    });
}

/** The mails sent to `to` so far (embedded mail: .eml files under DATA_DIR/mail), raw, oldest first. */
export function mailsTo(dataDir: string, to: string): string[] {
  const dir = join(dataDir, 'mail');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.eml'))
    .sort()
    .map((f) => readFileSync(join(dir, f), 'utf8'))
    .filter((raw) => (/^To: (.*)$/m.exec(raw)?.[1] ?? '').toLowerCase() === to.toLowerCase());
}

/** The verification tokens mailed to `to`, oldest first. */
export function verifyTokens(dataDir: string, to: string): string[] {
  return mailsTo(dataDir, to)
    .flatMap((raw) => decodeQuotedPrintable(raw).match(/\/verify-email-address\?token=([A-Za-z0-9_-]+)/g) ?? [])
    .map((link) => link.slice(link.indexOf('=') + 1));
}

/** Follows the verification link mailed to `to`, as its owner would. */
export async function verifyByMail(client: Client, dataDir: string, to: string): Promise<void> {
  const token = await until(`a verification mail to ${to}`, () => verifyTokens(dataDir, to).at(-1), 10_000);
  const res = await client.post('/api/auth/verify-email', { token });
  if (res.status !== 200) throw new Error(`verify ${res.status} ${res.text}`);
}
