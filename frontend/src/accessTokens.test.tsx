import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { USER, baseRoutes, mockFetch, renderApp } from './testing/utils';

/** Issue 31: personal access tokens on My account: make one (shown once), see its last use, revoke it. */
const NOW = Date.now();
const iso = (msFromNow: number) => new Date(NOW + msFromNow).toISOString();
const DAY = 86_400_000;
const TOKENS = [
  { id: 't-1', name: 'nightly rebalance', scopes: ['read', 'trade'], createdAt: iso(-10 * DAY), expiresAt: iso(20 * DAY), expired: false, lastUsedAt: iso(-5 * 60_000), useCount: 42 },
  { id: 't-2', name: 'old poller', scopes: ['read'], createdAt: iso(-40 * DAY), expiresAt: iso(-10 * DAY), expired: true, lastUsedAt: null, useCount: 0 },
];
const SECRET = 'grt_' + 'S'.repeat(43);

function serve(options: { quotaFull?: boolean } = {}) {
  let tokens = [...TOKENS];
  const fetch = mockFetch({
    ...baseRoutes(),
    'GET /api/sessions': { sessions: [] },
    'GET /api/tokens': () => ({ tokens }),
    'POST /api/tokens': (_url: URL, init: RequestInit) => {
      const body = JSON.parse(String(init.body));
      if (options.quotaFull) return { status: 409, body: { statusCode: 409, message: 'You have 10 active access tokens, the most allowed: revoke one you no longer use first' } };
      if (!body.name) return { status: 400, body: { statusCode: 400, message: 'Invalid input', errors: [{ field: 'name', message: 'Name is required' }] } };
      const made = { id: 't-new', name: body.name, scopes: body.scopes, createdAt: iso(0), expiresAt: iso(body.expiresInDays * DAY), expired: false, lastUsedAt: null, useCount: 0 };
      tokens = [made, ...tokens];
      return { status: 201, body: { ...made, token: SECRET } };
    },
    'DELETE /api/tokens/*': (url: URL) => {
      const id = decodeURIComponent(url.pathname.split('/').pop()!);
      if (!tokens.some((t) => t.id === id)) return { status: 404, body: { statusCode: 404, message: 'No such access token' } };
      tokens = tokens.filter((t) => t.id !== id);
      return { status: 204 };
    },
  });
  return fetch;
}

const list = () => screen.findByRole('list', { name: 'Access tokens' });

describe('My account: access tokens', () => {
  it('lists each token with its scopes, expiry and last use; an expired one is marked', async () => {
    serve();
    renderApp('/myaccount', { user: USER });
    await list();
    const used = screen.getByRole('listitem', { name: 'nightly rebalance' });
    expect(within(used).getByText('read')).toBeInTheDocument();
    expect(within(used).getByText('trade')).toBeInTheDocument();
    expect(within(used).getByText('Last used 5 minutes ago, 42 times')).toBeInTheDocument();
    expect(within(used).getByText(/^Expires /)).toBeInTheDocument();
    const old = screen.getByRole('listitem', { name: 'old poller' });
    expect(within(old).getByText('Expired', { selector: '.badge' })).toBeInTheDocument();
    expect(within(old).getByText('Never used')).toBeInTheDocument();
  });

  it('New token: name, scopes and lifetime are sent with the CSRF header; the token is shown once, then only its name stays', async () => {
    const fetch = serve();
    renderApp('/myaccount', { user: USER });
    await list();
    await userEvent.click(screen.getByRole('button', { name: 'New token' }));
    const form = screen.getByRole('form', { name: 'New access token' });
    await userEvent.type(within(form).getByLabelText('Name'), 'grid script');
    await userEvent.click(within(form).getByRole('checkbox', { name: /Trade/ }));
    await userEvent.selectOptions(within(form).getByLabelText('Expires after'), '90');
    await userEvent.click(within(form).getByRole('button', { name: 'Create token' }));
    const shown = await screen.findByRole('group', { name: 'Your new token' });
    expect(within(shown).getByLabelText('New token')).toHaveTextContent(SECRET);
    expect(within(shown).getByText(/it is not shown again/)).toBeInTheDocument();
    const call = fetch.mock.calls.find(([u, init]) => String(u).endsWith('/api/tokens') && init?.method === 'POST')!;
    expect(JSON.parse(String(call[1]!.body))).toEqual({ name: 'grid script', scopes: ['read', 'trade'], expiresInDays: 90 });
    const headers = call[1]!.headers as Record<string, string>;
    expect(headers['X-CSRF-Token'] ?? headers['x-csrf-token']).toBe('test-csrf');
    expect(await screen.findByRole('listitem', { name: 'grid script' })).toBeInTheDocument();
    await userEvent.click(within(shown).getByRole('button', { name: 'I have copied it' }));
    expect(screen.queryByRole('group', { name: 'Your new token' })).toBeNull();
    expect(document.body.textContent).not.toContain(SECRET);
  });

  it('a token without a name or scope is not sent; the quota refusal is shown by the form', async () => {
    const fetch = serve({ quotaFull: true });
    renderApp('/myaccount', { user: USER });
    await list();
    await userEvent.click(screen.getByRole('button', { name: 'New token' }));
    const form = screen.getByRole('form', { name: 'New access token' });
    await userEvent.click(within(form).getByRole('checkbox', { name: /Read/ })); // now no scope at all
    await userEvent.click(within(form).getByRole('button', { name: 'Create token' }));
    expect(within(form).getByText('Give the token a name, such as the script that uses it')).toBeInTheDocument();
    expect(within(form).getByText('Choose at least one scope')).toBeInTheDocument();
    expect(fetch.mock.calls.some(([u, init]) => String(u).endsWith('/api/tokens') && init?.method === 'POST')).toBe(false);
    await userEvent.type(within(form).getByLabelText('Name'), 'one too many');
    await userEvent.click(within(form).getByRole('checkbox', { name: /Read/ }));
    await userEvent.click(within(form).getByRole('button', { name: 'Create token' }));
    expect(await within(form).findByTestId('token-refusal')).toHaveTextContent('revoke one you no longer use first');
  });

  it('Revoke asks first, then the token leaves the list', async () => {
    const fetch = serve();
    renderApp('/myaccount', { user: USER });
    await list();
    await userEvent.click(screen.getByRole('button', { name: 'Revoke nightly rebalance' }));
    const dialog = screen.getByRole('alertdialog');
    expect(within(dialog).getByText('Revoke “nightly rebalance”? Scripts using it are refused at once.')).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Yes' }));
    await waitFor(() => expect(screen.queryByRole('listitem', { name: 'nightly rebalance' })).toBeNull());
    expect(fetch.mock.calls.some(([u, init]) => String(u).endsWith('/api/tokens/t-1') && init?.method === 'DELETE')).toBe(true);
    expect(await screen.findByText('Revoked nightly rebalance. Scripts using it are refused from now on.')).toBeInTheDocument();
  });
});
