import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { freshSocketPerTest, socketModuleMock } from './testing/fakeSocket';
import { baseRoutes, makeBot, mockFetch, renderApp, USER } from './testing/utils';
import { SignalPanel, tradingViewMessage } from './bots/SignalPanel';
import { describeEvent, eventLabel, who } from './history/events';

jest.mock('./api/socket', () => socketModuleMock());
jest.mock('./bots/BotChart', () => ({ __esModule: true, default: () => <div data-testid="chart-stub" /> }));

freshSocketPerTest({ keepStorage: true });

const URL_OF = 'https://grid.example/api/signals/b1';
const off = { enabled: false, url: URL_OF, secretLast4: null, allowBodySecret: false, windowSeconds: 300 };
const SECRET_1 = 'grs_first-secret-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA1a2b';
const SECRET_2 = 'grs_second-secret-BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBc3d4';
const meta = { occurredAt: '2026-11-28T08:00:00.000Z' };
const ev = (revision: number, type: string, data: Record<string, unknown>, userId = USER.uid) => ({ id: `e${revision}`, revision, position: revision, type, data, metadata: { ...meta, userId }, created: meta.occurredAt });

describe('the bot page\'s signal panel (issue 32)', () => {
  it('turns signals on with the secret in the message allowed: the secret is shown once, then only its last 4 characters', async () => {
    let settings: Record<string, unknown> = { ...off };
    const bodies: unknown[] = [];
    const fetchMock = mockFetch({
      ...baseRoutes(),
      'GET /api/bots/u-1': [makeBot({ id: 'b1' })],
      'GET /api/bots/b1/summary': { ladder: [], running: false },
      'GET /api/bots-overview': [],
      'GET /api/bots/b1/history': [],
      'GET /api/bots/b1/signals': () => settings,
      'POST /api/bots/b1/signals': (_url: URL, init: RequestInit) => {
        bodies.push(JSON.parse(String(init.body)));
        settings = { ...off, enabled: true, secretLast4: SECRET_1.slice(-4), allowBodySecret: true };
        return { status: 201, body: { ...settings, secret: SECRET_1 } };
      },
    });
    renderApp('/bots/b1', { user: USER });
    const panel = await screen.findByTestId('signal-panel', {}, { timeout: 5000 });
    expect(await within(panel).findByText('Signals are off for this bot.')).toBeInTheDocument();
    // signals off: the bot's history (possibly long) is not read for the panel
    const historyReads = () => fetchMock.mock.calls.filter(([url]) => String(url).startsWith('/api/bots/b1/history')).length;
    expect(historyReads()).toBe(0);
    await userEvent.click(within(panel).getByRole('checkbox', { name: /Accept the secret in the message \(TradingView\)/ }));
    await userEvent.click(within(panel).getByRole('button', { name: 'Turn signals on' }));

    // the secret, once, with the message a TradingView alert sends
    expect(await within(panel).findByLabelText('Signal secret')).toHaveTextContent(SECRET_1);
    expect(within(panel).getByLabelText('TradingView start message')).toHaveTextContent(`{"action":"start","id":"start-{{timenow}}","timestamp":"{{timenow}}","secret":"${SECRET_1}"}`);
    expect(bodies).toEqual([{ allowBodySecret: true, heldPosition: 'refuse' }]);
    const post = fetchMock.mock.calls.find(([url, init]) => String(url) === '/api/bots/b1/signals' && init?.method === 'POST')!;
    expect((post[1]!.headers as Record<string, string>)['X-CSRF-Token']).toBeTruthy();
    expect(within(panel).getByLabelText('Webhook URL')).toHaveTextContent(URL_OF);
    expect(within(panel).getByText('ends in …1a2b')).toBeInTheDocument();
    expect(historyReads()).toBe(1);

    await userEvent.click(within(panel).getByRole('button', { name: 'I have copied it' }));
    expect(panel).not.toHaveTextContent(SECRET_1);
    expect(within(panel).getByText('signed requests, and the secret in the message (TradingView)')).toBeInTheDocument();
  });

  it('rotates the secret (a new one shown once) and turns signals off', async () => {
    let settings: Record<string, unknown> = { ...off, enabled: true, secretLast4: SECRET_1.slice(-4) };
    let deleted = 0;
    mockFetch({
      ...baseRoutes(),
      'GET /api/bots/b1/history': [],
      'GET /api/bots/b1/signals': () => settings,
      'POST /api/bots/b1/signals/rotate': () => {
        settings = { ...settings, secretLast4: SECRET_2.slice(-4) };
        return { status: 200, body: { ...settings, secret: SECRET_2 } };
      },
      'DELETE /api/bots/b1/signals': () => {
        deleted++;
        settings = { ...off };
        return { status: 204 };
      },
    });
    render(<SignalPanel botId="b1" />);
    expect(await screen.findByText('ends in …1a2b')).toBeInTheDocument();
    expect(screen.getByText('signed requests only (X-Signature)')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Rotate secret' }));
    expect(await screen.findByLabelText('Signal secret')).toHaveTextContent(SECRET_2);
    expect(await screen.findByText('ends in …c3d4')).toBeInTheDocument();
    // signed only: no TradingView message offered
    expect(screen.queryByLabelText('TradingView start message')).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Turn signals off' }));
    expect(await screen.findByText('Signals are off for this bot.')).toBeInTheDocument();
    expect(deleted).toBe(1);
    expect(screen.queryByLabelText('Signal secret')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Turn signals on' })).toBeInTheDocument();
  });

  it('lists the bot\'s latest signals from its history, refusals included, and shows a refused action', async () => {
    mockFetch({
      ...baseRoutes(),
      'GET /api/bots/b1/signals': { ...off, enabled: true, secretLast4: 'abcd' },
      'GET /api/bots/b1/history': [
        ev(0, 'BotCreated', { botId: 'b1' }),
        ev(1, 'SignalReceived', { botId: 'b1', signalId: 's-1', action: 'start', auth: 'signature', signedAt: 1, at: 1 }),
        ev(2, 'BotStartRequested', { botId: 'b1' }),
        ev(3, 'SignalHandled', { botId: 'b1', signalId: 's-1', action: 'start', outcome: 'requested', status: 202, reason: null }),
        ev(4, 'SignalRefused', { botId: 'b1', reason: 'bad-signature', status: 401, message: 'The signature does not match', signalId: 'x-9', suppressed: 0, at: 2 }, 'anonymous'),
        ev(5, 'SignalRefused', { botId: 'b1', reason: 'replay', status: 409, message: 'taken', signalId: 's-1', suppressed: 25, at: 3 }, 'anonymous'),
      ],
      'POST /api/bots/b1/signals/rotate': { status: 403, body: { statusCode: 403, message: 'Missing or invalid CSRF token: send the csrf_token cookie value in the X-CSRF-Token header' } },
    });
    render(<SignalPanel botId="b1" />);
    const list = await screen.findByRole('list', { name: 'Latest signals' });
    const items = within(list).getAllByRole('listitem');
    // newest first, the bot's other events left to the History tab
    expect(items.map((li) => li.getAttribute('data-type'))).toEqual(['SignalRefused', 'SignalRefused', 'SignalHandled', 'SignalReceived']);
    expect(items[0]).toHaveTextContent('Signal refused');
    expect(items[0]).toHaveTextContent('its id was used before (a replay) (409) · id s-1 · and 25 more refused before, not listed one by one');
    expect(items[1]).toHaveTextContent('the signature or secret does not match (401) · id x-9');
    expect(items[2]).toHaveTextContent('start requested');
    expect(items[3]).toHaveTextContent('start · id s-1 · signed');
    await userEvent.click(screen.getByRole('button', { name: 'Rotate secret' }));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent(/CSRF/));
  });

  it('has words for the history view', () => {
    expect(eventLabel('SignalRefused')).toBe('Signal refused');
    expect(describeEvent({ type: 'SignalHandled', data: { action: 'start', outcome: 'refused', status: 409, reason: 'No API key for Binance' } })).toBe('start refused (409): No API key for Binance');
    expect(describeEvent({ type: 'SignalHandled', data: { action: 'stop', outcome: 'unchanged', status: 202, reason: null } })).toBe('stop: the bot was already stopped');
    expect(who('anonymous', USER.uid).text).toBe('unknown sender');
    expect(tradingViewMessage('stop', 'grs_x')).toBe('{"action":"stop","id":"stop-{{timenow}}","timestamp":"{{timenow}}","secret":"grs_x"}');
  });

  it('shows the standing choice for a held position when signals are on, saves a change at once, and says where a refused signal is reported (issue 40)', async () => {
    let settings: Record<string, unknown> = { ...off, enabled: true, secretLast4: 'abcd', heldPosition: 'refuse' };
    const patches: unknown[] = [];
    mockFetch({
      ...baseRoutes(),
      'GET /api/bots/b1/history': [],
      'GET /api/bots/b1/signals': () => settings,
      'PATCH /api/bots/b1/signals': (_url: URL, init: RequestInit) => {
        const body = JSON.parse(String(init.body));
        patches.push(body);
        settings = { ...settings, heldPosition: body.heldPosition };
        return { status: 200, body: settings };
      },
      'GET /api/alerts/u-1': { kinds: ['cycle'], email: { enabled: true }, webhook: { enabled: false }, telegram: { enabled: true } },
    });
    render(<SignalPanel botId="b1" userId="u-1" />);
    const choice = await screen.findByRole('group', { name: 'When the bot holds a position, a start signal…' });
    expect(within(choice).getByRole('radio', { name: /Refuse the start/ })).toBeChecked();
    expect(within(choice).getByRole('radio', { name: /Start with the position/ })).not.toBeChecked();
    // refusals go nowhere yet: the panel says so, and where to turn them on
    expect(await screen.findByTestId('signal-refusal-reach')).toHaveTextContent('A refused signal alerts nobody yet: tick “Signal refused” under Alerts.');
    expect(within(screen.getByTestId('signal-refusal-reach')).getByRole('link', { name: 'Alerts' })).toHaveAttribute('href', '/alerts');

    await userEvent.click(within(choice).getByRole('radio', { name: /Sell it first/ }));
    expect(await within(choice).findByRole('status')).toHaveTextContent('Saved: sell it first.');
    expect(patches).toEqual([{ heldPosition: 'sell' }]);
    expect(within(choice).getByRole('radio', { name: /Sell it first/ })).toBeChecked();
  });

  it('with the refusal alert on, says which channels carry it; with signals off, the choice goes with "Turn signals on"', async () => {
    const bodies: unknown[] = [];
    let settings: Record<string, unknown> = { ...off };
    mockFetch({
      ...baseRoutes(),
      'GET /api/bots/b1/history': [],
      'GET /api/bots/b1/signals': () => settings,
      'POST /api/bots/b1/signals': (_url: URL, init: RequestInit) => {
        bodies.push(JSON.parse(String(init.body)));
        settings = { ...off, enabled: true, secretLast4: SECRET_1.slice(-4), heldPosition: 'resume' };
        return { status: 201, body: { ...settings, secret: SECRET_1 } };
      },
      'GET /api/alerts/u-1': { kinds: ['signalRefused'], email: { enabled: true }, webhook: { enabled: false }, telegram: { enabled: true } },
    });
    render(<SignalPanel botId="b1" userId="u-1" />);
    const choice = await screen.findByRole('group', { name: 'When the bot holds a position, a start signal…' });
    expect(within(choice).getByText('Applies when you turn signals on; you can change it at any time after.')).toBeInTheDocument();
    await userEvent.click(within(choice).getByRole('radio', { name: /Start with the position/ }));
    await userEvent.click(screen.getByRole('button', { name: 'Turn signals on' }));
    expect(await screen.findByLabelText('Signal secret')).toHaveTextContent(SECRET_1);
    expect(bodies).toEqual([{ allowBodySecret: false, heldPosition: 'resume' }]);
    expect(await screen.findByTestId('signal-refusal-reach')).toHaveTextContent('A refused signal alerts you by E-mail, Telegram.');
  });

  it('has words for a start that kept or sold the position, and for a refusal because of it', () => {
    expect(describeEvent({ type: 'SignalHandled', data: { action: 'start', outcome: 'requested', status: 202, reason: null, position: 'sold-first' } })).toBe('start requested: its position is sold at market first, then it starts afresh');
    expect(describeEvent({ type: 'SignalHandled', data: { action: 'start', outcome: 'requested', status: 202, reason: null, position: 'kept' } })).toBe('start requested, with the position it holds');
    expect(describeEvent({ type: 'SignalHandled', data: { action: 'start', outcome: 'refused', status: 409, reason: 'The bot holds 0.01 BTC', refusal: 'position-held' } })).toBe('start refused (409): The bot holds 0.01 BTC · the bot holds a position and its signal settings say to refuse');
    expect(describeEvent({ type: 'BotStopRequested', data: { cancelAllOrders: true, closePosition: true, thenStart: true } })).toBe('cancel all open orders · close the position at market · then start again (a start signal: “sell it first”)');
    expect(describeEvent({ type: 'BotStartRequested', data: { afterClose: true } })).toBe('asked the runner to start the grid afresh, its position sold');
  });
});
