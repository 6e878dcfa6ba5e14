import { fireEvent, screen, waitFor } from '@testing-library/react';
import { ALERT_KIND_LABELS } from '@gridrocket/alerts/domain/alert.kinds';
import { baseRoutes, mockFetch, renderApp, USER } from './testing/utils';

const saved = {
  kinds: ['cycle'],
  email: { enabled: false },
  webhook: { enabled: true, url: 'https://hooks.example.com/gr', secretSet: true, secretLast4: 'XYZ9' },
  telegram: { enabled: false, chatId: null, botTokenSet: false, botTokenLast4: null },
};

describe('/alerts', () => {
  it('shows the saved settings without secrets, only their last 4 characters, and the delivery log', async () => {
    mockFetch({
      ...baseRoutes(),
      'GET /api/alerts/u-1': saved,
      'GET /api/alerts/u-1/deliveries': [{ id: 'd1', at: '2026-01-02T03:04:05.000Z', channel: 'webhook', kind: 'cycle', event: 'CycleCompleted', symbol: 'BTCUSDT', title: 'Cycle completed: BTCUSDT on Binance', status: 'delivered', code: 200, attempts: 3, error: null }],
    });
    renderApp('/alerts', { user: USER });
    expect(await screen.findByText(/ending in …XYZ9 is set/)).toBeInTheDocument();
    expect(screen.getByLabelText(ALERT_KIND_LABELS.cycle)).toBeChecked();
    expect(screen.getByLabelText(ALERT_KIND_LABELS.drift)).not.toBeChecked();
    expect(screen.getByLabelText('Webhook secret')).toHaveValue('');
    expect(await screen.findByText('Cycle completed: BTCUSDT on Binance')).toBeInTheDocument();
    expect(screen.getByRole('cell', { name: '200' })).toBeInTheDocument();
  });

  it("shows the server's field messages under their fields", async () => {
    const fetch = mockFetch({
      ...baseRoutes(),
      'GET /api/alerts/u-1': saved,
      'GET /api/alerts/u-1/deliveries': [],
      'PUT /api/alerts/u-1': { status: 400, body: { statusCode: 400, message: 'Invalid input', errors: [{ field: 'telegram.chatId', message: 'Enter the chat id (a number such as 123456789 or -100123456789) or @channelusername' }] } },
    });
    renderApp('/alerts', { user: USER });
    await screen.findByText(/ending in …XYZ9 is set/);
    fireEvent.click(screen.getByLabelText(/Message me through my Telegram bot/));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.getByLabelText('Chat id')).toHaveAccessibleDescription(/Enter the chat id/));
    await waitFor(() => expect(fetch.mock.calls.some(([, init]) => init?.method === 'PUT')).toBe(true));
    const put = fetch.mock.calls.find(([, init]) => init?.method === 'PUT')!;
    const body = JSON.parse(String(put[1]!.body));
    expect(body.webhook).toEqual({ enabled: true, url: 'https://hooks.example.com/gr' }); // an empty secret field keeps the stored one
    expect(body.telegram.enabled).toBe(true);
  });

  it('"Send a test" per channel shows what the receiver answered: delivered, or its error (issue 40)', async () => {
    const tests: unknown[] = [];
    let logReads = 0;
    mockFetch({
      ...baseRoutes(),
      'GET /api/alerts/u-1': { ...saved, telegram: { enabled: true, chatId: '111', botTokenSet: true, botTokenLast4: 'KLMN' } },
      'GET /api/alerts/u-1/deliveries': () => {
        logReads++;
        return logReads > 1 ? [{ id: 'd9', at: '2026-01-02T03:04:05.000Z', channel: 'telegram', kind: 'test', event: 'AlertTest', symbol: '', title: 'Test alert (Telegram)', status: 'failed', code: 400, attempts: 1, error: 'Telegram answered 400: Bad Request: chat not found' }] : [];
      },
      'POST /api/alerts/u-1/test': (_url: URL, init: RequestInit) => {
        const body = JSON.parse(String(init.body));
        tests.push(body);
        return {
          status: 200,
          body:
            body.channel === 'webhook'
              ? { channel: 'webhook', status: 'delivered', code: 200, error: null, at: '2026-01-02T03:04:05.000Z' }
              : { channel: 'telegram', status: 'failed', code: 400, error: 'Telegram answered 400: Bad Request: chat not found', at: '2026-01-02T03:04:06.000Z' },
        };
      },
    });
    renderApp('/alerts', { user: USER });
    await screen.findByText(/ending in …XYZ9 is set/);
    const [emailTest, webhookTest, telegramTest] = screen.getAllByRole('button', { name: 'Send a test' });
    // e-mail is off in the saved settings: nothing to test yet, and the page says why
    expect(emailTest).toBeDisabled();
    expect(emailTest).toHaveAccessibleDescription('Turn e-mail on and save to send a test.');

    fireEvent.click(webhookTest);
    expect(await screen.findByRole('status', { name: 'Webhook test result' })).toHaveTextContent('Delivered: your webhook answered 200.');
    fireEvent.click(telegramTest);
    expect(await screen.findByRole('status', { name: 'Telegram test result' })).toHaveTextContent('Not delivered: Telegram answered 400: Bad Request: chat not found.');
    expect(tests).toEqual([{ channel: 'webhook' }, { channel: 'telegram' }]);
    // the test is in the log, with the receiver's error
    expect(await screen.findByText('Test alert (Telegram)')).toBeInTheDocument();
    expect(screen.getAllByText('Telegram answered 400: Bad Request: chat not found').length).toBeGreaterThan(0);
  });

  it('a changed channel is tested with its saved settings: the page says to save first', async () => {
    mockFetch({ ...baseRoutes(), 'GET /api/alerts/u-1': saved, 'GET /api/alerts/u-1/deliveries': [] });
    renderApp('/alerts', { user: USER });
    await screen.findByText(/ending in …XYZ9 is set/);
    fireEvent.change(screen.getByLabelText('Webhook URL'), { target: { value: 'https://hooks.example.com/other' } });
    const webhookTest = screen.getAllByRole('button', { name: 'Send a test' })[1];
    expect(webhookTest).toBeEnabled();
    expect(webhookTest).toHaveAccessibleDescription('Sends with the saved settings: save your changes first.');
  });
});
