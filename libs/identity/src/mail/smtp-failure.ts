/**
 * What an SMTP failure means (RFC 5321, https://www.rfc-editor.org/rfc/rfc5321):
 * - a 5yz reply is a permanent failure: "the SMTP client SHOULD NOT repeat the exact request" (§4.2.1);
 *   e.g. 550 to RCPT TO, the mailbox does not exist (§3.3, §4.2.2), or 535 to AUTH (RFC 4954 §6);
 * - a 4yz reply is transient: "the action may be requested again" (§4.2.1), after a delay (§4.5.4.1);
 *   e.g. 421 (the server is shutting down), 450/451/452;
 * - a connection that fails, closes or times out is treated "as if a 451 response had been received"
 *   (§3.8): transient as well.
 * nodemailer puts the reply's code on the error as `responseCode`. (Used by the mail outbox and the
 * alerts' e-mail sink.)
 */
export function smtpFailure(err: unknown): { permanent: boolean; code: number | null; error: string } {
  const e = (err ?? {}) as { responseCode?: unknown; code?: unknown; name?: unknown };
  const code = typeof e.responseCode === 'number' && e.responseCode >= 400 && e.responseCode < 600 ? e.responseCode : null;
  if (code !== null && code >= 500) return { permanent: true, code, error: `The mail server refused the message (${code})` };
  if (code !== null) return { permanent: false, code, error: `The mail server could not take the message now (${code})` };
  return { permanent: false, code: null, error: `The mail server did not answer (${String(e.code ?? e.name ?? 'no answer')})` };
}
