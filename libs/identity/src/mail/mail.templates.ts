import type { MailMessage } from './mail.port';

/** The two messages identity sends. Pure: the link comes in, the message goes out. */

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

function layout(title: string, intro: string, action: string, link: string, outro: string): string {
  return `<!doctype html>
<html><body style="font-family:system-ui,sans-serif;background:#0b1026;color:#e8ecff;padding:24px">
<h1 style="font-size:20px">${escapeHtml(title)}</h1>
<p>${escapeHtml(intro)}</p>
<p><a href="${escapeHtml(link)}" style="display:inline-block;padding:10px 16px;background:#ff7a18;color:#fff;border-radius:6px;text-decoration:none">${escapeHtml(action)}</a></p>
<p style="font-size:12px">${escapeHtml(outro)}</p>
<p style="font-size:12px">If the button does not work, paste this address into your browser:<br>${escapeHtml(link)}</p>
</body></html>`;
}

/** A message with its button: the text part says `linkLine` above the link, the HTML part is the layout. */
function linkMessage(to: string, link: string, m: { subject: string; title: string; intro: string; linkLine: string; action: string; outro: string }): MailMessage {
  return {
    to,
    subject: m.subject,
    text: `${m.intro}\n\n${m.linkLine}:\n\n${link}\n\n${m.outro}\n`,
    html: layout(m.title, m.intro, m.action, link, m.outro),
    link,
  };
}

const NEW_PASSWORD_LINE = 'Open this link to choose a new password';

/** How long a link lasts, in words: hours, or minutes below one hour. */
const ttlWords = (ttlHours: number) => (ttlHours >= 1 ? `${ttlHours} hour${ttlHours === 1 ? '' : 's'}` : `${Math.round(ttlHours * 60)} minutes`);

export function verifyEmailMessage(to: string, link: string, ttlHours: number): MailMessage {
  const intro = 'Thank you for registering with GridRocket. Please confirm your email address.';
  const outro = `This link works once and expires in ${ttlHours} hours. If you did not register, ignore this email.`;
  const linkLine = 'Open this link to verify your email address';
  return linkMessage(to, link, { subject: 'Verify your email address for GridRocket', title: 'Verify your email address', intro, linkLine, action: 'Verify email address', outro });
}

export function resetPasswordMessage(to: string, link: string, ttlHours: number): MailMessage {
  const intro = 'Somebody (hopefully you) asked to reset the password of your GridRocket account.';
  const ttl = ttlWords(ttlHours);
  const outro = `This link works once and expires in ${ttl}. Setting a new password signs you out everywhere. If you did not ask for this, ignore this email: your password stays as it is.`;
  return linkMessage(to, link, { subject: 'Reset your GridRocket password', title: 'Reset your password', intro, linkLine: NEW_PASSWORD_LINE, action: 'Choose a new password', outro });
}

/** Issue 30: someone registered with an address that has an account; its owner is told, with a reset link. */
export function registrationAttemptMessage(to: string, link: string, ttlHours: number): MailMessage {
  const intro =
    'Somebody tried to create a GridRocket account with your email address. You already have an account, so nothing was created and nobody was signed in to yours.';
  const ttl = ttlWords(ttlHours);
  const outro = `If it was you and you forgot your password, choose a new one with this link (it works once and expires in ${ttl}). If it was not you, ignore this email: your password stays as it is.`;
  const title = 'Someone tried to register with your address';
  return linkMessage(to, link, { subject: 'Someone tried to register with your email address', title, intro, linkLine: NEW_PASSWORD_LINE, action: 'Choose a new password', outro });
}

/**
 * Issue 38: what happened to the account's two-factor sign-in, told to its owner (a session thief who
 * turns it on, off, or spends a recovery code is noticed; so is a day of wrong codes). No secret, no code.
 */
export function securityNoticeMessage(to: string, link: string, event: { type: string; data: Record<string, unknown> }): MailMessage | null {
  let title: string;
  let intro: string;
  switch (event.type) {
    case 'TwoFactorEnabled':
      title = 'Two-factor sign-in was turned on';
      intro = 'Two-factor sign-in was turned on for your GridRocket account, and every other session was signed out.';
      break;
    case 'TwoFactorDisabled':
      title = 'Two-factor sign-in was turned off';
      intro = 'Two-factor sign-in was turned off for your GridRocket account: a password alone now signs in.';
      break;
    case 'TwoFactorRecoveryCodeUsed':
      title = 'A recovery code was used';
      intro = 'One of the recovery codes of your GridRocket account was used. It no longer works.';
      break;
    case 'TwoFactorCodeStepLocked': {
      const until = new Date(Number(event.data.until)).toISOString().slice(0, 16).replace('T', ' ');
      title = 'Too many wrong two-factor codes';
      intro = `${Number(event.data.failures)} wrong two-factor codes were given for your GridRocket account today, after the right password. No code is taken until ${until} UTC; a browser you told GridRocket to remember still signs in.`;
      break;
    }
    default:
      return null;
  }
  const outro = 'If this was you, there is nothing to do. If it was not, reset your password now (it signs out everywhere) and check your two-factor settings on the Security page.';
  return linkMessage(to, link, { subject: `GridRocket: ${title.toLowerCase()}`, title, intro, linkLine: 'Your Security page', action: 'Open the Security page', outro });
}
