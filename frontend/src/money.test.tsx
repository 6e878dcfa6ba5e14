import { fireEvent, screen, within } from '@testing-library/react';
import { freshSocketPerTest, socketModuleMock } from './testing/fakeSocket';
import { baseRoutes, mockFetch, renderApp, USER } from './testing/utils';

jest.mock('./api/socket', () => socketModuleMock());
freshSocketPerTest();

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
    // every money figure says its unit (issue 29, finding 9)
    expect(await screen.findByTestId('total-pnl')).toHaveTextContent(/^\+2\.00 USDT$/);
    expect(screen.getByTestId('realised-pnl')).toHaveTextContent(/^\+2\.50 USDT$/);
    expect(screen.getByTestId('unrealised-pnl')).toHaveTextContent(/^−0\.50 USDT$/);
    expect(screen.getByTestId('capital-committed')).toHaveTextContent(/^590\.00 USDT$/);
    expect(screen.getByTestId('return')).toHaveTextContent(/^\+0\.34%$/);
    expect(screen.getByTestId('annualised')).toHaveTextContent(/^\+12\.40%$/);
    expect(screen.getByTestId('fees')).toHaveTextContent(/^0\.90 USDT$/);
    // the equity curve with its title, legend and both axes
    const curve = screen.getByTestId('equity-curve');
    expect(within(curve).getByTestId('equity-title')).toHaveTextContent('Equity of this bot (USDT)');
    expect(curve).toHaveTextContent('capital committed 590.00 USDT');
    expect(within(curve).getByTestId('equity-y-unit')).toHaveTextContent('USDT');
    expect(within(curve).getAllByTestId('equity-y-tick').length).toBeGreaterThanOrEqual(2);
    const xs = within(curve).getAllByTestId('equity-x-tick').map((t) => t.textContent);
    expect(xs.length).toBeGreaterThanOrEqual(2);
    expect(new Set(xs).size).toBe(xs.length);
    expect(screen.getByRole('link', { name: 'Performance' })).toHaveAttribute('aria-current', 'page');
    expect(screen.getByRole('link', { name: /Export the trades as CSV/ })).toHaveAttribute('href', `/api/bots/${BOT}/trades.csv`);
    const table = await screen.findByRole('table');
    const rows = within(table).getAllByRole('row');
    expect(rows).toHaveLength(21); // header + 20
    expect(rows[1]).toHaveTextContent('10 AVAX (9.99 held)'); // a buy whose fee was taken in the coin
    expect(rows[1]).toHaveTextContent('open'); // its cycle not completed
    expect(screen.getByText('1–20 of 45')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Older' }));
    expect(await screen.findByText('21–40 of 45')).toBeInTheDocument();
    const asked = fetch.mock.calls.map(([u]) => new URL(String(u), 'http://x')).filter((u) => u.pathname.endsWith('/trades'));
    expect(asked.map((u) => u.searchParams.get('offset'))).toEqual(['0', '20']);
  });
});

const ACCOUNT = {
  bots: 2, botsRunning: 2, currency: 'USDT', others: [], realisedPnl: 10.123456789, realisedToday: 1.5, unrealisedPnl: 2.22222222, totalPnl: 12.345678912, feesPaid: 1.87654321, capitalCommitted: 1234.56789, capitalInUse: 456.789,
  returnPercent: 1.000006789, annualisedPercent: 45.678912345, runtimeMs: 7 * 86_400_000, cyclesCompleted: 3, fills: 12,
  equity: [{ time: T0, pnl: 0 }, { time: T0 + 3_600_000, pnl: -1.5 }, { time: T0 + 7_200_000, pnl: 12.345678912 }],
  perBot: [],
};

describe('account performance on the bots page', () => {
  const routes = (account: unknown) => ({ ...baseRoutes(), 'GET /api/bots/u-1': [], 'GET /api/bots-overview': [], 'GET /api/performance': account });

  it('shows total, realised and unrealised P&L, return, annualised return with 2 decimals, and the equity curve', async () => {
    mockFetch(routes(ACCOUNT));
    renderApp('/bots', { user: USER });
    const section = await screen.findByTestId('account-performance');
    expect(within(section).getByRole('heading', { name: 'Performance' })).toBeInTheDocument();
    expect(within(section).getByTestId('account-total-pnl')).toHaveTextContent('+12.35 USDT');
    expect(within(section).getByTestId('account-realised')).toHaveTextContent('+10.12 USDT');
    expect(within(section).getByTestId('account-unrealised')).toHaveTextContent('+2.22 USDT');
    expect(within(section).getByTestId('account-capital')).toHaveTextContent(/^1,234\.57 USDTby 2 running bots$/);
    expect(within(section).getByTestId('account-capital-in-use')).toHaveTextContent(/^456\.79 USDT$/);
    expect(within(section).getByText('Return on capital')).toBeInTheDocument();
    expect(within(section).getByTestId('account-return')).toHaveTextContent(/^\+1\.00%$/);
    expect(within(section).getByTestId('account-annualised')).toHaveTextContent(/^\+45\.68%$/);
    expect(within(section).getByTestId('account-fees')).toHaveTextContent('1.88 USDT');
    // no raw 8-decimal figure reaches the page
    expect(section.textContent).not.toMatch(/\d\.\d{3,}/);
    const curve = within(section).getByTestId('equity-curve');
    expect(within(curve).getByRole('img')).toHaveAttribute('aria-label', expect.stringMatching(/^Equity of all your bots from 1,234\.57 to 1,246\.91 USDT, /));
    // value ticks span the curve (1,233.07 … 1,246.91) in round steps
    const ys = within(curve).getAllByTestId('equity-y-tick').map((t) => Number(t.textContent!.replace(/,/g, '')));
    expect(Math.min(...ys)).toBeLessThanOrEqual(1233.07);
    expect(Math.max(...ys)).toBeGreaterThanOrEqual(1246.91);
    expect(curve.querySelector('polyline')?.getAttribute('points')?.split(' ')).toHaveLength(3);
    expect(within(section).getByText(/Over 2 bots/)).toBeInTheDocument();
  });

  it('a loss reads with a minus sign and a bot too young for an annualised figure shows a dash', async () => {
    mockFetch(routes({ ...ACCOUNT, bots: 1, totalPnl: -3.456, returnPercent: -0.28, annualisedPercent: null, runtimeMs: 600_000, equity: [{ time: T0, pnl: -3.456 }] }));
    renderApp('/bots', { user: USER });
    const section = await screen.findByTestId('account-performance');
    expect(within(section).getByTestId('account-total-pnl')).toHaveTextContent('−3.46 USDT');
    expect(within(section).getByTestId('account-return')).toHaveTextContent('−0.28%');
    // issue 40, point 5: before 7 days of running a dash and why (the runtime so far)
    expect(within(section).getByTestId('account-annualised')).toHaveTextContent('— (from 7 days of running; 10m 0s so far)');
    expect(within(section).queryByTestId('equity-curve')).not.toBeInTheDocument();
    expect(within(section).getByText(/The equity curve starts with your bots' first fills/)).toBeInTheDocument();
  });

  it('a user without bots sees an empty state, not zeros', async () => {
    mockFetch(routes({ ...ACCOUNT, bots: 0, realisedPnl: 0, unrealisedPnl: 0, totalPnl: 0, feesPaid: 0, capitalCommitted: 0, returnPercent: null, annualisedPercent: null, runtimeMs: 0, cyclesCompleted: 0, fills: 0, equity: [] }));
    renderApp('/bots', { user: USER });
    const section = await screen.findByTestId('account-performance');
    expect(within(section).getByTestId('account-performance-empty')).toHaveTextContent(/No bots yet/);
    expect(within(section).queryByTestId('account-total-pnl')).not.toBeInTheDocument();
    expect(within(section).queryByTestId('equity-curve')).not.toBeInTheDocument();
  });
});

describe('the trades list on a phone', () => {
  it('every value of a trade carries its label, so the narrow layout shows each trade as a card of label/value lines', async () => {
    mockFetch({
      ...baseRoutes(),
      [`GET /api/bots/${BOT}/performance`]: { ...PERF, returnPercent: 0.338983051, annualisedPercent: 123.456789 },
      [`GET /api/bots/${BOT}/trades`]: { items: [{ ...trade(1), price: 29.123456789123, amount: 0.123456789, netAmount: 0.123456789 }, trade(0)], total: 2, limit: 20, offset: 0 },
    });
    renderApp(`/bots/${BOT}/performance`, { user: USER });
    const table = await screen.findByRole('table');
    const [header, sell, buy] = within(table).getAllByRole('row');
    const columns = within(header).getAllByRole('columnheader').map((h) => h.textContent);
    expect(columns).toEqual(['Time', 'Fill', 'Price', 'Amount', 'Fee', 'Cycle profit']);
    for (const row of [sell, buy]) {
      const cells = within(row).getAllByRole('cell');
      // each cell starts with its column's label, then its value
      expect(cells.map((c) => c.querySelector('.money__label')?.textContent)).toEqual(columns);
      expect(cells.map((c) => c.getAttribute('data-label'))).toEqual(columns);
      for (const c of cells) expect(c.querySelector('.money__value')?.textContent).not.toBe('');
    }
    const value = (row: HTMLElement, label: string) => within(row).getAllByRole('cell').find((c) => c.getAttribute('data-label') === label)!.querySelector('.money__value')!.textContent;
    expect(value(sell, 'Fill')).toBe('Take-profit');
    expect(value(sell, 'Price')).toBe('29.123457 USDT');
    expect(value(sell, 'Amount')).toBe('0.12345679 AVAX');
    expect(value(sell, 'Fee')).toBe('0.30 USDT');
    expect(value(sell, 'Cycle profit')).toBe('+2.50 USDT');
    expect(value(buy, 'Amount')).toBe('10 AVAX (9.99 held)');
    expect(value(buy, 'Cycle profit')).toBe('open');
    // the bot's returns read with 2 decimals too
    expect(screen.getByText('+0.34%')).toBeInTheDocument();
    expect(screen.getByText('+123.46%')).toBeInTheDocument();
  });
});
