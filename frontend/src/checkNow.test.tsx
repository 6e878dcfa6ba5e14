import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { freshSocketPerTest, socketModuleMock } from './testing/fakeSocket';
import { baseRoutes, makeBot, mockFetch, renderApp, USER } from './testing/utils';
import { CheckNow } from './bots/CheckNow';
import { describeEvent, eventLabel } from './history/events';

jest.mock('./api/socket', () => socketModuleMock());
jest.mock('./bots/BotChart', () => ({ __esModule: true, default: () => <div data-testid="chart-stub" /> }));

freshSocketPerTest({ keepStorage: true });

const REQUESTED_AT = 1_700_000_100_000;
const meta = { occurredAt: '2023-11-14T22:15:00.000Z' };
const ev = (revision: number, type: string, data: Record<string, unknown>) => ({ id: `e${revision}`, revision, position: revision, type, data, metadata: meta, created: meta.occurredAt });
const started = [ev(0, 'BotCreated', { botId: 'b1' }), ev(1, 'BotStartRequested', { botId: 'b1' }), ev(2, 'BotStarted', { botId: 'b1', pid: 7 })];
const drift = (revision: number, at: number, subject: string) =>
  ev(revision, 'BotDriftDetected', { botId: 'b1', run: 1, kind: 'unknown-order', subject, expected: 'no such order', actual: 'buy 0.01 at 50000', action: 'flagged', at });

describe('Check now (issue 29)', () => {
  it('on a running bot\'s page: asks for a check (POST with CSRF) and shows the difference it found', async () => {
    let asked = 0;
    let history = [...started];
    const bot = makeBot({ id: 'b1', botstatus: true, state: 'running', pid: 7 });
    const fetchMock = mockFetch({
      ...baseRoutes(),
      'GET /api/bots/u-1': [bot],
      'GET /api/bots/b1/summary': { ladder: [], takeProfit: null, position: 0, dust: 0, averageEntry: null, lastPrice: 100, unrealisedPnl: 0, realisedPnl: 0, realisedToday: 0, feesPaid: 0, cyclesCompleted: 0, fills: 0, capitalInUse: 0, runtimeSeconds: 1, annualisedReturn: null, running: true, lastError: null, lastErrorAt: null },
      'GET /api/bots-overview': [],
      'POST /api/bots/b1/check': () => {
        asked++;
        // the runner's check records what differs; the page reads it from the history
        history = [
          ...started,
          ev(3, 'BotCheckRequested', { botId: 'b1', at: REQUESTED_AT }),
          drift(4, REQUESTED_AT + 20, 'gr-abc-1-b7'),
          ev(5, 'BotChecked', { botId: 'b1', requestedAt: REQUESTED_AT, found: 1, at: REQUESTED_AT + 30 }),
        ];
        return { status: 202, body: { requested: true, requestedAt: REQUESTED_AT } };
      },
      'GET /api/bots/b1/history': () => history,
    });
    renderApp('/bots/b1', { user: USER });
    const button = await screen.findByRole('button', { name: 'Check now' }, { timeout: 5000 });
    await userEvent.click(button);
    await waitFor(() => expect(screen.getByText('Checked: 1 difference')).toBeInTheDocument(), { timeout: 5000 });
    expect(within(screen.getByRole('list', { name: 'Differences found by the check' })).getByRole('listitem')).toHaveTextContent('an order under the bot’s name that it did not place · expected no such order, the exchange has buy 0.01 at 50000 · shown only: nothing was changed');
    expect(asked).toBe(1);
    const post = fetchMock.mock.calls.find(([url, init]) => String(url).includes('/api/bots/b1/check') && init?.method === 'POST')!;
    expect((post[1]!.headers as Record<string, string>)['X-CSRF-Token']).toBeTruthy();
  });

  it('is not offered for a stopped bot', async () => {
    const bot = makeBot({ id: 'b2', botstatus: false, state: 'stopped', pid: -1 });
    mockFetch({ ...baseRoutes(), 'GET /api/bots/u-1': [bot], 'GET /api/bots/b2/summary': { ladder: [], running: false }, 'GET /api/bots-overview': [] });
    renderApp('/bots/b2', { user: USER });
    await screen.findByRole('button', { name: /^Start / }, { timeout: 5000 });
    expect(screen.queryByRole('button', { name: 'Check now' })).not.toBeInTheDocument();
  });

  it('says "Checked: no differences" once the runner reports a check that found none', async () => {
    mockFetch({
      ...baseRoutes(),
      'POST /api/bots/b1/check': { status: 202, body: { requested: true, requestedAt: REQUESTED_AT } },
      'GET /api/bots/b1/history': [...started, ev(3, 'BotCheckRequested', { botId: 'b1', at: REQUESTED_AT }), ev(4, 'BotChecked', { botId: 'b1', requestedAt: REQUESTED_AT, found: 0, at: REQUESTED_AT + 30 })],
    });
    render(<CheckNow botId="b1" pollMs={1} polls={3} />);
    await userEvent.click(screen.getByRole('button', { name: 'Check now' }));
    expect(await screen.findByText('Checked: no differences')).toBeInTheDocument();
  });

  it('lists a lasting difference found earlier in the run; without the runner\'s report it does not claim a check', async () => {
    const earlier = ev(3, 'BotNotTrading', { botId: 'b1', run: 1, reason: 'no-resting-order', detail: '2 orders should rest on the exchange, none does', at: REQUESTED_AT - 60_000 });
    let reported = false;
    mockFetch({
      ...baseRoutes(),
      'POST /api/bots/b1/check': { status: 202, body: { requested: true, requestedAt: REQUESTED_AT } },
      'GET /api/bots/b1/history': () => [...started, earlier, ...(reported ? [ev(4, 'BotChecked', { botId: 'b1', requestedAt: REQUESTED_AT, found: 1, at: REQUESTED_AT + 30 })] : [])],
    });
    const { unmount } = render(<CheckNow botId="b1" pollMs={1} polls={2} />);
    await userEvent.click(screen.getByRole('button', { name: 'Check now' }));
    expect(await screen.findByText('The check has not reported yet: what it finds will be in the history')).toBeInTheDocument();
    expect(screen.queryByText(/^Checked/)).not.toBeInTheDocument();
    unmount();

    reported = true; // the lasting difference, found again: counted, not recorded twice
    render(<CheckNow botId="b1" pollMs={1} polls={2} />);
    await userEvent.click(screen.getByRole('button', { name: 'Check now' }));
    expect(await screen.findByText('Checked: 1 difference')).toBeInTheDocument();
    expect(within(screen.getByRole('list', { name: 'Differences found earlier in this run' })).getByRole('listitem')).toHaveTextContent('2 orders should rest on the exchange, none does');
  });

  it('shows the server\'s refusal (a bot that stopped meanwhile)', async () => {
    mockFetch({ ...baseRoutes(), 'POST /api/bots/b1/check': { status: 409, body: { statusCode: 409, message: 'The bot is not running: only a running bot can be checked against the exchange.' } } });
    render(<CheckNow botId="b1" pollMs={1} polls={1} />);
    await userEvent.click(screen.getByRole('button', { name: 'Check now' }));
    expect(await screen.findByText('The bot is not running: only a running bot can be checked against the exchange.')).toBeInTheDocument();
  });

  it('has a readable line in the history', () => {
    expect(eventLabel('BotCheckRequested')).toBe('Check requested');
    expect(describeEvent({ type: 'BotCheckRequested', data: { botId: 'b1', at: REQUESTED_AT } })).toBe('asked the runner to compare the bot with the exchange now (Check now)');
    expect(eventLabel('BotChecked')).toBe('Checked');
    expect(describeEvent({ type: 'BotChecked', data: { botId: 'b1', requestedAt: REQUESTED_AT, found: 0, at: REQUESTED_AT } })).toBe('compared with the exchange: no differences');
  });
});
