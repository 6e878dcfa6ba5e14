/** What the sign-in popup tells the dashboard that opened it. */
export interface PopupOutcome {
  type: 'gridrocket:auth';
  ok: boolean;
  error?: string;
  /** The provider vouched for the person, and the account asks for its two-factor code next (issue 30). */
  twoFactorRequired?: boolean;
}

/** JSON that is safe inside a <script> element. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/**
 * The page the popup ends on: it posts the outcome to `window.opener`,
 * restricted to our own origin (so no other site that opened the popup hears
 * it), and closes. Opened without an opener, it goes on to the dashboard
 * itself (bots on success, sign-in on failure).
 */
export function popupPage(outcome: { ok: boolean; error?: string; twoFactorRequired?: boolean }, publicUrl: string, nonce: string): string {
  const message: PopupOutcome = outcome.ok
    ? { type: 'gridrocket:auth', ok: true }
    : outcome.twoFactorRequired
      ? { type: 'gridrocket:auth', ok: false, twoFactorRequired: true, error: 'Enter the 6-digit code from your authenticator app' }
      : { type: 'gridrocket:auth', ok: false, error: outcome.error ?? 'Sign-in failed' };
  const origin = new URL(publicUrl).origin;
  const next = `${publicUrl}${outcome.ok ? '/bots' : outcome.twoFactorRequired ? '/sign-in?step=code' : '/sign-in'}`;
  const text = outcome.ok ? 'Signed in. You can close this window.' : (message.error as string);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>GridRocket sign-in</title>
<style>body{font-family:system-ui,sans-serif;background:#0b1026;color:#e8ecff;display:grid;place-items:center;min-height:90vh}a{color:#ff9a4d}</style>
</head><body>
<main><p id="outcome">${escapeHtml(text)}</p><p><a href="${escapeHtml(next)}">Continue to GridRocket</a></p></main>
<script nonce="${nonce}">
(function () {
  var message = ${scriptJson(message)};
  var origin = ${scriptJson(origin)};
  var next = ${scriptJson(next)};
  if (window.opener && !window.opener.closed) {
    try { window.opener.postMessage(message, origin); } catch (e) {}
    window.close();
  } else if (message.ok) {
    window.location.replace(next);
  }
})();
</script>
</body></html>
`;
}
