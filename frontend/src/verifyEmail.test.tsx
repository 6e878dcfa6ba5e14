import { screen, waitFor } from '@testing-library/react';
import { socketModuleMock } from './testing/fakeSocket';
import { baseRoutes, mockFetch, renderApp, USER } from './testing/utils';
import type { User } from './api/types';

jest.mock('./api/socket', () => socketModuleMock());

afterEach(() => window.localStorage.clear());

/**
 * Issue 40, point 10: a verification link opened in another browser (no session there) verified the
 * address and then stored the verified account as this browser's user: a signed-in shell with no session,
 * whose every call was 401. The link verifies and says who to be: sign in, or that another account is
 * signed in here.
 */
const BOB: User = { uid: 'u-2', displayName: 'Bob', email: 'bob@example.com', emailVerified: true, photoURL: null };
const stored = () => JSON.parse(window.localStorage.getItem('user') ?? 'null') as User | null;

describe('the verification link (issue 40, point 10)', () => {
  it('in a browser with no session: verified, "sign in", and no signed-in shell', async () => {
    const fetch = mockFetch({ ...baseRoutes(null), 'GET /api/auth/csrf': { token: 't' }, 'POST /api/auth/verify-email': BOB });
    renderApp('/verify-email-address?token=tok-1', { user: null });
    expect(await screen.findByRole('heading', { name: 'Email address verified' })).toBeInTheDocument();
    expect(screen.getByText('bob@example.com')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/sign-in');
    // signed out: the navbar offers Login, not Logout, and nothing was stored as this browser's user
    expect(screen.getByRole('button', { name: 'Login' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Logout' })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Go to my bots' })).not.toBeInTheDocument();
    expect(stored()).toBeNull();
    const calls = fetch.mock.calls.map(([u]) => String(u));
    expect(calls).toContain('/api/auth/verify-email');
    expect(calls.filter((u) => u.startsWith('/api/bots'))).toEqual([]);
  });

  it('a stored user whose session is gone is dropped, not replaced by the verified account', async () => {
    mockFetch({ ...baseRoutes(null), 'GET /api/auth/csrf': { token: 't' }, 'POST /api/auth/verify-email': BOB });
    renderApp('/verify-email-address?token=tok-2', { user: { ...BOB, emailVerified: false } });
    expect(await screen.findByRole('heading', { name: 'Email address verified' })).toBeInTheDocument();
    expect(await screen.findByRole('link', { name: 'Sign in' })).toBeInTheDocument();
    await waitFor(() => expect(stored()).toBeNull());
  });

  it('signed in here as another account: says so, and keeps that account', async () => {
    mockFetch({ ...baseRoutes(USER), 'GET /api/auth/csrf': { token: 't' }, 'POST /api/auth/verify-email': BOB });
    renderApp('/verify-email-address?token=tok-3', { user: USER });
    expect(await screen.findByRole('heading', { name: 'Email address verified' })).toBeInTheDocument();
    expect(screen.getByTestId('verified-other-account')).toHaveTextContent(
      'bob@example.com is confirmed. You are signed in here as ada@example.com, another account: sign out first to use the verified one in this browser.',
    );
    expect(stored()?.uid).toBe('u-1');
    expect(screen.getByRole('button', { name: 'Logout' })).toBeInTheDocument();
  });

  it('signed in here as the verified account: refreshed as verified, on to the bots', async () => {
    const unverified = { ...USER, emailVerified: false };
    mockFetch({ ...baseRoutes(unverified), 'GET /api/auth/csrf': { token: 't' }, 'POST /api/auth/verify-email': USER });
    renderApp('/verify-email-address?token=tok-4', { user: unverified });
    expect(await screen.findByRole('heading', { name: 'Email address verified' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to my bots' })).toHaveAttribute('href', '/bots');
    await waitFor(() => expect(stored()).toMatchObject({ uid: 'u-1', emailVerified: true }));
  });
});
