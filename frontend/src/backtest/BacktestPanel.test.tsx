import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fake, socketModuleMock } from '../testing/fakeSocket';
import { mockFetch } from '../testing/utils';
import { BacktestPanel, type GridValues } from './BacktestPanel';

jest.mock('../api/socket', () => socketModuleMock());

const VALUES: GridValues = { exchange: 'Binance', symbol: 'SOLUSDT', entryPrice: '140', numOfOrders: '10', orderSize: '0.1', interval: '1', takeProfit: '1' };
const ID = '11111111-2222-4333-8444-555555555555';
const RESULT = {
  candles: 43200, from: 0, to: 1, capital: 135.5, profit: 4.21, unrealised: -1.5, fees: 0.8, cycles: 7, fills: 30, maxDrawdown: 6.1, maxDrawdownPct: 0.045,
  timeInMarket: 0.6, endEquity: 138.21, totalReturn: 0.02, annualisedReturn: 0.27, buyAndHold: { profit: -3, totalReturn: -0.022 },
  curve: { time: [0, 1, 2], equity: [135.5, 133, 138.21] },
};

describe('BacktestPanel', () => {
  it('backtests the form\'s grid over the last 30 days and shows the figures and the equity curve', async () => {
    document.cookie = 'csrf_token=test-csrf';
    let polls = 0;
    const fetch = mockFetch({
      'POST /api/backtests': { status: 202, body: { id: ID, status: 'running' } },
      [`GET /api/backtests/${ID}`]: () => ({ status: 200, body: ++polls === 1 ? { id: ID, status: 'running' } : { id: ID, kind: 'single', status: 'done', candles: 43200, terms: { feeBps: 10, feeSource: 'paper' }, result: RESULT, sweep: null } }),
    });
    render(<BacktestPanel botType="Spot" values={VALUES} disabled={false} onApply={() => undefined} />);
    await userEvent.click(screen.getByRole('button', { name: 'Backtest last 30 days' }));
    await waitFor(() => expect(polls).toBe(1)); // asked once: still running, now listening
    act(() => fake.socket.push('backtest:progress', { id: ID, phase: 'running', done: 1, total: 2 }));
    expect(screen.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '50');
    act(() => fake.socket.push('backtest:done', { id: ID, status: 'done' }));
    const result = await screen.findByTestId('backtest-result');
    expect(within(result).getByTestId('backtest-profit')).toHaveTextContent('4.21 USDT');
    expect(within(result).getByTestId('equity-curve').querySelector('polyline')!.getAttribute('points')!.split(' ')).toHaveLength(3);
    expect(result).toHaveTextContent('Buy and hold-3.00 USDT (-2.20 %)');
    const posted = fetch.mock.calls.find(([u, init]) => String(u).endsWith('/api/backtests') && init?.method === 'POST')!;
    expect(JSON.parse(String(posted[1]!.body))).toMatchObject({ exchange: 'Binance', symbol: 'SOLUSDT', botType: 'Spot', numOfOrders: 10, orderSize: 0.1, interval: 1, entryPrice: 140, takeProfit: 1, days: 30 });
  });

  it('a CSV of candles is uploaded, then backtested by its id', async () => {
    const fetch = mockFetch({
      'POST /api/backtests/candles': { status: 201, body: { candlesId: 'c-1', candles: 2, from: 0, to: 60000 } },
      'POST /api/backtests': { status: 202, body: { id: ID, status: 'running' } },
      [`GET /api/backtests/${ID}`]: { status: 200, body: { id: ID, kind: 'single', status: 'done', candles: 2, terms: null, result: RESULT, sweep: null } },
    });
    render(<BacktestPanel botType="Spot" values={VALUES} disabled={false} onApply={() => undefined} />);
    const file = new File(['0,1,2,0.5,1.5\n60000,1.5,2,1,1.8'], 'candles.csv', { type: 'text/csv' });
    if (!file.text) Object.defineProperty(file, 'text', { value: async () => '0,1,2,0.5,1.5\n60000,1.5,2,1,1.8' });
    await userEvent.upload(screen.getByLabelText('Backtest a CSV of candles…'), file);
    await screen.findByTestId('backtest-result');
    const upload = fetch.mock.calls.find(([u]) => String(u).endsWith('/api/backtests/candles'))!;
    expect(upload[1]!.body).toBe('0,1,2,0.5,1.5\n60000,1.5,2,1,1.8');
    const posted = fetch.mock.calls.find(([u, init]) => String(u).endsWith('/api/backtests') && init?.method === 'POST')!;
    expect(JSON.parse(String(posted[1]!.body)).candles).toBe('c-1');
  });

  it('shows the field messages of a refused request', async () => {
    mockFetch({ 'POST /api/backtests': { status: 400, body: { statusCode: 400, message: 'Invalid input', errors: [{ field: 'symbol', message: 'symbol must be one of the offered pairs, e.g. BTCUSDT' }] } } });
    render(<BacktestPanel botType="Spot" values={VALUES} disabled={false} onApply={() => undefined} />);
    await userEvent.click(screen.getByRole('button', { name: 'Backtest last 30 days' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('symbol must be one of the offered pairs');
  });

  it('sweeps, draws the heatmap of profit over interval × grid size, and a click on a cell fills the form', async () => {
    const points = [
      { interval: 0.5, numOfOrders: 6, takeProfit: 0.5, profit: 1, unrealised: 0, totalReturn: 0.01, maxDrawdownPct: 0.1, cycles: 3 },
      { interval: 0.5, numOfOrders: 6, takeProfit: 1, profit: 2, unrealised: 0.5, totalReturn: 0.02, maxDrawdownPct: 0.1, cycles: 2 },
      { interval: 1, numOfOrders: 6, takeProfit: 0.5, profit: -1, unrealised: 0, totalReturn: -0.01, maxDrawdownPct: 0.1, cycles: 1 },
      { interval: 1, numOfOrders: 8, takeProfit: 0.5, profit: null, unrealised: null, totalReturn: null, maxDrawdownPct: null, cycles: null, error: 'too small' },
    ];
    const fetch = mockFetch({
      'POST /api/backtests/sweep': { status: 202, body: { id: ID, status: 'running' } },
      [`GET /api/backtests/${ID}`]: { status: 200, body: { id: ID, kind: 'sweep', status: 'done', candles: 43200, terms: null, result: null, sweep: { points, best: points[1] } } },
    });
    const onApply = jest.fn();
    const { rerender } = render(<BacktestPanel botType="Spot" values={{ ...VALUES, interval: '' }} disabled={false} onApply={onApply} />);
    rerender(<BacktestPanel botType="Spot" values={{ ...VALUES, interval: '2' }} disabled={false} onApply={onApply} />); // the form filled in after mounting
    await userEvent.click(screen.getByRole('button', { name: 'Sweep parameters…' }));
    await userEvent.click(screen.getByRole('button', { name: 'Run sweep' }));
    const map = await screen.findByTestId('sweep-heatmap');
    expect(within(map).getAllByRole('button')).toHaveLength(2); // two cells can trade, the best take-profit of each
    await userEvent.click(within(map).getByRole('button', { name: 'Use interval 0.5, 6 orders, take-profit 1 %' }));
    expect(onApply).toHaveBeenCalledWith({ interval: 0.5, numOfOrders: 6, takeProfit: 1 });
    const posted = fetch.mock.calls.find(([u]) => String(u).endsWith('/api/backtests/sweep'))!;
    expect(JSON.parse(String(posted[1]!.body)).ranges).toEqual({ interval: { from: 1, to: 3, step: 0.5 }, numOfOrders: { from: 6, to: 14, step: 2 }, takeProfit: { from: 0.5, to: 2.5, step: 0.5 } });
  });
});
