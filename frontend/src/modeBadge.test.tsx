/**
 * Issue 29 (Found 4): a balance, a bot card and the bot page say whether the money is simulated
 * (Paper), on a test network (Testnet) or real (Live), from GET /api/exchange-mode. Issue 39: a paper
 * account's bot page says which prices it trades on (the venue's stream, live or down, or simulated).
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { freshSocketPerTest, socketModuleMock } from './testing/fakeSocket';
import { baseRoutes, makeBot, mockFetch, renderApp, USER, openCreateForm } from './testing/utils';

jest.mock('./api/socket', () => socketModuleMock());
jest.mock('./bots/BotChart', () => ({ __esModule: true, default: () => <div data-testid="chart-stub" /> }));

freshSocketPerTest();

const cards = () => screen.queryAllByTestId('bot-card');
const routes = (mode: unknown) => ({
  ...baseRoutes(),
  'GET /api/bots/u-1': [makeBot({ id: 'b1' }), makeBot({ id: 'b2', entryprice: 59000 })],
  'GET /api/bots-overview': [],
  'GET /api/bots/b1/summary': { ladder: [], running: false },
  'GET /api/balanceSpot': [{ symbol: 'USDT', exchange: 'Binance', balance: 10000, available: 10000 }],
  'GET /api/priceSpot': 100,
  'GET /api/exchange-mode': mode,
});

describe('paper / testnet / live badge', () => {
  it('paper: every card, and the balance in the bot form, say "Paper"', async () => {
    mockFetch(routes({ mode: 'paper' }));
    renderApp('/bots', { user: USER });
    await waitFor(() => expect(cards()).toHaveLength(2));
    for (const card of cards()) expect(await within(card).findByTestId('mode-badge')).toHaveTextContent(/^Paper$/);

    const f = await openCreateForm();
    await userEvent.selectOptions(f.getByLabelText('Exchange'), 'Binance');
    await waitFor(() => expect(f.getByTestId('balance')).toHaveTextContent('10,000.00 USDT'));
    const readout = f.getByTestId('balance').closest('.readout') as HTMLElement;
    expect(within(readout).getByTestId('mode-badge')).toHaveTextContent(/^Paper$/);
  });

  it('live: the bot page says "Live"; testnet: "Testnet"', async () => {
    mockFetch(routes({ mode: 'live' }));
    renderApp('/bots/b1', { user: USER });
    const page = await screen.findByTestId('bot-page', {}, { timeout: 5000 });
    expect(await within(page).findByTestId('mode-badge')).toHaveTextContent(/^Live$/);
    expect(within(page).getByTestId('mode-badge')).toHaveAttribute('title', 'Live trading: real money on the exchange');

    mockFetch(routes({ mode: 'testnet' }));
    renderApp('/bots', { user: USER });
    await waitFor(() => expect(cards()).toHaveLength(2));
    expect(await within(cards()[0]).findByTestId('mode-badge')).toHaveTextContent(/^Testnet$/);
  });

  it('an unknown mode (an older server) shows no badge rather than a guess', async () => {
    mockFetch(routes({ status: 404, body: { statusCode: 404, message: 'Not Found' } }));
    renderApp('/bots', { user: USER });
    await waitFor(() => expect(cards()).toHaveLength(2));
    await waitFor(() => expect(screen.queryAllByTestId('mode-badge')).toHaveLength(0));
  });
});

describe('which prices a paper account trades on (issue 39)', () => {
  const venueFeed = (live: boolean) => ({
    mode: 'paper',
    feed: {
      kind: 'venue',
      streams: [
        { exchange: 'Binance', market: 'spot', live, since: Date.UTC(2026, 0, 5, 9, 30), lastPriceAt: null, ...(live ? {} : { reason: 'NetworkError' }) },
        { exchange: 'Kucoin', market: 'spot', live: true, since: 1, lastPriceAt: 2 },
      ],
    },
  });

  it('the venue feed: the bot page says "on live prices from Binance spot", the card\'s badge title too', async () => {
    mockFetch(routes(venueFeed(true)));
    renderApp('/bots/b1', { user: USER });
    const page = await screen.findByTestId('bot-page', {}, { timeout: 5000 });
    expect(await within(page).findByTestId('paper-feed')).toHaveTextContent(/^on live prices from Binance spot$/);
    expect(within(page).getByTestId('mode-badge')).toHaveTextContent(/^Paper$/);
    expect(within(page).getByTestId('mode-badge').getAttribute('title')).toMatch(/no real money; live prices from Binance spot$/);

    mockFetch(routes(venueFeed(true)));
    renderApp('/bots', { user: USER });
    await waitFor(() => expect(cards()).toHaveLength(2));
    expect(await within(cards()[0]).findByTestId('mode-badge')).toHaveAttribute('title', expect.stringMatching(/live prices from Binance spot$/));
    expect(within(cards()[0]).queryByTestId('paper-feed')).toBeNull();
  });

  it('the stream down: the bot page says since when, and that the last prices are kept', async () => {
    mockFetch(routes(venueFeed(false)));
    renderApp('/bots/b1', { user: USER });
    const page = await screen.findByTestId('bot-page', {}, { timeout: 5000 });
    const note = await within(page).findByTestId('paper-feed');
    expect(note).toHaveTextContent(/^on prices from Binance spot: stream down since .+, last prices kept$/);
    expect(note).toHaveClass('paper-feed--down');
  });

  it.each([
    ['walk', /^on simulated prices \(random walk\)$/],
    ['csv', /^on replayed prices \(a price file\)$/],
  ])('the %s feed: the bot page says the prices are simulated or replayed', async (kind, text) => {
    mockFetch(routes({ mode: 'paper', feed: { kind, streams: [] } }));
    renderApp('/bots/b1', { user: USER });
    const page = await screen.findByTestId('bot-page', {}, { timeout: 5000 });
    expect(await within(page).findByTestId('paper-feed')).toHaveTextContent(text);
  });

  it('live mode: no feed note', async () => {
    mockFetch(routes({ mode: 'live', feed: null }));
    renderApp('/bots/b1', { user: USER });
    const page = await screen.findByTestId('bot-page', {}, { timeout: 5000 });
    expect(await within(page).findByTestId('mode-badge')).toHaveTextContent(/^Live$/);
    expect(within(page).queryByTestId('paper-feed')).toBeNull();
  });
});
