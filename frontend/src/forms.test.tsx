import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { socketModuleMock } from './testing/fakeSocket';
import { baseRoutes, mockFetch, renderApp, USER } from './testing/utils';

jest.mock('./api/socket', () => socketModuleMock());

afterEach(() => window.localStorage.clear());

/** Renders `route` signed out and returns its form named `name`. */
const openSignedOut = (route: string, name: string) => {
  renderApp(route, { user: null });
  return within(screen.getByRole('form', { name }));
};

describe('login form (spec section 5)', () => {
  beforeEach(() => mockFetch(baseRoutes(null)));

  it('shows nothing before a submit, then the required messages', async () => {
    const f = openSignedOut('/sign-in', 'Login');
    expect(f.queryByText('Email is required')).not.toBeInTheDocument();
    await userEvent.click(f.getByRole('button', { name: 'Login' }));
    expect(f.getByText('Email is required')).toBeInTheDocument();
    expect(f.getByText('Password is required')).toBeInTheDocument();
    expect(f.getByLabelText('Email')).toHaveAttribute('aria-invalid', 'true');
  });

  it('shows the minimum-length messages', async () => {
    const f = openSignedOut('/sign-in', 'Login');
    await userEvent.type(f.getByLabelText('Email'), 'a@b');
    await userEvent.type(f.getByLabelText('Password'), 'short');
    await userEvent.click(f.getByRole('button', { name: 'Login' }));
    expect(f.getByText('Email must be at least 5 characters')).toBeInTheDocument();
    expect(f.getByText('Password must be at least 8 characters')).toBeInTheDocument();
  });
});

describe('register form', () => {
  beforeEach(() => mockFetch(baseRoutes(null)));

  it('requires every field and the same password twice', async () => {
    const f = openSignedOut('/register-user', 'Register');
    expect(f.queryByText('Passwords must match')).not.toBeInTheDocument();
    await userEvent.click(f.getByRole('button', { name: 'Register' }));
    expect(f.getByText('Email is required')).toBeInTheDocument();
    expect(f.getAllByText('Password is required')).toHaveLength(2);
    await userEvent.type(f.getByLabelText('Email'), 'ada@example.com');
    await userEvent.type(f.getByLabelText('Password'), 'correct-horse');
    await userEvent.type(f.getByLabelText('Repeat password'), 'correct-hors');
    expect(f.getByText('Passwords must match')).toBeInTheDocument();
    await userEvent.type(f.getByLabelText('Repeat password'), 'e');
    expect(f.queryByText('Passwords must match')).not.toBeInTheDocument();
  });
});

describe('forgot-password form', () => {
  it('validates and then alerts that the mail was sent', async () => {
    const fetch = mockFetch({ ...baseRoutes(null), 'POST /api/auth/forgot-password': { status: 202 } });
    const f = openSignedOut('/forgot-password', 'Reset Password');
    await userEvent.click(f.getByRole('button', { name: 'Reset Password' }));
    expect(f.getByText('Email is required')).toBeInTheDocument();
    await userEvent.type(f.getByLabelText('Email'), 'a@b');
    expect(f.getByText('Email must be at least 5 characters')).toBeInTheDocument();
    await userEvent.type(f.getByLabelText('Email'), '.co');
    await userEvent.click(f.getByRole('button', { name: 'Reset Password' }));
    expect(await screen.findByTestId('alert-message')).toHaveTextContent('Password reset email sent, check your inbox.');
    expect(fetch.mock.calls.some(([u]) => String(u) === '/api/auth/forgot-password')).toBe(true);
    expect(screen.getByRole('link', { name: 'Log In' })).toHaveAttribute('href', '/sign-in');
  });
});

describe('reset-password screen', () => {
  it('checks the new password and posts it with the token', async () => {
    const fetch = mockFetch({ ...baseRoutes(null), 'POST /api/auth/reset-password': {} });
    const f = openSignedOut('/reset-password?token=tok123', 'Choose a new password');
    await userEvent.click(f.getByRole('button', { name: 'Save new password' }));
    expect(f.getAllByText('Password is required')).toHaveLength(2);
    await userEvent.type(f.getByLabelText('New password'), 'brand-new-pass');
    await userEvent.type(f.getByLabelText('Repeat new password'), 'brand-new-pasS');
    expect(f.getByText('Passwords must match')).toBeInTheDocument();
    await userEvent.clear(f.getByLabelText('Repeat new password'));
    await userEvent.type(f.getByLabelText('Repeat new password'), 'brand-new-pass');
    await userEvent.click(f.getByRole('button', { name: 'Save new password' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/sign-in'));
    const call = fetch.mock.calls.find(([u]) => String(u) === '/api/auth/reset-password')!;
    expect(JSON.parse(String(call[1]!.body))).toEqual({ token: 'tok123', password: 'brand-new-pass' });
  });
});

describe('API key form (security page)', () => {
  it('shows the spec messages and the passphrase only for Kucoin', async () => {
    const fetch = mockFetch({
      ...baseRoutes(),
      'GET /api/api-credentials/u-1': [],
      'POST /api/api-credentials': { status: 201, body: { id: 'c1', exchange: 'Kucoin', apikeyid: 'pubkey-123' } },
    });
    renderApp('/security', { user: USER });
    await userEvent.click(await screen.findByRole('button', { name: 'Add API Keys' }));
    const dialog = screen.getByRole('dialog', { name: 'Add api keys' });
    const f = within(dialog).getByRole('form', { name: 'Add api keys' });
    expect(within(f).queryByLabelText('Passphrase')).not.toBeInTheDocument();
    await userEvent.click(within(f).getByRole('button', { name: 'Save' }));
    expect(within(f).getByText('Exchange is required')).toBeInTheDocument();
    expect(within(f).getByText('API Key is required')).toBeInTheDocument();
    expect(within(f).getByText('Secret Key is required')).toBeInTheDocument();
    await userEvent.selectOptions(within(f).getByLabelText('Exchange'), 'Kucoin');
    expect(within(f).getByLabelText('Passphrase')).toBeInTheDocument();
    await userEvent.type(within(f).getByLabelText('API Key'), 'abcd');
    await userEvent.type(within(f).getByLabelText('Secret Key'), 'short');
    await userEvent.type(within(f).getByLabelText('Passphrase'), 'abc');
    expect(within(f).getByText('API key must be at least 5 characters')).toBeInTheDocument();
    expect(within(f).getByText('Secret Key number must be at least 12 characters')).toBeInTheDocument();
    expect(within(f).getByText('Passphrase must be at least 4 characters')).toBeInTheDocument();
    await userEvent.type(within(f).getByLabelText('API Key'), 'e');
    await userEvent.type(within(f).getByLabelText('Secret Key'), '-secret-key');
    await userEvent.type(within(f).getByLabelText('Passphrase'), 'd');
    await userEvent.click(within(f).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('API Key successfully added!')).toBeInTheDocument();
    const call = fetch.mock.calls.find(([u, i]) => String(u) === '/api/api-credentials' && i?.method === 'POST')!;
    expect(JSON.parse(String(call[1]!.body))).toEqual({
      access: { exchange: 'Kucoin', apiKey: 'abcde', keySecret: 'short-secret-key', passPhrase: 'abcd', userId: 'u-1' },
    });
    expect(screen.queryByRole('dialog', { name: 'Add api keys' })).not.toBeInTheDocument();
  });

  it('sends an empty passphrase for Binance and reports a failure', async () => {
    const fetch = mockFetch({
      ...baseRoutes(),
      'GET /api/api-credentials/u-1': [],
      'POST /api/api-credentials': { status: 400, body: { statusCode: 400, message: 'Bad key' } },
    });
    renderApp('/security', { user: USER });
    await userEvent.click(await screen.findByRole('button', { name: 'Add API Keys' }));
    const f = screen.getByRole('form', { name: 'Add api keys' });
    await userEvent.selectOptions(within(f).getByLabelText('Exchange'), 'Binance');
    expect(within(f).queryByLabelText('Passphrase')).not.toBeInTheDocument();
    await userEvent.type(within(f).getByLabelText('API Key'), 'abcde');
    await userEvent.type(within(f).getByLabelText('Secret Key'), 'abcdefghijkl');
    await userEvent.click(within(f).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Error creating API Key!')).toBeInTheDocument();
    const call = fetch.mock.calls.find(([u, i]) => String(u) === '/api/api-credentials' && i?.method === 'POST')!;
    expect(JSON.parse(String(call[1]!.body)).access.passPhrase).toBe('');
  });

  it('lists keys and removes one after "Remove selected API keys?"', async () => {
    let keys = [{ id: 'c1', exchange: 'Binance', apikeyid: 'pub-1' }];
    mockFetch({
      ...baseRoutes(),
      'GET /api/api-credentials/u-1': () => keys,
      'DELETE /api/api-credentials/c1': () => {
        keys = [];
        return { status: 204 };
      },
    });
    renderApp('/security', { user: USER });
    expect(await screen.findByText('pub-1')).toBeInTheDocument();
    expect(screen.getByRole('columnheader', { name: 'Exchange' })).toBeInTheDocument();
    expect(screen.getByRole('columnheader', { name: 'API Id' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: /Remove Binance API key/ }));
    const dlg = screen.getByRole('alertdialog');
    expect(within(dlg).getByText('Remove selected API keys?')).toBeInTheDocument();
    await userEvent.click(within(dlg).getByRole('button', { name: 'Yes' }));
    expect(await screen.findByText('API Key successfully deleted!')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText('pub-1')).not.toBeInTheDocument());
  });

  it('a key a running bot uses is not deleted: the 409 naming the bot stays on the page, the key stays listed (issue 29)', async () => {
    const message = 'This API key is used by a running bot: BTCUSDT spot bot 1234abcd. Stop it before deleting the key.';
    mockFetch({
      ...baseRoutes(),
      'GET /api/api-credentials/u-1': () => [{ id: 'c1', exchange: 'Binance', apikeyid: 'pub-1' }],
      'DELETE /api/api-credentials/c1': { status: 409, body: { statusCode: 409, message } },
    });
    renderApp('/security', { user: USER });
    expect(await screen.findByText('pub-1')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: /Remove Binance API key/ }));
    await userEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Yes' }));
    const refusal = await screen.findByTestId('key-refusal');
    expect(refusal).toHaveTextContent(message);
    expect(within(screen.getByRole('region', { name: 'API keys' })).getByRole('alert')).toBe(refusal);
    expect(screen.getByText('Error deleting API Key!')).toBeInTheDocument();
    expect(screen.getByText('pub-1')).toBeInTheDocument();
  });
});
