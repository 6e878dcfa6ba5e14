import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ago } from './account/SessionsSection';
import { USER, baseRoutes, mockFetch, renderApp } from './testing/utils';

/** Issue 30: the list of sessions on My account, sign out one, sign out everywhere else. */
const NOW = Date.now();
const iso = (msAgo: number) => new Date(NOW - msAgo).toISOString();
const SESSIONS = [
  { id: 'cur-AAAAAAAAAAAAAAAAAAA', createdAt: iso(3_600_000), lastSeenAt: iso(0), browser: 'Chrome on Linux', address: '203.0.113.7', current: true },
  { id: 'ffx-BBBBBBBBBBBBBBBBBBB', createdAt: iso(86_400_000 * 2), lastSeenAt: iso(5 * 60_000), browser: 'Firefox on Windows', address: '198.51.100.4', current: false },
  { id: 'iph-CCCCCCCCCCCCCCCCCCC', createdAt: iso(86_400_000 * 9), lastSeenAt: iso(3 * 3_600_000), browser: 'Safari on iPhone', address: null, current: false },
];

function serve(initial = SESSIONS) {
  let sessions = [...initial];
  const fetch = mockFetch({
    ...baseRoutes(),
    'GET /api/sessions': () => ({ sessions }),
    'DELETE /api/sessions/*': (url: URL) => {
      const id = decodeURIComponent(url.pathname.split('/').pop()!);
      if (!sessions.some((s) => s.id === id && !s.current)) return { status: 404, body: { statusCode: 404, message: 'No such session' } };
      sessions = sessions.filter((s) => s.id !== id);
      return { status: 204 };
    },
    'POST /api/sessions/sign-out-others': () => {
      const n = sessions.filter((s) => !s.current).length;
      sessions = sessions.filter((s) => s.current);
      return { signedOut: n };
    },
  });
  return { fetch, gone: (id: string) => { sessions = sessions.filter((s) => s.id !== id); } };
}

async function list() {
  return screen.findByRole('list', { name: 'Signed-in sessions' });
}

describe('My account: sessions', () => {
  it('lists each session with its browser, sign-in time, last activity and address; this browser is marked and has no Sign out', async () => {
    serve();
    renderApp('/myaccount', { user: USER });
    const items = within(await list()).getAllByRole('listitem');
    expect(items).toHaveLength(3);
    const current = screen.getByRole('listitem', { name: 'Chrome on Linux, this browser' });
    expect(within(current).getByText('This browser')).toBeInTheDocument();
    expect(within(current).getByText('Last active now')).toBeInTheDocument();
    expect(within(current).getByText('From 203.0.113.7')).toBeInTheDocument();
    expect(within(current).queryByRole('button', { name: /Sign out/ })).toBeNull();
    const firefox = screen.getByRole('listitem', { name: 'Firefox on Windows' });
    expect(within(firefox).getByText('Last active 5 minutes ago')).toBeInTheDocument();
    expect(within(firefox).getByText('From 198.51.100.4')).toBeInTheDocument();
    expect(within(firefox).getByText(/^Signed in /)).toBeInTheDocument();
    expect(within(firefox).getByRole('button', { name: /^Sign out Firefox on Windows/ })).toBeEnabled();
    const iphone = screen.getByRole('listitem', { name: 'Safari on iPhone' });
    expect(within(iphone).getByText('Address unknown')).toBeInTheDocument();
    expect(within(iphone).getByText('Last active 3 hours ago')).toBeInTheDocument();
    // the opaque ids are not shown
    expect(document.body.textContent).not.toContain('BBBBBBBB');
  });

  it('Sign out on one session ends it (DELETE with its id) and the list drops it', async () => {
    const { fetch } = serve();
    renderApp('/myaccount', { user: USER });
    await list();
    await userEvent.click(screen.getByRole('button', { name: /^Sign out Safari on iPhone/ }));
    await waitFor(() => expect(screen.queryByRole('listitem', { name: 'Safari on iPhone' })).toBeNull());
    const call = fetch.mock.calls.find(([u, init]) => String(u).includes('/api/sessions/') && init?.method === 'DELETE')!;
    expect(String(call[0])).toContain('/api/sessions/iph-CCCCCCCCCCCCCCCCCCC');
    expect((call[1]!.headers as Record<string, string>)['X-CSRF-Token'] ?? (call[1]!.headers as Record<string, string>)['x-csrf-token']).toBe('test-csrf');
    expect(await screen.findByText('Signed out Safari on iPhone.')).toBeInTheDocument();
    expect(screen.getByRole('listitem', { name: 'Firefox on Windows' })).toBeInTheDocument();
  });

  it('a session that had already ended (404) simply leaves the list, without an error', async () => {
    const { gone } = serve();
    renderApp('/myaccount', { user: USER });
    await list();
    gone('ffx-BBBBBBBBBBBBBBBBBBB'); // ended meanwhile, elsewhere
    await userEvent.click(screen.getByRole('button', { name: /^Sign out Firefox on Windows/ }));
    await waitFor(() => expect(screen.queryByRole('listitem', { name: 'Firefox on Windows' })).toBeNull());
    expect(screen.queryByText(/Could not sign out/)).toBeNull();
  });

  it('Sign out everywhere else asks once more, then leaves only this browser', async () => {
    const { fetch } = serve();
    renderApp('/myaccount', { user: USER });
    await list();
    await userEvent.click(screen.getByRole('button', { name: 'Sign out everywhere else' }));
    const confirm = screen.getByRole('group', { name: 'Confirm sign out everywhere else' });
    expect(within(confirm).getByText('Sign out all 2 other sessions? This browser stays signed in.')).toBeInTheDocument();
    // Cancel does nothing
    await userEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(fetch.mock.calls.some(([u]) => String(u).includes('sign-out-others'))).toBe(false);
    await userEvent.click(screen.getByRole('button', { name: 'Sign out everywhere else' }));
    await userEvent.click(screen.getByRole('button', { name: 'Sign out 2 sessions' }));
    expect(await screen.findByText('Signed out 2 other sessions.')).toBeInTheDocument();
    await waitFor(() => expect(within(screen.getByRole('list', { name: 'Signed-in sessions' })).getAllByRole('listitem')).toHaveLength(1));
    expect(screen.getByText('No other browser is signed in.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Sign out everywhere else' })).toBeNull();
  });

  it('a list that cannot load says so, with Try again', async () => {
    mockFetch({ ...baseRoutes(), 'GET /api/sessions': { status: 503, body: { statusCode: 503, message: 'Service unavailable' } } });
    renderApp('/myaccount', { user: USER });
    expect(await screen.findByRole('alert')).toHaveTextContent('Could not load your sessions.');
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });

  it('ago() words the time since', () => {
    const now = Date.parse('2026-01-01T12:00:00Z');
    expect(ago('2026-01-01T11:59:30Z', now)).toBe('just now');
    expect(ago('2026-01-01T11:59:00Z', now)).toBe('1 minute ago');
    expect(ago('2026-01-01T09:00:00Z', now)).toBe('3 hours ago');
    expect(ago('2025-12-30T12:00:00Z', now)).toBe('2 days ago');
    expect(ago(null, now)).toBe('unknown');
  });
});
