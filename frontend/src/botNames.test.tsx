/** Issue 40: a trader names a bot; the card, the bot page, the history and the copies list show it. */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { freshSocketPerTest, socketModuleMock } from './testing/fakeSocket';
import { baseRoutes, makeBot, mockFetch, renderApp, USER, spotMarketRoutes, pickMarket, openCreateForm, typeLadder } from './testing/utils';
import type { Bot } from './api/types';

jest.mock('./api/socket', () => socketModuleMock());
jest.mock('./bots/BotChart', () => ({ __esModule: true, default: () => <div data-testid="chart-stub" /> }));
jest.setTimeout(30_000);

freshSocketPerTest();

const exchangeRoutes = spotMarketRoutes(100, 5000);
const cards = () => screen.queryAllByTestId('bot-card');

function routes(bots: Bot[], extra: Record<string, unknown> = {}) {
  return mockFetch({ ...baseRoutes(), 'GET /api/bots/u-1': () => bots, 'GET /api/bots-overview': [], ...exchangeRoutes, ...extra });
}
const bodyOf = (fetch: jest.Mock, method: string) => JSON.parse(String(fetch.mock.calls.find(([, i]) => i?.method === method)![1]!.body));

describe('bot names (issue 40)', () => {
  it('named at create: the body carries the trimmed name and the card shows it', async () => {
    const bots: Bot[] = [];
    const fetch = routes(bots, {
      'POST /api/bots': (_u: URL, init: RequestInit) => {
        const b = makeBot({ id: 'n1', ...JSON.parse(String(init.body)) });
        bots.push(b);
        return { status: 201, body: b };
      },
    });
    renderApp('/bots', { user: USER });
    const f = await openCreateForm();
    await userEvent.type(f.getByLabelText('Name (optional)'), '  Night grid ');
    await pickMarket(f, '100');
    await typeLadder(f, { grid: '3', size: '0.1', interval: '10', takeProfit: '1' });
    await userEvent.click(f.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Bot successfully added!')).toBeInTheDocument();
    expect(bodyOf(fetch, 'POST').name).toBe('Night grid');
    await waitFor(() => expect(cards()).toHaveLength(1));
    expect(within(cards()[0]).getByTestId('bot-name')).toHaveTextContent('Night grid');
    expect(cards()[0]).toHaveAccessibleName('“Night grid”, Binance spot bot BTC/USDT');
  });

  it('a name too long or with a control character keeps Save disabled, and says why', async () => {
    routes([]);
    renderApp('/bots', { user: USER });
    const f = await openCreateForm();
    await userEvent.type(f.getByLabelText('Name (optional)'), 'x'.repeat(61));
    expect(f.getByRole('button', { name: 'Save' })).toHaveAccessibleDescription(/Name must be at most 60 characters/);
    await userEvent.clear(f.getByLabelText('Name (optional)'));
    await userEvent.click(f.getByLabelText('Name (optional)'));
    await userEvent.paste('Night\u0007grid');
    expect(f.getByRole('button', { name: 'Save' })).toHaveAccessibleDescription(/Name must not contain control characters \(tabs, line breaks\) or direction overrides/);
  });

  it('an edit renames the bot, or removes its name', async () => {
    const bot = makeBot({ id: 'e1', entryprice: 100, numoforders: 3, ordersize: 0.1, interval: 10, takeprofit: 1, name: 'Night grid' });
    const fetch = routes([bot], { 'PUT /api/bots/e1': (_u: URL, init: RequestInit) => ({ status: 200, body: { ...bot, ...JSON.parse(String(init.body)) } }) });
    renderApp('/bots', { user: USER });
    await userEvent.click(await screen.findByRole('button', { name: /^Edit “Night grid”/ }));
    const f = within(screen.getByRole('dialog', { name: 'Edit bot' }));
    expect(f.getByLabelText('Name (optional)')).toHaveValue('Night grid');
    await userEvent.clear(f.getByLabelText('Name (optional)'));
    await userEvent.click(f.getByRole('button', { name: 'Save' }));
    await screen.findByText('Bot successfully edited!');
    expect(bodyOf(fetch, 'PUT').name).toBe('');
  });

  it('the bot page titles the bot by its name, beside its pair; the history names it by its last name', async () => {
    const bot = makeBot({ id: 'b1', name: 'Night grid' });
    routes([bot], {
      'GET /api/bots/b1/summary': { ladder: [], takeProfit: null, position: 0, dust: 0, averageEntry: null, lastPrice: 100, unrealisedPnl: 0, realisedPnl: 0, realisedToday: 0, feesPaid: 0, cyclesCompleted: 0, fills: 0, capitalInUse: 0, runtimeSeconds: 0, lastRun: null, runs: 0, annualisedReturn: null, running: false, lastError: null, lastErrorAt: null },
      'GET /api/bots/b1/history': [
        { id: 'e0', revision: 0, position: 1, type: 'BotCreated', data: { botId: 'b1', userId: USER.uid, botType: 'Spot', exchange: 'Binance', symbol: 'BTCUSDT', numOfOrders: 3, orderSize: 0.1, interval: 10, entryPrice: 100, takeProfit: 1, leverage: 1, name: 'Night grid' }, metadata: { userId: USER.uid, occurredAt: '2025-03-01T10:00:00.000Z' }, created: '2025-03-01T10:00:00.000Z' },
        { id: 'e1', revision: 1, position: 2, type: 'BotEdited', data: { botId: 'b1', exchange: 'Binance', numOfOrders: 3, orderSize: 0.1, interval: 10, entryPrice: 100, takeProfit: 1, leverage: 1, name: 'Day grid' }, metadata: { userId: USER.uid, occurredAt: '2025-03-01T10:01:00.000Z' }, created: '2025-03-01T10:01:00.000Z' },
      ],
      'GET /api/bots/b1/state': { botId: 'b1', at: '2025-03-01T10:01:00.000Z', revision: 1, position: 2, eventsApplied: 2, state: { status: 'stopped' }, view: null, next: [] },
    });
    renderApp('/bots/b1', { user: USER });
    await waitFor(() => expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Night grid BTC/USDT'));
    expect(screen.getByRole('button', { name: /^Edit “Night grid”, Binance spot bot BTC\/USDT/ })).toBeInTheDocument();
    renderApp('/bots/b1/history', { user: USER });
    expect(await screen.findByText(/“Day grid”, Binance spot bot BTC\/USDT/)).toBeInTheDocument();
    expect(screen.getByText('name “Night grid” → “Day grid”')).toBeInTheDocument();
  });
});
