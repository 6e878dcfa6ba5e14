/**
 * Issue 40, points 1, 4, 5 and 6 on the dashboard: the bot page, the card and the performance view write
 * the same figures after a stop-loss (the server's one projection, buildBotSummary, fed the bot);
 * a short's opening orders are sells and a neutral grid's closing ones answers; the annualised return is a
 * dash with its reason before 7 days; the bots page's capital figures come from one answer.
 */
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { buildBotSummary, type SummaryEvent } from '@gridrocket/trading/chart/bot-summary';
import { freshSocketPerTest, socketModuleMock } from './testing/fakeSocket';
import { baseRoutes, makeBot, mockFetch, renderApp, USER, textsOf } from './testing/utils';
import { eventLabelOf, labelAll, describeAll, type HistoryEvent } from './history/events';
import { levelLines } from './bots/chartLabels';
import { fillLabel, orderWords } from './money/words';

jest.mock('./api/socket', () => socketModuleMock());
jest.mock('./bots/BotChart', () => ({ __esModule: true, default: () => <div data-testid="chart-stub" /> }));
freshSocketPerTest();

const BOT = '5f1e2dfa-c90c-4855-a7a3-5bca2c87ca01';
const T0 = Date.now() - 4 * 3_600_000;
const H = 3_600_000;
const ev = (type: string, data: Record<string, unknown>, at = T0): SummaryEvent => ({ type, data: { botId: BOT, ...data }, at });
/** The bot: two buys of 0.001 BTC (the fee taken in BTC), then its stop-loss sells 0.00199 at 57000. */
const loss = 5.20695352;
const EVENTS: SummaryEvent[] = [
  ev('BotCreated', { botType: 'Spot', exchange: 'Binance', symbol: 'BTCUSDT', numOfOrders: 2, orderSize: 0.001, interval: 1000, entryPrice: 60000, takeProfit: 1, leverage: 1, stopLossPrice: 57500 }),
  ev('BotStarted', { pid: 1 }),
  ev('OrderPlaced', { run: 1, clientOrderId: 'b0', side: 'buy', price: 60000, amount: 0.001, cycle: 1 }),
  ev('OrderPlaced', { run: 1, clientOrderId: 'b1', side: 'buy', price: 59000, amount: 0.001, cycle: 1 }),
  ev('OrderFilled', { run: 1, fillId: 'f0', clientOrderId: 'b0', side: 'buy', price: 60000, amount: 0.001, netAmount: 0.000999, fee: 0.06, cycle: 1, at: T0 + H }, T0 + H),
  ev('OrderFilled', { run: 1, fillId: 'f1', clientOrderId: 'b1', side: 'buy', price: 59000, amount: 0.001, netAmount: 0.000999, fee: 0.059, cycle: 1, at: T0 + 2 * H }, T0 + 2 * H),
  ev('StopLossTriggered', { run: 1, fillId: 'f2', clientOrderId: 'sl', side: 'sell', price: 57000, amount: 0.00199, fee: 0.11343, cycle: 1, loss, level: 57500, at: T0 + 3 * H }, T0 + 3 * H),
  ev('BotFailed', { reason: 'Stop-loss triggered at 57000 (stop level 57500): the position was sold at market' }, T0 + 3 * H),
];

describe('after a stop-loss the bot page, the card and the performance view write the same figures (point 1)', () => {
  it('position 0.000008 BTC, 3 fills, the fees, the capital in use and the P&L, each the same on the three screens', async () => {
    // what the server answers: the one projection (money/figures.ts) on each route
    const summary = buildBotSummary(EVENTS, 57100, Date.now());
    const { ladder: _l, takeProfit: _t, lastError: _e, lastErrorAt: _a, runtimeSeconds: _r, annualisedReturn: _y, runs: _n, lastRun: _lr, ...figures } = summary;
    const overview = { id: BOT, spark: [], ...figures };
    const performance = { id: BOT, symbol: 'BTCUSDT', exchange: 'Binance', botType: 'Spot', equity: [], ...figures };
    const bot = makeBot({ id: BOT, botstatus: false, state: 'stopped', numoforders: 2, ordersize: 0.001, interval: 1000, entryprice: 60000 });
    const routes = {
      ...baseRoutes(),
      'GET /api/bots/u-1': [bot],
      [`GET /api/bots/${BOT}/summary`]: summary,
      'GET /api/bots-overview': [overview],
      [`GET /api/bots/${BOT}/performance`]: performance,
      [`GET /api/bots/${BOT}/trades`]: { items: [], total: 0, limit: 20, offset: 0 },
      'GET /api/performance': { bots: 1, botsRunning: 0, others: [], perBot: [], ...figures, equity: [], realisedToday: 0 },
    };

    mockFetch(routes);
    renderApp(`/bots/${BOT}`, { user: USER });
    await waitFor(() => expect(screen.getByTestId('figure-fills')).toHaveTextContent('3'), { timeout: 5000 });
    const page = textsOf({ position: 'figure-position', fills: 'figure-fills', fees: 'figure-fees', capital: 'figure-capital', realised: 'figure-realised', unrealised: 'figure-unrealised', total: 'figure-total' });
    // the truth the issue names, as the page writes it: the rest 0.000008 bought at 59500 is worth 57100 now (−0.02)
    expect(page).toEqual({ position: '0.000008 BTC', fills: '3', fees: '0.23 USDT', capital: '0.48 USDT', realised: '−5.21 USDT', unrealised: '−0.02 USDT', total: '−5.23 USDT' });
    cleanup();

    mockFetch(routes);
    renderApp('/bots', { user: USER });
    const card = await screen.findByTestId('bot-card');
    expect(await within(card).findByTestId('position')).toHaveTextContent(page.position!);
    expect(within(card).getByTestId('profit')).toHaveTextContent(page.realised!);
    expect(await screen.findByTestId('strip-capital')).toHaveTextContent(page.capital!);
    cleanup();

    mockFetch(routes);
    renderApp(`/bots/${BOT}/performance`, { user: USER });
    await screen.findByTestId('position');
    const shown = textsOf({ position: 'position', fills: 'fills', fees: 'fees', capital: 'capital-in-use', realised: 'realised-pnl', unrealised: 'unrealised-pnl', total: 'total-pnl' });
    expect(shown).toEqual(page);
  });
});

describe('words by role (point 4)', () => {
  it('the trades list: a short\'s opening fill is a Sell and its take-profit buys back; a neutral grid\'s closing fills are answers', async () => {
    const trade = (i: number, role: string, side: string) => ({ fillId: `f${i}`, at: T0 + i * 60_000, role, side, price: 100, amount: 1, netAmount: 1, fee: 0.02, feeAsset: null, feeCost: null, cycle: 1, profit: role === 'buy' ? null : 1, cycleProfit: null });
    const perf = { id: BOT, symbol: 'LTCUSDT', exchange: 'Binance', botType: 'Futures', currency: 'USDT', direction: 'short', realisedPnl: 1, realisedToday: 0, unrealisedPnl: 0, totalPnl: 1, feesPaid: 0.04, position: 0, dust: 0, averageEntry: null, lastPrice: 98, capitalInUse: 0, capitalCommitted: 40, returnPercent: 2.5, annualisedPercent: null, runtimeMs: 600_000, running: true, cyclesCompleted: 1, fills: 2, equity: [] };
    mockFetch({ ...baseRoutes(), [`GET /api/bots/${BOT}/performance`]: perf, [`GET /api/bots/${BOT}/trades`]: { items: [trade(1, 'take-profit', 'buy'), trade(0, 'buy', 'sell')], total: 2, limit: 20, offset: 0 } });
    renderApp(`/bots/${BOT}/performance`, { user: USER });
    const rows = within(await screen.findByRole('table')).getAllByRole('row');
    expect(rows.slice(1).map((r) => within(r).getAllByRole('cell')[1].querySelector('.money__value')!.textContent)).toEqual(['Take-profit (buy back)', 'Sell']);
    expect(fillLabel('take-profit', 'buy', 'neutral')).toBe('Answer (buy)');
    expect(fillLabel('buy', 'buy', 'long')).toBe('Buy');
    expect(fillLabel('stop-loss', 'buy', 'short')).toBe('Stop-loss (buy back)');
    // issue 40: the sale of a stop with "close the position" is a fill of the list
    expect(fillLabel('close', 'sell', 'long')).toBe('Stop: sold at market');
    expect(fillLabel('close', 'buy', 'short')).toBe('Stop: bought back at market');
  });

  it('the history: a short\'s orders are sells, its stop-loss buys back; a neutral grid places and fills answers; amounts in the pair\'s currency', () => {
    const h = (type: string, data: Record<string, unknown>, i: number): HistoryEvent => ({ id: `e${i}`, revision: i, position: i, type, data, metadata: {}, created: new Date(T0).toISOString() });
    const short = [
      h('BotCreated', { botType: 'Futures', exchange: 'Binance', symbol: 'LTCUSDC', direction: 'short', numOfOrders: 2, orderSize: 0.5, interval: 2, entryPrice: 100, takeProfit: 2, leverage: 5 }, 0),
      h('OrderPlaced', { side: 'sell', price: 100, amount: 0.5, level: 0 }, 1),
      h('OrderFilled', { side: 'sell', price: 100, amount: 0.5, fee: 0.01 }, 2),
      h('StopLossStarted', { price: 103, level: 102.5 }, 3),
      h('StopLossTriggered', { side: 'buy', price: 103, amount: 0.5, fee: 0.03, loss: 1.54 }, 4),
    ];
    expect(labelAll(short).slice(1)).toEqual(['Sell order placed', 'Sell order filled', 'Stop-loss reached', 'Stop-loss bought back']);
    expect(describeAll(short).slice(2)).toEqual(['sell 0.5 @ 100 · fee 0.01 USDC', 'price 103 reached the stop level 102.5: cancelling the ladder, buying the short back at market', 'buy 0.5 @ 103 · fee 0.03 USDC · loss 1.54 USDC']);
    const neutral = [h('BotCreated', { botType: 'Futures', symbol: 'BTCUSDT', direction: 'neutral' }, 0), h('TakeProfitPlaced', { side: 'buy', price: 100, amount: 1 }, 1), h('TakeProfitFilled', { side: 'buy', price: 100, amount: 1, profit: 4.98 }, 2)];
    expect(labelAll(neutral).slice(1)).toEqual(['Answer order placed', 'Answer filled']);
    // a long is as it was
    expect(eventLabelOf({ type: 'TakeProfitFilled', data: { side: 'sell' } })).toBe('Take profit filled');
  });

  it('the chart: a neutral grid\'s answers are not titled TP, its legend names them; a short\'s legend says sells', () => {
    const levels = [
      { price: 105, kind: 'buy' as const },
      { price: 100, kind: 'take-profit' as const },
      { price: 95, kind: 'buy' as const },
    ];
    expect(levelLines(levels, 400, 'neutral').map((l) => l.title)).toEqual(['', '', '']);
    expect(levelLines(levels, 400, 'long').find((l) => l.kind === 'take-profit')!.title).toBe('TP');
    expect(orderWords('neutral').closing).toBe('answers (each closes a pair)');
    expect(orderWords('short')).toMatchObject({ open: 'open sells', filled: 'filled sells' });
  });

  it('the bot page\'s orders table marks a neutral grid\'s answers as answers', async () => {
    const bot = makeBot({ id: BOT, bottype: 'Futures', direction: 'neutral', botstatus: true, state: 'running', pid: 3, leverage: 2 });
    const summary = buildBotSummary(
      [
        ev('BotCreated', { botType: 'Futures', exchange: 'Binance', symbol: 'BTCUSDT', numOfOrders: 1, orderSize: 1, interval: 5, entryPrice: 100, takeProfit: 1, leverage: 2, direction: 'neutral' }),
        ev('BotStarted', { pid: 3 }),
        ev('OrderPlaced', { run: 1, clientOrderId: 's', side: 'sell', price: 110, amount: 1, cycle: 1 }),
        ev('TakeProfitPlaced', { run: 1, clientOrderId: 'a', side: 'sell', price: 100, amount: 1, cycle: 2 }),
      ],
      101,
      Date.now(),
    );
    mockFetch({ ...baseRoutes(), 'GET /api/bots/u-1': [bot], [`GET /api/bots/${BOT}/summary`]: summary, 'GET /api/bots-overview': [] });
    renderApp(`/bots/${BOT}`, { user: USER });
    const table = await screen.findByRole('table', { name: 'Ladder orders' }, { timeout: 5000 });
    const answer = table.querySelector('tr[data-answer="true"]')!;
    expect(answer).toHaveTextContent('Sell 2 (answer)');
    expect(within(table).queryByText('Take profit')).not.toBeInTheDocument();
  });
});

describe('annualised return (point 5)', () => {
  it('before 7 days of running: a dash and why, on the bot page and the performance view', async () => {
    const summary = buildBotSummary([...EVENTS.slice(0, 5)], 60500, T0 + H + 600_000);
    const bot = makeBot({ id: BOT, botstatus: true, state: 'running', pid: 1 });
    const { ladder: _l, takeProfit: _t, lastError: _e, lastErrorAt: _a, runtimeSeconds: _r, annualisedReturn: _y, runs: _n, lastRun: _lr, ...figures } = summary;
    const routes = {
      ...baseRoutes(),
      'GET /api/bots/u-1': [bot],
      [`GET /api/bots/${BOT}/summary`]: summary,
      'GET /api/bots-overview': [],
      [`GET /api/bots/${BOT}/performance`]: { id: BOT, symbol: 'BTCUSDT', exchange: 'Binance', botType: 'Spot', equity: [], ...figures },
      [`GET /api/bots/${BOT}/trades`]: { items: [], total: 0, limit: 20, offset: 0 },
    };
    expect(summary.annualisedPercent).toBeNull();
    mockFetch(routes);
    renderApp(`/bots/${BOT}`, { user: USER });
    await waitFor(() => expect(screen.getByTestId('figure-annualised')).toHaveTextContent('— (from 7 days of running; 1h 10m so far)'), { timeout: 5000 });
    cleanup();
    mockFetch(routes);
    renderApp(`/bots/${BOT}/performance`, { user: USER });
    await waitFor(() => expect(screen.getByTestId('annualised')).toHaveTextContent('— (from 7 days of running; 1h 10m so far)'), { timeout: 5000 });
  });
});

describe('capital on the bots page (point 6)', () => {
  it('the strip\'s capital in use is the account\'s, beside what the running bots commit', async () => {
    const running = makeBot({ id: 'r1', botstatus: true, state: 'running', pid: 1 });
    const never = makeBot({ id: 'n1' });
    const live = (id: string, capitalInUse: number) => ({ id, lastPrice: 1, position: 0, dust: 0, averageEntry: null, unrealisedPnl: 0, realisedPnl: 0, realisedToday: 0, totalPnl: 0, feesPaid: 0, fills: 0, capitalInUse, capitalCommitted: 300, running: id === 'r1', currency: 'USDT', direction: 'long', spark: [] });
    const account = { bots: 2, botsRunning: 1, currency: 'USDT', others: [], perBot: [], realisedPnl: 0, realisedToday: 0, unrealisedPnl: 0, totalPnl: 0, feesPaid: 0, capitalInUse: 120, capitalCommitted: 300, returnPercent: null, annualisedPercent: null, runtimeMs: 60_000, cyclesCompleted: 0, fills: 0, equity: [] };
    // (the cards' answer is older: 119 in use) the strip reads the account's answer, as the block below it does
    mockFetch({ ...baseRoutes(), 'GET /api/bots/u-1': [running, never], 'GET /api/bots-overview': [live('r1', 119), live('n1', 0)], 'GET /api/performance': account });
    renderApp('/bots', { user: USER });
    const block = await screen.findByTestId('account-performance');
    expect(within(block).getByTestId('account-capital')).toHaveTextContent('300.00 USDTby 1 running bot');
    expect(within(block).getByTestId('account-capital-in-use')).toHaveTextContent('120.00 USDT');
    expect(await screen.findByTestId('strip-capital')).toHaveTextContent('120.00 USDT');
  });
});
