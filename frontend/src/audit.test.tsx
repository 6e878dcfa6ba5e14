import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { freshSocketPerTest, socketModuleMock } from './testing/fakeSocket';
import { baseRoutes, makeBot, mockFetch, renderApp, USER } from './testing/utils';
import type { AuditBot } from './audit/auditApi';
import type { BotSummary } from './api/types';

jest.mock('./api/socket', () => socketModuleMock());
jest.mock('./bots/BotChart', () => ({ __esModule: true, default: () => <div data-testid="chart-stub" /> }));

freshSocketPerTest();

/**
 * Issue 40, point 11: an auditor had no list of bots to audit, and another user's bot page said "Bot not
 * found" to an auditor. The Audit section lists every user's bots with filters and pages; a bot opens
 * read-only (no start, stop, edit or delete); a trader sees neither.
 */
const AUDITOR = { ...USER, uid: 'aud-1', email: 'audit@example.com' };
const row = (over: Partial<AuditBot>): AuditBot => ({
  id: 'b-ann-1', userid: 'u-ann', owner: 'ann@example.com', exchange: 'Binance', symbol: 'BTCUSDT', bottype: 'Spot', status: 'running', name: null,
  createdat: '2026-05-01T10:00:00.000Z', updatedat: '2026-05-01T10:00:00.000Z', deletedat: null, ...over,
});
const ROWS = [row({}), row({ id: 'b-bob-1', userid: 'u-bob', owner: 'bob@example.com', exchange: 'Kucoin', symbol: 'ETHUSDT', status: 'deleted', deletedat: '2026-05-02T10:00:00.000Z' })];
const summary: BotSummary = {
  ladder: [{ price: 59000, size: 0.01, filled: 0, state: 'open' }], takeProfit: null, position: 0.02, dust: 0, averageEntry: 59500, lastPrice: 60000,
  unrealisedPnl: 10, realisedPnl: 3.5, realisedToday: 0, feesPaid: 0.6, cyclesCompleted: 1, fills: 3, capitalInUse: 1190, runtimeSeconds: 600,
  // issue 40: the rest of the one projection's figures
  totalPnl: 13.5, capitalCommitted: 1190, returnPercent: 1.13, annualisedPercent: null, runtimeMs: 600_000, currency: 'USDT', direction: 'long',
  lastRun: { startedAt: Date.now() - 600_000, endedAt: null, ms: 600_000 }, runs: 1, annualisedReturn: null, running: true, lastError: null, lastErrorAt: null,
};

function auditorRoutes(calls: URL[] = []) {
  return {
    ...baseRoutes(AUDITOR),
    'GET /api/audit/me': { auditor: true, auditorAddress: true },
    'GET /api/audit/bots': (url: URL) => {
      calls.push(url);
      const status = url.searchParams.get('status');
      const items = status ? ROWS.filter((r) => r.status === status) : ROWS;
      return { items, total: items.length, limit: 20, offset: 0 };
    },
    'GET /api/audit/bots/b-ann-1': { bot: ROWS[0], view: makeBot({ id: 'b-ann-1', userid: 'u-ann', state: 'running', botstatus: true }) },
    'GET /api/bots/b-ann-1/summary': summary,
    'GET /api/bots/aud-1': [],
  };
}

describe("the auditors' list and read-only bot page (issue 40, point 11)", () => {
  it('an auditor finds every user\'s bots in the Audit section, filters them, and opens one', async () => {
    const calls: URL[] = [];
    mockFetch(auditorRoutes(calls));
    renderApp('/audit', { user: AUDITOR });
    const table = await screen.findByRole('table', { name: 'Bots to audit' });
    const rows = within(table).getAllByTestId('audit-row');
    expect(rows.map((r) => r.getAttribute('data-bot-id'))).toEqual(['b-ann-1', 'b-bob-1']);
    expect(rows[0]).toHaveTextContent('ann@example.com');
    expect(rows[0]).toHaveTextContent('Binance spot');
    expect(rows[1]).toHaveTextContent('Deleted');
    expect(screen.getByTestId('audit-total')).toHaveTextContent('2 bots');
    // the navbar shows the section to an auditor
    expect(screen.getAllByRole('link', { name: 'Audit' }).length).toBeGreaterThan(0);

    await userEvent.selectOptions(screen.getByLabelText('Status'), 'deleted');
    await userEvent.type(screen.getByLabelText('Owner'), 'bob@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Filter' }));
    await waitFor(() => expect(within(screen.getByRole('table', { name: 'Bots to audit' })).getAllByTestId('audit-row')).toHaveLength(1));
    const last = calls[calls.length - 1];
    expect(Object.fromEntries(last.searchParams)).toEqual({ owner: 'bob@example.com', status: 'deleted', limit: '20', offset: '0' });
    expect(screen.getByRole('link', { name: /^History of ETH.?USDT \(bob@example\.com\)$/ })).toHaveAttribute('href', '/bots/b-bob-1/history');
  });

  it("another user's bot opens read-only for an auditor: its figures and settings, no start, stop, edit or delete", async () => {
    mockFetch(auditorRoutes());
    renderApp('/bots/b-ann-1', { user: AUDITOR });
    expect(await screen.findByTestId('audit-bot-page')).toBeInTheDocument();
    expect(screen.getByTestId('read-only')).toHaveTextContent('Read-only: you are auditing ann@example.com’s bot. Auditors cannot start, stop, edit or delete it.');
    await waitFor(() => expect(screen.getByTestId('figure-realised')).toHaveTextContent('3.50'));
    expect(screen.getByTestId('figure-fills')).toHaveTextContent('3');
    expect(screen.queryByText('Bot not found')).not.toBeInTheDocument();
    for (const name of [/^Start/, /^Stop/, /^Edit/, /^Delete/]) expect(screen.queryByRole('button', { name })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'History' })).toHaveAttribute('href', '/bots/b-ann-1/history');
  });

  it('a trader has no Audit section, and another user\'s bot is still "Bot not found"', async () => {
    mockFetch({ ...baseRoutes(USER), 'GET /api/audit/me': { auditor: false, auditorAddress: false }, 'GET /api/bots/u-1': [] });
    renderApp('/bots/b-ann-1', { user: USER });
    expect(await screen.findByRole('heading', { name: 'Bot not found' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Audit' })).not.toBeInTheDocument();
  });

  it('a trader opening /audit is told it is for auditors', async () => {
    mockFetch({ ...baseRoutes(USER), 'GET /api/audit/me': { auditor: false, auditorAddress: false } });
    renderApp('/audit', { user: USER });
    expect(await screen.findByText('This page is for auditors: it lists every user’s bots.')).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });
});
