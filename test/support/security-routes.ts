/**
 * The routes the security suites (test/security-csrf.spec.ts, test/security-fuzz.spec.ts) look for in the
 * OpenAPI document beside the older ones: those of issues 30 to 32 (sessions, two-factor, tokens, signals,
 * templates). The CSRF suite looks for the state-changing ones (`changingState`), the fuzzer for all.
 */

/** The one route without CSRF or session (issue 32): a bot's signal webhook, signed with the bot's secret. */
export const SIGNAL_ROUTE = '/api/signals/{botId}';

export const ROUTES_OF_ISSUES_30_TO_32: ReadonlyArray<{ method: string; path: string }> = [
  // issue 30: the user's sessions
  { method: 'GET', path: '/api/sessions' },
  { method: 'POST', path: '/api/sessions/sign-out-others' },
  { method: 'DELETE', path: '/api/sessions/{id}' },
  // two-factor sign-in (issue 30)
  ...['GET /api/auth/2fa', 'POST /api/auth/2fa/setup', 'POST /api/auth/2fa/enable', 'POST /api/auth/2fa/disable', 'POST /api/auth/2fa/verify'].map((s) => ({ method: s.split(' ')[0], path: s.split(' ')[1] })),
  // issue 31: personal access tokens
  { method: 'GET', path: '/api/tokens' },
  { method: 'POST', path: '/api/tokens' },
  { method: 'DELETE', path: '/api/tokens/{id}' },
  // issue 32: signed signals, the settings and the webhook
  { method: 'GET', path: '/api/bots/{id}/signals' },
  { method: 'POST', path: '/api/bots/{id}/signals' },
  { method: 'POST', path: '/api/bots/{id}/signals/rotate' },
  { method: 'DELETE', path: '/api/bots/{id}/signals' },
  { method: 'POST', path: SIGNAL_ROUTE },
  // issue 32: bot templates
  { method: 'GET', path: '/api/bot-templates' },
  { method: 'POST', path: '/api/bot-templates' },
  { method: 'GET', path: '/api/bot-templates/{id}' },
  { method: 'DELETE', path: '/api/bot-templates/{id}' },
];

/** The ones that change state (every method but GET). */
export const changingState = (routes: ReadonlyArray<{ method: string; path: string }>) => routes.filter((r) => r.method !== 'GET');
