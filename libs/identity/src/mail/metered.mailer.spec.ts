import type { OpsMeter } from '@gridrocket/shared/runtime';
import type { MailMessage, Mailer } from './mail.port';
import { registrationAttemptMessage, resetPasswordMessage, verifyEmailMessage } from './mail.templates';
import { MAIL_KINDS, mailKind, meteredMailer } from './metered.mailer';

/** What the meter was told, as the metric's series would read. */
function recordingMeter() {
  const counts = new Map<string, number>();
  const meter: OpsMeter = {
    mailSent: (kind, outcome) => counts.set(`${kind}/${outcome}`, (counts.get(`${kind}/${outcome}`) ?? 0) + 1),
    alertDelivered: () => undefined,
    declareMailKinds: (kinds) => kinds.forEach((k) => ['sent', 'failed'].forEach((o) => counts.set(`${k}/${o}`, counts.get(`${k}/${o}`) ?? 0))),
    declareAlertOutcomes: () => undefined,
  };
  return { meter, counts };
}

describe('the metered mailer (gridrocket_mail_sent_total)', () => {
  const base = 'https://gridrocket.example';

  it('tells each kind of mail the product sends', () => {
    expect(mailKind(verifyEmailMessage('a@example.com', `${base}/verify-email-address?token=t`, 24))).toBe('verification');
    expect(mailKind(resetPasswordMessage('a@example.com', `${base}/reset-password?token=t`, 1))).toBe('reset');
    expect(mailKind(registrationAttemptMessage('a@example.com', `${base}/reset-password?token=t`, 1))).toBe('registration-attempt');
    expect(mailKind({ to: 'a@example.com', subject: 'Bot stopped', text: '', html: '', headers: { 'X-GridRocket-Delivery': 'e1:email' } })).toBe('alert');
    expect(mailKind({ to: 'a@example.com', subject: 'Hello', text: '', html: '', link: 'not a url' })).toBe('other');
  });

  it('has every kind at 0 before the first mail, counts a sent mail, and a failed one without swallowing its error', async () => {
    const { meter, counts } = recordingMeter();
    let refuse = false;
    const sent: MailMessage[] = [];
    const inner: Mailer = {
      kind: 'smtp',
      async send(message) {
        if (refuse) throw new Error('421 Service not available');
        sent.push(message);
      },
    };
    const mailer = meteredMailer(inner, meter);
    expect(mailer.kind).toBe('smtp');
    expect([...counts.entries()].filter(([, n]) => n !== 0)).toEqual([]);
    expect(counts.size).toBe(MAIL_KINDS.length * 2);

    const verify = verifyEmailMessage('a@example.com', `${base}/verify-email-address?token=t`, 24);
    await mailer.send(verify);
    expect(sent).toEqual([verify]);
    refuse = true;
    await expect(mailer.send(resetPasswordMessage('a@example.com', `${base}/reset-password?token=t`, 1))).rejects.toThrow('421');
    expect(counts.get('verification/sent')).toBe(1);
    expect(counts.get('reset/failed')).toBe(1);
    expect(counts.get('reset/sent')).toBe(0);
  });
});
