import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { baseRoutes, mockFetch, renderApp, USER } from './testing/utils';

/** Issue 30: the dashboard's two-factor screens against a mocked API. */
describe('two-factor sign-in in the dashboard', () => {
  it('a password answered "code needed" leads to the code step; the code (and "remember") completes the sign-in', async () => {
    const fetch = mockFetch({
      ...baseRoutes(null),
      'POST /api/auth/login': { status: 202, body: { twoFactorRequired: true, message: 'Enter the 6-digit code from your authenticator app' } },
      'POST /api/auth/2fa/verify': (_url: URL, init: RequestInit) => {
        const body = JSON.parse(String(init.body));
        return body.code === '123456' ? USER : { status: 401, body: { statusCode: 401, message: 'That code is not right', errors: [{ field: 'code', message: 'That code is not right' }] } };
      },
    });
    renderApp('/sign-in');
    const form = await screen.findByRole('form', { name: 'Login' });
    fireEvent.change(within(form).getByLabelText('Email'), { target: { value: 'ann@example.com' } });
    fireEvent.change(within(form).getByLabelText('Password'), { target: { value: 'correct-horse-1' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Login' }));
    expect(await screen.findByRole('heading', { name: 'Two-factor sign-in' })).toBeInTheDocument();

    fireEvent.change(screen.getByLabelText('6-digit code'), { target: { value: '654321' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(screen.getByLabelText('6-digit code')).toHaveAccessibleDescription('That code is not right'));

    fireEvent.change(screen.getByLabelText('6-digit code'), { target: { value: '123 456' } });
    fireEvent.click(screen.getByLabelText('Remember this browser for 30 days'));
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/bots'));
    const verify = fetch.mock.calls.filter(([u, init]) => String(u).includes('/2fa/verify') && init?.method === 'POST').pop()!;
    expect(JSON.parse(String(verify[1]!.body))).toEqual({ code: '123456', remember: true });
  });

  it('"use a recovery code" sends the recovery code', async () => {
    const fetch = mockFetch({ ...baseRoutes(null), 'POST /api/auth/2fa/verify': USER });
    renderApp('/sign-in?step=code');
    fireEvent.click(await screen.findByRole('button', { name: 'Use a recovery code' }));
    fireEvent.change(screen.getByLabelText('Recovery code'), { target: { value: 'abcd-efgh-ijkl-mnop' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/bots'));
    const verify = fetch.mock.calls.find(([u]) => String(u).includes('/2fa/verify'))!;
    expect(JSON.parse(String(verify[1]!.body))).toEqual({ recoveryCode: 'abcd-efgh-ijkl-mnop', remember: false });
  });

  it('the account page turns it on: setup key, confirming code, recovery codes shown once', async () => {
    const codes = Array.from({ length: 10 }, (_, i) => `aaaa-bbbb-cccc-ddd${'abcdefghij'[i]}`);
    let on = false;
    const fetch = mockFetch({
      ...baseRoutes(),
      'GET /api/auth/2fa': () => ({ enabled: on, setupStarted: false, recoveryCodesLeft: on ? 10 : 0 }),
      'POST /api/auth/2fa/setup': { secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP', otpauthUri: 'otpauth://totp/GridRocket:ann%40example.com?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP&issuer=GridRocket' },
      'POST /api/auth/2fa/enable': () => {
        on = true;
        return { enabled: true, recoveryCodes: codes, message: 'on' };
      },
    });
    renderApp('/myaccount', { user: USER });
    const section = await screen.findByRole('region', { name: 'Two-factor sign-in' });
    fireEvent.click(await within(section).findByRole('button', { name: 'Turn on two-factor sign-in' }));
    expect(await within(section).findByLabelText('Setup key')).toHaveTextContent('JBSW Y3DP EHPK 3PXP JBSW Y3DP EHPK 3PXP');
    expect(within(section).getByRole('link', { name: 'open it in your authenticator app' })).toHaveAttribute('href', expect.stringMatching(/^otpauth:\/\/totp\//));
    fireEvent.change(within(section).getByLabelText('Enter the 6-digit code the app shows'), { target: { value: '12345' } });
    fireEvent.click(within(section).getByRole('button', { name: 'Confirm and turn on' }));
    expect(await within(section).findByText('Enter the 6-digit code your app shows')).toBeInTheDocument();
    expect(fetch.mock.calls.some(([u]) => String(u).includes('/2fa/enable'))).toBe(false);
    fireEvent.change(within(section).getByLabelText('Enter the 6-digit code the app shows'), { target: { value: '123456' } });
    fireEvent.click(within(section).getByRole('button', { name: 'Confirm and turn on' }));
    for (const c of codes) expect(await within(section).findByText(c)).toBeInTheDocument();
    fireEvent.click(within(section).getByRole('button', { name: 'I have saved them' }));
    expect(await within(section).findByText('10 recovery codes left.')).toBeInTheDocument();
    expect(within(section).queryByText(codes[0])).toBeNull();
  });

  it('a sensitive call refused for a missing code asks for one and is sent again with X-TOTP', async () => {
    const saved = { kinds: ['cycle'], email: { enabled: false }, webhook: { enabled: false, url: null, secretSet: false, secretLast4: null }, telegram: { enabled: false, chatId: null, botTokenSet: false, botTokenLast4: null } };
    const message = 'Two-factor sign-in is on: enter a current code from your authenticator app to confirm this';
    const fetch = mockFetch({
      ...baseRoutes(),
      'GET /api/alerts/u-1': saved,
      'GET /api/alerts/u-1/deliveries': [],
      'PUT /api/alerts/u-1': (_url: URL, init: RequestInit) =>
        (init.headers as Record<string, string>)['X-TOTP'] === '246810' ? saved : { status: 403, body: { statusCode: 403, message, errors: [{ field: 'totp', message }] } },
    });
    renderApp('/alerts', { user: USER });
    fireEvent.click(await screen.findByRole('button', { name: 'Save' }));
    const prompt = await screen.findByRole('dialog', { name: 'Confirm with your code' });
    expect(within(prompt).getByText(message)).toBeInTheDocument();
    // issue 40: the disabled Confirm says why
    expect(within(prompt).getByRole('button', { name: 'Confirm' })).toHaveAccessibleDescription('Confirm is disabled: Enter the 6-digit code from your authenticator app');
    fireEvent.change(within(prompt).getByLabelText('6-digit code'), { target: { value: '246810' } });
    expect(within(prompt).getByRole('button', { name: 'Confirm' })).not.toHaveAttribute('aria-describedby');
    fireEvent.click(within(prompt).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Confirm with your code' })).toBeNull());
    const puts = fetch.mock.calls.filter(([, init]) => init?.method === 'PUT');
    expect(puts).toHaveLength(2);
    expect((puts[1][1]!.headers as Record<string, string>)['X-TOTP']).toBe('246810');

    // Escape cancels the prompt: the call is not sent again, the page stays
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByRole('dialog', { name: 'Confirm with your code' });
    fireEvent.keyDown(document.activeElement ?? document.body, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Confirm with your code' })).toBeNull());
    expect(fetch.mock.calls.filter(([, init]) => init?.method === 'PUT')).toHaveLength(3);
  });
  it('a sensitive call refused for the current password (issue 38) asks for it and is sent again with X-Current-Password, then the code', async () => {
    const saved = { kinds: ['cycle'], email: { enabled: false }, webhook: { enabled: false, url: null, secretSet: false, secretLast4: null }, telegram: { enabled: false, chatId: null, botTokenSet: false, botTokenLast4: null } };
    const needed = 'Enter your current password to confirm this';
    const codeNeeded = 'Two-factor sign-in is on: enter a current code from your authenticator app to confirm this';
    const fetch = mockFetch({
      ...baseRoutes(),
      'GET /api/alerts/u-1': saved,
      'GET /api/alerts/u-1/deliveries': [],
      'PUT /api/alerts/u-1': (_url: URL, init: RequestInit) => {
        const h = init.headers as Record<string, string>;
        if (h['X-Current-Password'] !== 'correct-horse-1') return { status: 403, body: { statusCode: 403, message: needed, errors: [{ field: 'currentPassword', message: needed }] } };
        if (h['X-TOTP'] !== '135790') return { status: 403, body: { statusCode: 403, message: codeNeeded, errors: [{ field: 'totp', message: codeNeeded }] } };
        return saved;
      },
    });
    renderApp('/alerts', { user: USER });
    fireEvent.click(await screen.findByRole('button', { name: 'Save' }));
    const prompt = await screen.findByRole('dialog', { name: 'Confirm with your password' });
    expect(within(prompt).getByText(needed)).toBeInTheDocument();
    const input = within(prompt).getByLabelText('Current password');
    expect(input).toHaveAttribute('type', 'password');
    expect(within(prompt).getByRole('button', { name: 'Confirm' })).toBeDisabled();
    fireEvent.change(input, { target: { value: 'correct-horse-1' } });
    fireEvent.click(within(prompt).getByRole('button', { name: 'Confirm' }));
    const code = await screen.findByRole('dialog', { name: 'Confirm with your code' });
    fireEvent.change(within(code).getByLabelText('6-digit code'), { target: { value: '135790' } });
    fireEvent.click(within(code).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Confirm with your code' })).toBeNull());
    const puts = fetch.mock.calls.filter(([, init]) => init?.method === 'PUT');
    expect(puts).toHaveLength(3);
    expect(puts[2][1]!.headers as Record<string, string>).toMatchObject({ 'X-Current-Password': 'correct-horse-1', 'X-TOTP': '135790' });
  });
});
