import { fireEvent, screen, within } from '@testing-library/react';
import { fake, FakeSocket, socketModuleMock } from './testing/fakeSocket';
import { baseRoutes, mockFetch, renderApp, USER } from './testing/utils';

jest.mock('./api/socket', () => socketModuleMock());
beforeEach(() => {
  fake.socket = new FakeSocket();
});
afterEach(() => window.localStorage.clear());

const BOT = '493e2dfa-c90c-4855-a7a3-5bca2c87ca00';
const T0 = Date.parse('2025-03-01T10:00:00.000Z');
const PERF = {
  id: BOT, symbol: 'AVAXUSDT', currency: 'USDT', realisedPnl: 2.5, unrealisedPnl: -0.5, totalPnl: 2, feesPaid: 0.9, position: 9.99, lastPrice: 29.9,
  capitalCommitted: 590, returnPercent: 0.34, annualisedPercent: 12.4, runtimeMs: 86_400_000, cyclesCompleted: 2, fills: 45,
  equity: [{ time: T0, pnl: 0 }, { time: T0 + 3_600_000, pnl: 1.5 }, { time: T0 + 7_200_000, pnl: 2 }],
};
const trade = (i: number) => ({
  fillId: `f${i}`, at: T0 + i * 60_000, role: i % 2 ? 'take-profit' : 'buy', side: i % 2 ? 'sell' : 'buy', price: 30, amount: 10, netAmount: i % 2 ? 10 : 9.99, fee: 0.3,
  feeAsset: null, feeCost: null, cycle: 1, profit: i % 2 ? 1.25 : null, cycleProfit: i === 0 ? null : 2.5,
});

describe('bot performance tab', () => {
  it('shows the P&L, returns, the equity curve, the trades a page at a time and the CSV export', async () => {
    const fetch = mockFetch({
      ...baseRoutes(),
      [`GET /api/bots/${BOT}/performance`]: PERF,
      [`GET /api/bots/${BOT}/trades`]: (url: URL) => {
        const offset = Number(url.searchParams.get('offset'));
        const items = Array.from({ length: 45 }, (_, i) => trade(i)).slice(offset, offset + Number(url.searchParams.get('limit')));
        return { items, total: 45, limit: 20, offset };
      },
    });
    renderApp(`/bots/${BOT}/performance`, { user: USER });
    expect(await screen.findByRole('heading', { name: 'Performance', level: 1 })).toBeInTheDocument();
    expect(await screen.findByTestId('total-pnl')).toHaveTextContent('2');
    expect(screen.getByText('Annualised')).toBeInTheDocument();
    expect(screen.getByTestId('equity-curve')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Performance' })).toHaveAttribute('aria-current', 'page');
    expect(screen.getByRole('link', { name: /Export the trades as CSV/ })).toHaveAttribute('href', `/api/bots/${BOT}/trades.csv`);
    const table = await screen.findByRole('table');
    const rows = within(table).getAllByRole('row');
    expect(rows).toHaveLength(21); // header + 20
    expect(rows[1]).toHaveTextContent('10 (9.99 held)'); // a buy whose fee was taken in the coin
    expect(rows[1]).toHaveTextContent('open'); // its cycle not completed
    expect(screen.getByText('1–20 of 45')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Older' }));
    expect(await screen.findByText('21–40 of 45')).toBeInTheDocument();
    const asked = fetch.mock.calls.map(([u]) => new URL(String(u), 'http://x')).filter((u) => u.pathname.endsWith('/trades'));
    expect(asked.map((u) => u.searchParams.get('offset'))).toEqual(['0', '20']);
  });
});
