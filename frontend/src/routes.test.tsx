import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { socketModuleMock } from './testing/fakeSocket';
import { baseRoutes, CONFIG, mockFetch, renderApp, USER } from './testing/utils';

jest.mock('./api/socket', () => socketModuleMock());

afterEach(() => window.localStorage.clear());

describe('guards and redirects (spec section 2)', () => {
  it.each(['/bots', '/dashboard', '/security', '/myaccount'])('%s without login goes to sign-in', async (path) => {
    mockFetch(baseRoutes(null));
    renderApp(path, { user: null });
    expect(await screen.findByTestId('location')).toHaveTextContent('/sign-in');
    expect(screen.getByRole('heading', { name: 'Create a free account!' })).toBeInTheDocument();
  });

  it.each(['/sign-in', '/register-user'])('%s when logged in goes to dashboard', async (path) => {
    mockFetch({ ...baseRoutes(), 'GET /api/bots/u-1': [] });
    renderApp(path, { user: USER });
    expect(await screen.findByRole('heading', { name: 'User Profile' })).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent('/dashboard');
  });

  it.each(['/no-such-page', '/', '/bots/extra/deep'])('unknown path %s redirects to home', async (path) => {
    mockFetch(baseRoutes(null));
    renderApp(path, { user: null });
    expect(await screen.findByRole('heading', { name: 'How it works' })).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent('/home');
  });

  it.each([
    ['/forgot-password', 'Reset Password'],
    ['/verify-email-address', 'Thank You for Registering'],
    ['/privacypolicy', 'Privacy policy'],
    ['/termsofservice', 'Terms of Use'],
    ['/faq', 'Frequently asked questions'],
    ['/home', 'How it works'],
  ])('%s is open to anyone', async (path, heading) => {
    mockFetch(baseRoutes(null));
    renderApp(path, { user: null });
    expect(await screen.findByRole('heading', { name: heading })).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent(path);
  });

  it('a stale stored user is signed out when the server says 401', async () => {
    mockFetch(baseRoutes(null));
    renderApp('/dashboard', { user: USER });
    // the page renders at /dashboard first: wait for the 401 to send it to sign-in (a CI run caught
    // the location before the answer, with findByTestId alone)
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/sign-in'));
    expect(JSON.parse(window.localStorage.getItem('user')!)).toBeNull();
  });

  it('email login success goes to bots and stores the user', async () => {
    const fetch = mockFetch({ ...baseRoutes(null), 'POST /api/auth/login': USER, 'GET /api/bots/u-1': [] });
    renderApp('/sign-in', { user: null });
    await userEvent.type(screen.getByLabelText('Email'), 'ada@example.com');
    await userEvent.type(screen.getByLabelText('Password'), 'correct-horse');
    await userEvent.click(within(screen.getByRole('form', { name: 'Login' })).getByRole('button', { name: 'Login' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/bots'));
    expect(JSON.parse(window.localStorage.getItem('user')!).uid).toBe('u-1');
    const call = fetch.mock.calls.find(([u]) => String(u).includes('/api/auth/login'))!;
    expect(JSON.parse(String(call[1]!.body))).toEqual({ email: 'ada@example.com', password: 'correct-horse' });
    expect((call[1]!.headers as Record<string, string>)['X-CSRF-Token']).toBe('test-csrf');
  });

  it('a failed login shows the server message in an alert', async () => {
    mockFetch({ ...baseRoutes(null), 'POST /api/auth/login': { status: 401, body: { statusCode: 401, message: 'Wrong email or password' } } });
    renderApp('/sign-in', { user: null });
    await userEvent.type(screen.getByLabelText('Email'), 'ada@example.com');
    await userEvent.type(screen.getByLabelText('Password'), 'wrong-password');
    await userEvent.click(within(screen.getByRole('form', { name: 'Login' })).getByRole('button', { name: 'Login' }));
    expect(await screen.findByTestId('alert-message')).toHaveTextContent('Wrong email or password');
    expect(screen.getByTestId('location')).toHaveTextContent('/sign-in');
  });

  it('429 shows a clear wait message from Retry-After', async () => {
    mockFetch({ ...baseRoutes(null), 'POST /api/auth/login': { status: 429, body: { statusCode: 429, message: 'Too Many Requests' }, headers: { 'Retry-After': '30' } } });
    renderApp('/sign-in', { user: null });
    await userEvent.type(screen.getByLabelText('Email'), 'ada@example.com');
    await userEvent.type(screen.getByLabelText('Password'), 'whatever-pass');
    await userEvent.click(within(screen.getByRole('form', { name: 'Login' })).getByRole('button', { name: 'Login' }));
    expect(await screen.findByTestId('alert-message')).toHaveTextContent('Too many attempts. Please wait 30 seconds and try again.');
  });

  it('registration success goes to /myaccount', async () => {
    mockFetch({ ...baseRoutes(null), 'POST /api/auth/register': { status: 201, body: { ...USER, emailVerified: false } } });
    renderApp('/register-user', { user: null });
    await userEvent.type(screen.getByLabelText('Email'), 'ada@example.com');
    await userEvent.type(screen.getByLabelText('Password'), 'correct-horse');
    await userEvent.type(screen.getByLabelText('Repeat password'), 'correct-horse');
    await userEvent.click(screen.getByRole('button', { name: 'Register' }));
    expect(await screen.findByRole('heading', { name: 'Profile' })).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent('/myaccount');
  });

  it('logout goes to /home', async () => {
    mockFetch({ ...baseRoutes(), 'POST /api/auth/logout': { status: 204 } });
    renderApp('/dashboard', { user: USER });
    await userEvent.click(await screen.findByRole('button', { name: 'Logout' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/home'));
    expect(JSON.parse(window.localStorage.getItem('user')!)).toBeNull();
    expect(screen.getByRole('button', { name: 'Login' })).toBeInTheDocument();
  });

  it('sign-in links lead to /forgot-password and /register-user', async () => {
    mockFetch(baseRoutes(null));
    renderApp('/sign-in', { user: null });
    expect(screen.getByRole('link', { name: 'send email' })).toHaveAttribute('href', '/forgot-password');
    expect(screen.getByRole('link', { name: 'Register' })).toHaveAttribute('href', '/register-user');
  });

  it('footer and home use the configured links', async () => {
    mockFetch(baseRoutes(null));
    renderApp('/home', { user: null });
    expect(await screen.findByText(CONFIG.contactEmail)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /Sign up at Binance/ })).toHaveAttribute('href', CONFIG.exchangeSignup.binance);
    expect(screen.getByRole('link', { name: /Sign up at Kucoin/ })).toHaveAttribute('href', CONFIG.exchangeSignup.kucoin);
    expect(screen.getByRole('link', { name: 'FAQ' })).toHaveAttribute('href', '/faq');
    expect(screen.getByRole('link', { name: 'Privacy policy' })).toHaveAttribute('href', '/privacypolicy');
    expect(screen.getByRole('link', { name: 'Terms of service' })).toHaveAttribute('href', '/termsofservice');
    expect(screen.getByText(/© 2025/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /GitHub/ })).toHaveAttribute('href', CONFIG.social.github);
    // facebook is not configured: it is not offered at all; google is
    expect(screen.queryByRole('button', { name: /Facebook/ })).not.toBeInTheDocument();
    expect(screen.getAllByRole('button', { name: /Google/ }).length).toBeGreaterThan(0);
  });

  it('the login dialog switches between its three panels', async () => {
    mockFetch(baseRoutes(null));
    renderApp('/home', { user: null });
    await userEvent.click(screen.getByRole('button', { name: 'Login' }));
    const dialog = await screen.findByRole('dialog', { name: 'Login' });
    expect(dialog).toBeInTheDocument();
    expect(within(dialog).getByRole('form', { name: 'Login' })).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Register' }));
    const reg = screen.getByRole('dialog', { name: 'Create a free account!' });
    expect(within(reg).getByLabelText('Repeat password')).toBeInTheDocument();
    await userEvent.click(within(reg).getByRole('button', { name: 'Login' }));
    await userEvent.click(within(screen.getByRole('dialog', { name: 'Login' })).getByRole('button', { name: 'send email' }));
    expect(screen.getByRole('dialog', { name: 'Reset Password' })).toBeInTheDocument();
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('a signed-out visitor with no stored user is not asked for: no /api/auth/me, so no 401', async () => {
    const fetch = mockFetch(baseRoutes(null));
    renderApp('/home', { user: null });
    expect(await screen.findByRole('heading', { name: 'How it works' })).toBeInTheDocument();
    await new Promise((r) => setTimeout(r, 50));
    expect(fetch.mock.calls.map(([u]) => String(u))).not.toContain('/api/auth/me');
  });

  it('a verified, signed-in user opening a used verify link is told kindly that all is done', async () => {
    mockFetch({
      ...baseRoutes(USER),
      'POST /api/auth/verify-email': { status: 400, body: { statusCode: 400, message: 'This link was already used' } },
      'GET /api/auth/csrf': { token: 't' },
    });
    renderApp('/verify-email-address?token=used', { user: USER });
    expect(await screen.findByRole('heading', { name: 'Your email address is already verified' })).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Sign in' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to my bots' })).toHaveAttribute('href', '/bots');
  });
});
