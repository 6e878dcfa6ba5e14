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
    expect(result).toHaveTextContent('43,200 candles, capital 135.50 USDT; fees: paper');
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
    const upload = fetch.mock.calls.find(([u, init]) => String(u).startsWith('/api/backtests/candles') && init?.method === 'POST')!;
    expect(String(upload[0])).toBe('/api/backtests/candles?name=candles.csv'); // the file's name goes with it: the list shows it later
    expect(upload[1]!.body).toBe('0,1,2,0.5,1.5\n60000,1.5,2,1,1.8');
    const posted = fetch.mock.calls.find(([u, init]) => String(u).endsWith('/api/backtests') && init?.method === 'POST')!;
    expect(JSON.parse(String(posted[1]!.body)).candles).toBe('c-1');
  });

  it('lists the uploads already on the server (another visit, another browser), each with Delete', async () => {
    const fetch = mockFetch({
      'GET /api/backtests/candles': [
        { candlesId: 'c-old', candles: 1440, from: Date.UTC(2026, 0, 1), to: Date.UTC(2026, 0, 1, 23, 59), name: 'january.csv', bytes: 50_000 },
        { candlesId: 'c-nameless', candles: 60, from: Date.UTC(2026, 1, 1), to: Date.UTC(2026, 1, 1, 0, 59), name: null, bytes: 2_000 },
      ],
      'DELETE /api/backtests/candles/c-old': { status: 204 },
    });
    render(<BacktestPanel botType="Spot" values={VALUES} disabled={false} onApply={() => undefined} />);
    const list = await screen.findByRole('list', { name: 'Uploaded candles' });
    expect(list).toHaveTextContent('january.csv');
    expect(list).toHaveTextContent('1440 candles');
    expect(list).toHaveTextContent('Uploaded CSV');
    await userEvent.click(screen.getByRole('button', { name: 'Delete january.csv' }));
    expect(await screen.findByText('january.csv deleted.')).toBeInTheDocument();
    expect(fetch.mock.calls.some(([u, init]) => String(u) === '/api/backtests/candles/c-old' && init?.method === 'DELETE')).toBe(true);
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

  describe('cancel', () => {
    it('a running sweep is cancelled with DELETE and then shows "Cancelled"', async () => {
      document.cookie = 'csrf_token=test-csrf';
      let deleted = false;
      const fetch = mockFetch({
        'POST /api/backtests/sweep': { status: 202, body: { id: ID, status: 'running' } },
        [`GET /api/backtests/${ID}`]: () => ({ status: 200, body: { id: ID, kind: 'sweep', status: deleted ? 'cancelled' : 'running', error: deleted ? 'Cancelled' : null } }),
        [`DELETE /api/backtests/${ID}`]: () => {
          deleted = true;
          return { status: 204 };
        },
      });
      render(<BacktestPanel botType="Spot" values={VALUES} disabled={false} onApply={() => undefined} />);
      await userEvent.click(screen.getByRole('button', { name: 'Sweep parameters…' }));
      await userEvent.click(screen.getByRole('button', { name: 'Run sweep' }));
      act(() => fake.socket.push('backtest:progress', { id: ID, phase: 'running', done: 3, total: 100 }));
      await userEvent.click(await screen.findByRole('button', { name: 'Cancel sweep' }));
      expect(await screen.findByRole('status')).toHaveTextContent('Cancelled');
      expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
      expect(screen.queryByRole('button', { name: 'Cancel sweep' })).not.toBeInTheDocument();
      expect(screen.getByRole('button', { name: 'Run sweep' })).toBeEnabled();
      const del = fetch.mock.calls.find(([u, init]) => String(u).endsWith(`/api/backtests/${ID}`) && init?.method === 'DELETE')!;
      expect((del[1]!.headers as Record<string, string>)['X-CSRF-Token']).toBe('test-csrf');
      act(() => fake.socket.push('backtest:done', { id: ID, status: 'cancelled' })); // the push that follows changes nothing
      expect(screen.getByRole('status')).toHaveTextContent('Cancelled');
      expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    });

    it('a cancel refused with 409 (it had just finished) shows the result, no error', async () => {
      let polls = 0;
      let finished = false;
      mockFetch({
        'POST /api/backtests': { status: 202, body: { id: ID, status: 'running' } },
        [`GET /api/backtests/${ID}`]: () => {
          polls++;
          return { status: 200, body: finished ? { id: ID, kind: 'single', status: 'done', candles: 43200, terms: null, result: RESULT, sweep: null } : { id: ID, status: 'running' } };
        },
        [`DELETE /api/backtests/${ID}`]: () => {
          finished = true;
          return { status: 409, body: { statusCode: 409, message: 'The backtest has already finished' } };
        },
      });
      render(<BacktestPanel botType="Spot" values={VALUES} disabled={false} onApply={() => undefined} />);
      await userEvent.click(screen.getByRole('button', { name: 'Backtest last 30 days' }));
      await waitFor(() => expect(polls).toBe(1));
      await userEvent.click(screen.getByRole('button', { name: 'Cancel backtest' }));
      expect(await screen.findByTestId('backtest-result')).toBeInTheDocument(); // read again at once, not at the next poll
      expect(screen.queryByRole('alert')).not.toBeInTheDocument();
      expect(screen.queryByText('Cancelled')).not.toBeInTheDocument();
    });

    it('a cancel that fails (404) says so and keeps waiting', async () => {
      mockFetch({
        'POST /api/backtests': { status: 202, body: { id: ID, status: 'running' } },
        [`GET /api/backtests/${ID}`]: { status: 200, body: { id: ID, status: 'running' } },
        [`DELETE /api/backtests/${ID}`]: { status: 404, body: { statusCode: 404, message: 'No backtest with this id' } },
      });
      render(<BacktestPanel botType="Spot" values={VALUES} disabled={false} onApply={() => undefined} />);
      await userEvent.click(screen.getByRole('button', { name: 'Backtest last 30 days' }));
      await userEvent.click(await screen.findByRole('button', { name: 'Cancel backtest' }));
      expect(await screen.findByRole('alert')).toHaveTextContent('Not cancelled: No backtest with this id');
      expect(screen.getByRole('progressbar')).toBeInTheDocument();
      expect(screen.getByRole('button', { name: 'Cancel backtest' })).toBeEnabled();
    });
  });

  it.each([
    ['interrupted', 'The server stopped while this backtest ran; run it again', 'Interrupted: the server restarted while it ran. Run it again.'],
    ['failed', 'No candles for SOLUSDT in this period', 'Failed: No candles for SOLUSDT in this period'],
  ])('a backtest that ends %s says so', async (status, error, shown) => {
    mockFetch({
      'POST /api/backtests': { status: 202, body: { id: ID, status: 'running' } },
      [`GET /api/backtests/${ID}`]: { status: 200, body: { id: ID, kind: 'single', status, error, result: null, sweep: null } },
    });
    render(<BacktestPanel botType="Spot" values={VALUES} disabled={false} onApply={() => undefined} />);
    await userEvent.click(screen.getByRole('button', { name: 'Backtest last 30 days' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(shown);
  });

  it('lists the recent backtests with their status, and one still running can be cancelled there', async () => {
    const OTHER = '99999999-2222-4333-8444-555555555555';
    const row = (id: string, status: string, error: string | null, kind = 'single') => ({
      id, kind, status, error, createdat: '2026-11-26T12:00:00.000Z', finishedat: null, candles: null, terms: null, result: null, sweep: null,
      request: { exchange: 'Binance', symbol: 'SOLUSDT', timeframe: '1m', from: 0, to: 1 },
    });
    let cancelled = false;
    const fetch = mockFetch({
      'GET /api/backtests': () => [
        row(OTHER, cancelled ? 'cancelled' : 'running', cancelled ? 'Cancelled' : null, 'sweep'),
        row('a1', 'interrupted', 'The server stopped while this backtest ran; run it again'),
        row('a2', 'failed', 'No candles'),
        row('a3', 'cancelled', 'Cancelled'),
      ],
      [`DELETE /api/backtests/${OTHER}`]: () => {
        cancelled = true;
        return { status: 204 };
      },
    });
    render(<BacktestPanel botType="Spot" values={VALUES} disabled={false} onApply={() => undefined} />);
    const list = await screen.findByRole('list', { name: 'Recent backtests' });
    const rows = within(list).getAllByRole('listitem');
    expect(rows.map((r) => r.getAttribute('data-status'))).toEqual(['running', 'interrupted', 'failed', 'cancelled']);
    expect(rows[0]).toHaveTextContent('Sweep SOLUSDT');
    expect(rows[0]).toHaveTextContent('Running');
    expect(rows[1]).toHaveTextContent('Interrupted: the server restarted while it ran');
    expect(rows[2]).toHaveTextContent('Failed: No candles');
    expect(rows[3]).toHaveTextContent('Cancelled');
    await userEvent.click(within(rows[0]).getByRole('button', { name: /^Cancel the sweep started/ }));
    await waitFor(() => expect(within(list).getAllByRole('listitem')[0]).toHaveAttribute('data-status', 'cancelled'));
    expect(within(list).queryByRole('button')).not.toBeInTheDocument();
    expect(fetch.mock.calls.some(([u, init]) => String(u).endsWith(`/api/backtests/${OTHER}`) && init?.method === 'DELETE')).toBe(true);
  });

  it('a 409 from a cancel in the list (it had finished) refreshes the list quietly', async () => {
    let finished = false;
    mockFetch({
      'GET /api/backtests': () => [{ id: 'b1', kind: 'single', status: finished ? 'done' : 'running', error: null, createdat: '2026-11-26T12:00:00.000Z', result: null, sweep: null }],
      'DELETE /api/backtests/b1': () => {
        finished = true;
        return { status: 409, body: { statusCode: 409, message: 'The backtest has already finished' } };
      },
    });
    render(<BacktestPanel botType="Spot" values={VALUES} disabled={false} onApply={() => undefined} />);
    const list = await screen.findByRole('list', { name: 'Recent backtests' });
    await userEvent.click(within(list).getByRole('button', { name: /^Cancel the backtest/ }));
    await waitFor(() => expect(within(list).getByRole('listitem')).toHaveAttribute('data-status', 'done'));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('shows the sweep\'s range errors from the server next to their range input', async () => {
    mockFetch({
      'POST /api/backtests/sweep': {
        status: 400,
        body: {
          statusCode: 400,
          message: 'Invalid input',
          errors: [
            { field: 'ranges.numOfOrders', message: 'Grid size must be from 2 to 100 (the range has 120)' },
            { field: 'ranges.takeProfit.to', message: 'takeProfit.to must be at least takeProfit.from' },
          ],
        },
      },
    });
    render(<BacktestPanel botType="Spot" values={VALUES} disabled={false} onApply={() => undefined} />);
    await userEvent.click(screen.getByRole('button', { name: 'Sweep parameters…' }));
    await userEvent.click(screen.getByRole('button', { name: 'Run sweep' }));
    const orders = screen.getByRole('textbox', { name: /^Orders range/ });
    await waitFor(() => expect(orders).toHaveAccessibleDescription('Grid size must be from 2 to 100 (the range has 120)'));
    expect(orders).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByRole('textbox', { name: /^Take-profit range/ })).toHaveAccessibleDescription('Take profit “to” must be at least Take profit “from”');
    const interval = screen.getByRole('textbox', { name: /^Interval range/ });
    expect(interval).not.toHaveAttribute('aria-invalid');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument(); // not lumped into one message above
    await userEvent.type(orders, '0'); // editing the range drops its message
    expect(orders).not.toHaveAttribute('aria-invalid');
    expect(screen.getByRole('textbox', { name: /^Take-profit range/ })).toHaveAttribute('aria-invalid', 'true');
  });

  it('a sweep refusal for the whole request (field "ranges") stays a message above', async () => {
    mockFetch({
      'POST /api/backtests/sweep': { status: 400, body: { statusCode: 400, message: 'Invalid input', errors: [{ field: 'ranges', message: 'The sweep has 2500 combinations; at most 2000 are allowed' }] } },
    });
    render(<BacktestPanel botType="Spot" values={VALUES} disabled={false} onApply={() => undefined} />);
    await userEvent.click(screen.getByRole('button', { name: 'Sweep parameters…' }));
    await userEvent.click(screen.getByRole('button', { name: 'Run sweep' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The sweep has 2500 combinations');
  });

  describe('uploads', () => {
    const CSV = '0,1,2,0.5,1.5\n60000,1.5,2,1,1.8';
    const csvFile = (name = 'candles.csv') => {
      const file = new File([CSV], name, { type: 'text/csv' });
      if (!file.text) Object.defineProperty(file, 'text', { value: async () => CSV });
      return file;
    };

    it('an uploaded file is listed with its candle count and range, and Delete removes it on the server', async () => {
      const UP = 'aaaaaaaa-2222-4333-8444-555555555555';
      const fetch = mockFetch({
        'POST /api/backtests/candles': { status: 201, body: { candlesId: UP, candles: 2, from: Date.UTC(2026, 0, 1), to: Date.UTC(2026, 0, 1, 0, 1) } },
        'POST /api/backtests': { status: 202, body: { id: ID, status: 'running' } },
        [`GET /api/backtests/${ID}`]: { status: 200, body: { id: ID, kind: 'single', status: 'done', candles: 2, terms: null, result: RESULT, sweep: null } },
        [`DELETE /api/backtests/candles/${UP}`]: { status: 204 },
      });
      render(<BacktestPanel botType="Spot" values={VALUES} disabled={false} onApply={() => undefined} />);
      await userEvent.upload(screen.getByLabelText('Backtest a CSV of candles…'), csvFile('jan.csv'));
      const uploads = await screen.findByRole('list', { name: 'Uploaded candles' });
      expect(within(uploads).getByTestId('upload')).toHaveTextContent('jan.csv2 candles, 2026-01-01 00:00 UTC → 2026-01-01 00:01 UTC');
      await screen.findByTestId('backtest-result');
      await userEvent.click(within(uploads).getByRole('button', { name: 'Delete jan.csv' }));
      await waitFor(() => expect(screen.queryByRole('list', { name: 'Uploaded candles' })).not.toBeInTheDocument());
      expect(screen.getByRole('status')).toHaveTextContent('jan.csv deleted.');
      expect(fetch.mock.calls.some(([u, init]) => String(u).endsWith(`/api/backtests/candles/${UP}`) && init?.method === 'DELETE')).toBe(true);
    });

    it('the upload quota (409) shows the server\'s message', async () => {
      const quota = 'Limit reached: at most 5 uploaded candle files per user. Delete an upload first.';
      mockFetch({ 'POST /api/backtests/candles': { status: 409, body: { statusCode: 409, message: quota } } });
      render(<BacktestPanel botType="Spot" values={VALUES} disabled={false} onApply={() => undefined} />);
      await userEvent.upload(screen.getByLabelText('Backtest a CSV of candles…'), csvFile());
      expect(await screen.findByRole('alert')).toHaveTextContent(`candles.csv was not uploaded: ${quota}`);
      expect(screen.queryByRole('list', { name: 'Uploaded candles' })).not.toBeInTheDocument();
    });

    it('a bad line (400, field csv) is named', async () => {
      mockFetch({ 'POST /api/backtests/candles': { status: 400, body: { statusCode: 400, message: 'Invalid input', errors: [{ field: 'csv', message: 'Line 2: close must be a number' }] } } });
      render(<BacktestPanel botType="Spot" values={VALUES} disabled={false} onApply={() => undefined} />);
      await userEvent.upload(screen.getByLabelText('Backtest a CSV of candles…'), csvFile());
      expect(await screen.findByRole('alert')).toHaveTextContent('candles.csv was not uploaded: Line 2: close must be a number');
    });
  });

  describe('where the candles came from (issue 40)', () => {
    const FROM = Date.UTC(2026, 9, 27);
    const TO = Date.UTC(2026, 10, 26);
    const venue = { source: 'venue', simulated: false, exchange: 'Binance', market: 'spot', symbol: 'SOLUSDT', timeframe: '1m', from: FROM, to: TO, candles: 43200, label: "Binance spot SOLUSDT, 1m candles from Binance's market data, 2026-10-27 00:00 → 2026-11-26 00:00 UTC" };
    const simulated = {
      ...venue, source: 'simulated', simulated: true, seed: 'simulated|1|Binance|SOLUSDT|1m', reason: 'Binance could not be reached',
      label: "Simulated history, not market prices: a fixed, seeded random walk from SOLUSDT's catalogue price (140), 1m candles, 2026-10-27 00:00 → 2026-11-26 00:00 UTC. Binance could not be reached.",
    };
    const done = (history: object, kind = 'single') => ({ id: ID, kind, status: 'done', candles: 43200, terms: { feeBps: 10, feeSource: 'paper' }, history, result: kind === 'single' ? RESULT : null, sweep: kind === 'sweep' ? { points: [{ interval: 1, numOfOrders: 6, takeProfit: 1, profit: 2, unrealised: 0, totalReturn: 0.01, maxDrawdownPct: 0.1, cycles: 2 }], best: null } : null });

    it("the venue's candles: named with the period above the figures, no badge", async () => {
      mockFetch({ 'POST /api/backtests': { status: 202, body: { id: ID, status: 'running' } }, [`GET /api/backtests/${ID}`]: { status: 200, body: done(venue) } });
      render(<BacktestPanel botType="Spot" values={VALUES} disabled={false} onApply={() => undefined} />);
      await userEvent.click(screen.getByRole('button', { name: 'Backtest last 30 days' }));
      const note = within(await screen.findByTestId('backtest-result')).getByTestId('backtest-history');
      expect(note).toHaveTextContent("History Binance spot SOLUSDT, 1m candles from Binance's market data, 2026-10-27 00:00 → 2026-11-26 00:00 UTC");
      expect(note).toHaveAttribute('data-source', 'venue');
      expect(within(note).queryByText('Simulated')).not.toBeInTheDocument();
      // a date is never cut in two across lines
      expect(within(note).getByText('2026-10-27 00:00')).toHaveClass('backtest__nowrap');
      expect(within(note).getByText('2026-11-26 00:00 UTC')).toHaveClass('backtest__nowrap');
    });

    it('the simulated history: a "Simulated" badge and why, on the result, the sweep and the recent list', async () => {
      mockFetch({
        'POST /api/backtests/sweep': { status: 202, body: { id: ID, status: 'running' } },
        'POST /api/backtests': { status: 202, body: { id: ID, status: 'running' } },
        [`GET /api/backtests/${ID}`]: { status: 200, body: done(simulated) },
        'GET /api/backtests': [{ ...done(simulated), result: null, createdat: '2026-11-26T12:00:00.000Z', request: { exchange: 'Binance', symbol: 'SOLUSDT', timeframe: '1m', from: FROM, to: TO } }],
      });
      render(<BacktestPanel botType="Spot" values={VALUES} disabled={false} onApply={() => undefined} />);
      await userEvent.click(screen.getByRole('button', { name: 'Backtest last 30 days' }));
      const note = within(await screen.findByTestId('backtest-result')).getByTestId('backtest-history');
      expect(within(note).getByText('Simulated')).toHaveClass('backtest__badge');
      expect(note).toHaveTextContent('Simulated history, not market prices');
      expect(note).toHaveTextContent('Binance could not be reached.');
      const list = await screen.findByRole('list', { name: 'Recent backtests' });
      expect(within(list).getAllByRole('listitem')[0]).toHaveTextContent('Backtest SOLUSDT');
      expect(within(list).getAllByRole('listitem')[0]).toHaveTextContent('simulated history');
    });

    it('a sweep names its history above the heatmap, whose table scrolls in a box a keyboard can reach', async () => {
      mockFetch({ 'POST /api/backtests/sweep': { status: 202, body: { id: ID, status: 'running' } }, [`GET /api/backtests/${ID}`]: { status: 200, body: done(simulated, 'sweep') } });
      render(<BacktestPanel botType="Spot" values={VALUES} disabled={false} onApply={() => undefined} />);
      await userEvent.click(screen.getByRole('button', { name: 'Sweep parameters…' }));
      await userEvent.click(screen.getByRole('button', { name: 'Run sweep' }));
      const map = await screen.findByTestId('sweep-heatmap');
      const note = screen.getByTestId('backtest-history');
      expect(within(note).getByText('Simulated')).toBeInTheDocument();
      expect(note.compareDocumentPosition(map) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
      const box = within(map).getByRole('region', { name: 'Sweep heatmap, scrolls sideways' });
      expect(box).toHaveAttribute('tabindex', '0');
      expect(within(box).getByRole('table')).toBeInTheDocument();
      expect(within(map).getByRole('columnheader', { name: /interval → orders ↓/ })).toBeInTheDocument();
    });
  });
});
