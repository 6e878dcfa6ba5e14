import { screen, within } from '@testing-library/react';
import { socketModuleMock } from './testing/fakeSocket';
import { baseRoutes, mockFetch, renderApp, USER } from './testing/utils';
import type { BalancesAnswer } from './balances/balancesApi';

jest.mock('./api/socket', () => socketModuleMock());
afterEach(() => window.localStorage.clear());

/** Issue 40: the balances page per venue, market and asset (free and locked), in the navigation. */
const ANSWER: BalancesAnswer = {
  mode: 'live',
  cacheSeconds: 10,
  accounts: [
    { exchange: 'Binance', market: 'spot', state: 'ok', message: null, assets: [{ asset: 'USDT', free: 7510, locked: 2490, total: 10000 }, { asset: 'BTC', free: 0.05, locked: 0, total: 0.05 }], readAt: Date.now(), cached: false, read: { call: 'GET /api/v3/account', weight: 20, pool: 'REQUEST_WEIGHT 6,000 a minute per IP', source: 'https://developers.binance.com/' } },
    { exchange: 'Binance', market: 'futures', state: 'unavailable', message: 'The exchange is unreachable or not available right now.', assets: [], readAt: null, cached: false, read: { call: 'GET /fapi/v3/account', weight: 5, pool: 'REQUEST_WEIGHT 2,400 a minute per IP', source: 'https://developers.binance.com/' } },
    { exchange: 'Kucoin', market: 'spot', state: 'no-key', message: 'Add a Kucoin API key on the API keys page to see its spot balances.', assets: [], readAt: null, cached: false, read: null },
  ],
};

describe('the balances page (issue 40)', () => {
  it('shows each account: free and locked per asset, what a read weighs, a missing key and an exchange that did not answer', async () => {
    mockFetch({ ...baseRoutes(USER), 'GET /api/balances': ANSWER, 'GET /api/exchange-mode': { mode: 'live', feed: null } });
    renderApp('/balances', { user: USER });
    const spot = await screen.findByTestId('bal-Binance-spot');
    expect(within(spot).getByRole('heading', { name: /Binance Spot/ })).toBeInTheDocument();
    expect(screen.getByTestId('bal-Binance-spot-USDT-free')).toHaveTextContent('7,510');
    expect(screen.getByTestId('bal-Binance-spot-USDT-locked')).toHaveTextContent('2,490');
    expect(screen.getByTestId('bal-Binance-spot-BTC-free')).toHaveTextContent('0.05');
    expect(spot).toHaveTextContent('one read: GET /api/v3/account, weight 20 of REQUEST_WEIGHT 6,000 a minute per IP');
    expect(within(screen.getByTestId('bal-Binance-futures')).getByRole('alert')).toHaveTextContent('The exchange is unreachable');
    const kucoin = screen.getByTestId('bal-Kucoin-spot');
    expect(kucoin).toHaveTextContent('Add a Kucoin API key on the API keys page to see its spot balances.');
    expect(within(kucoin).getByRole('link', { name: 'API keys' })).toHaveAttribute('href', '/security');
    expect(screen.getByText('Live: your accounts on the venues', { exact: false })).toBeInTheDocument();
    // in the navigation
    expect(screen.getAllByRole('link', { name: 'Balances' })[0]).toHaveAttribute('href', '/balances');
  });
});
