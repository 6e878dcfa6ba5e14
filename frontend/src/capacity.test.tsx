import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { capacityAnswer, capacityRefusal } from '@gridrocket/bots/domain/capacity';
import { freshSocketPerTest, socketModuleMock } from './testing/fakeSocket';
import { baseRoutes, mockFetch, renderApp, USER, spotMarketRoutes, openCreateForm } from './testing/utils';

jest.mock('./api/socket', () => socketModuleMock());
jest.mock('./bots/BotChart', () => ({ __esModule: true, default: () => <div data-testid="chart-stub" /> }));

freshSocketPerTest();

const exchangeRoutes = spotMarketRoutes(100);

/** The server's answer (the same pure module): the account's other bots hold up to 170 orders on BTCUSDT. */
function capacityRoute(asked: URLSearchParams[]) {
  return (url: URL) => {
    asked.push(url.searchParams);
    const a = capacityAnswer({ exchange: 'Binance', botType: 'Spot', symbol: url.searchParams.get('symbol')!, bot: { numOfOrders: Number(url.searchParams.get('numOfOrders')) }, others: [{ symbol: 'BTCUSDT', openOrders: 170 }], otherSymbols: ['BTCUSDT'] });
    return { ...a, refusal: capacityRefusal(a) };
  };
}

describe('the capacity answer on the create form (issue 39)', () => {
  it("shows the orders at start, the open orders on the pair out of the venue's maximum and the weight budget; over the maximum it warns with the numbers", async () => {
    const asked: URLSearchParams[] = [];
    mockFetch({ ...baseRoutes(), 'GET /api/bots/u-1': [], ...exchangeRoutes, 'GET /api/bot-capacity': capacityRoute(asked) });
    renderApp('/bots', { user: USER });
    const f = await openCreateForm();
    const panel = within(f.getByTestId('capacity'));
    expect(panel.getByText('Choose the exchange, the pair and the grid size to see what your key can carry.')).toBeInTheDocument();

    await userEvent.selectOptions(f.getByLabelText('Exchange'), 'Binance');
    await userEvent.selectOptions(f.getByLabelText('Pair'), 'BTCUSDT');
    await userEvent.type(f.getByLabelText('Grid size'), '20');
    await waitFor(() => expect(panel.getByTestId('capacity-open')).toHaveTextContent('191 of 200'));
    expect(panel.getByTestId('capacity-open')).toHaveTextContent('your other bots up to 170, this bot up to 21 (MAX_NUM_ORDERS)');
    expect(panel.getByTestId('capacity-orders')).toHaveTextContent('20placed over about 2 s; at most 20 in 10 s, Binance spot allows 100 (ORDERS)');
    expect(panel.getByTestId('capacity-weight')).toHaveTextContent("0.87 %your bots 26 per 1 min of this install's 3,000 (50 % of 6,000, REQUEST_WEIGHT)");
    expect(panel.queryByTestId('capacity-warning')).toBeNull();
    const last = asked[asked.length - 1];
    expect(Object.fromEntries(last.entries())).toEqual({ exchange: 'Binance', symbol: 'BTCUSDT', botType: 'Spot', numOfOrders: '20' });

    await userEvent.clear(f.getByLabelText('Grid size'));
    await userEvent.type(f.getByLabelText('Grid size'), '40');
    await waitFor(() => expect(panel.getByTestId('capacity-open')).toHaveTextContent('211 of 200'));
    expect(panel.getByTestId('capacity-warning')).toHaveTextContent(
      'A start would be refused: This start places 40 orders on BTCUSDT and rests up to 41 there; Binance spot allows 200 open orders per symbol (MAX_NUM_ORDERS); your other bots hold up to 170 open on BTCUSDT: 211 in all.',
    );
    expect(panel.getByRole('meter', { name: 'Open orders on BTCUSDT' })).toHaveAttribute('aria-valuenow', '211');
    // the form's typing settles before it asks: not one request per keystroke
    expect(asked.map((q) => q.get('numOfOrders'))).not.toContain('4');
  });
});
