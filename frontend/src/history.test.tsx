import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { freshSocketPerTest, socketModuleMock } from './testing/fakeSocket';
import { baseRoutes, makeBot, mockFetch, renderApp, USER } from './testing/utils';
import { BOT_LIFECYCLE_EVENTS, BOT_TRADING_EVENTS } from '@gridrocket/bots/domain/bot.events';
import { describeAll, describeEvent, eventLabel, eventLabelOf, humanize, isKnownType, who, type HistoryEvent } from './history/events';
import { ladderFromBot } from './bots/ladder';

jest.mock('./api/socket', () => socketModuleMock());

freshSocketPerTest();

const BOT = '493e2dfa-c90c-4855-a7a3-5bca2c87ca00';
const T0 = Date.parse('2025-03-01T10:00:00.000Z');
const iso = (s: number) => new Date(T0 + s * 1000).toISOString();

function ev(revision: number, type: string, data: Record<string, unknown>, s: number, userId = USER.uid, causationId: string | null = null): HistoryEvent {
  return {
    id: `e${revision}`,
    revision,
    position: 10 + revision,
    type,
    data: { botId: BOT, ...data },
    metadata: { userId, correlationId: `c${revision}`, causationId, occurredAt: iso(s), schemaVersion: 1 },
    created: iso(s),
  };
}

const CONFIG = { exchange: 'Binance', symbol: 'BTCUSDT', numOfOrders: 3, orderSize: 0.01, interval: 500, entryPrice: 94000, takeProfit: 1, leverage: 1 };
const EVENTS: HistoryEvent[] = [
  ev(0, 'BotCreated', { userId: USER.uid, botType: 'Spot', ...CONFIG }, 0),
  ev(1, 'BotEdited', { ...CONFIG, takeProfit: 1.5 }, 60),
  ev(2, 'BotStartRequested', {}, 120),
  ev(3, 'BotStarted', { pid: 4242 }, 121, 'runner', 'e2'),
  ev(4, 'OrderPlaced', { run: 2, clientOrderId: 'gr-1', exchangeOrderId: 'x1', side: 'buy', price: 94000, amount: 0.01, cycle: 1, reduceOnly: false, at: 0, level: 0 }, 122, 'runner'),
  ev(5, 'GridRebalanced', { shift: 3, note: 'moved' }, 130, 'runner'),
  ev(6, 'BotStopRequested', { cancelAllOrders: true }, 180),
  ev(7, 'BotStopped', { pid: -1 }, 181, 'runner', 'e6'),
];

function view(over: Record<string, unknown> = {}) {
  return {
    id: BOT, bottype: 'Spot', userid: USER.uid, exchange: 'Binance', symbol: 'BTCUSDT', numoforders: 3, ordersize: 0.01, interval: 500,
    entryprice: 94000, takeprofit: 1.5, botstatus: false, pid: -1, profit: 0, state: 'stopped', lasterror: null, ...over,
  };
}

/** The server's fold, in miniature: the state after the last event at or before `at`. */
function stateAt(url: URL) {
  const at = Date.parse(url.searchParams.get('at') ?? '');
  const applied = EVENTS.filter((e) => Date.parse(String(e.metadata.occurredAt)) <= at);
  const last = applied[applied.length - 1];
  const running = applied.some((e) => e.type === 'BotStarted') && !applied.some((e) => e.type === 'BotStopped');
  return {
    botId: BOT,
    at: new Date(at).toISOString(),
    revision: last ? last.revision : null,
    position: last ? last.position : null,
    eventsApplied: applied.length,
    state: { exists: applied.length > 0, deleted: false, status: running ? 'running' : 'stopped' },
    view: applied.length ? view({ takeprofit: applied.length > 1 ? 1.5 : 1, state: running ? 'running' : 'stopped', botstatus: running, pid: running ? 4242 : -1 }) : null,
    next: running ? ['BotStopRequested', 'BotFailed'] : ['BotEdited', 'BotStartRequested', 'BotDeleted'],
  };
}

function historyRoutes(extra: Record<string, unknown> = {}) {
  return mockFetch({
    ...baseRoutes(),
    [`GET /api/bots/${BOT}/history`]: EVENTS,
    [`GET /api/bots/${BOT}/state`]: (url: URL) => stateAt(url),
    ...extra,
  });
}

const statesAsked = (fetch: jest.Mock) =>
  fetch.mock.calls.map(([u]) => new URL(String(u), 'http://x')).filter((u) => u.pathname.endsWith('/state')).map((u) => u.searchParams.get('at'));

describe('history view: timeline', () => {
  it('lists every event oldest first with who, when and what, and links the CSV and NDJSON exports', async () => {
    historyRoutes();
    renderApp(`/bots/${BOT}/history`, { user: USER });
    expect(await screen.findByRole('heading', { name: 'History', level: 1 })).toBeInTheDocument();
    const timeline = await screen.findByRole('list', { name: 'Events, oldest first' });
    const items = within(timeline).getAllByRole('listitem');
    expect(items.map((li) => li.getAttribute('data-type'))).toEqual(EVENTS.map((e) => e.type));
    expect(within(items[0]).getByText('Bot created')).toBeInTheDocument();
    expect(within(items[0]).getByText('BotCreated')).toBeInTheDocument();
    expect(within(items[0]).getByText('Binance spot BTC/USDT · 3 orders × 0.01 from 94,000 · interval 500 · take profit 1%')).toBeInTheDocument();
    expect(within(items[0]).getByText('you')).toBeInTheDocument();
    expect(within(items[0]).getByText('you')).toHaveAttribute('title', USER.uid);
    expect(within(items[0]).getByRole('button', { name: /^Show the bot at / }).querySelector('time')).toHaveAttribute('dateTime', iso(0));
    // an edit says what changed
    expect(within(items[1]).getByText('take profit 1% → 1.5%')).toBeInTheDocument();
    // the runner's events, and what caused them
    expect(within(items[3]).getByText('Bot started')).toBeInTheDocument();
    expect(within(items[3]).getByText('bot runner')).toHaveAttribute('title', 'The server process that trades for the bot');
    expect(within(items[3]).getByText('running in process 4242')).toBeInTheDocument();
    expect(items[3]).toHaveTextContent('by bot runner, after #2 start requested');
    expect(within(items[4]).getByText('Buy order placed')).toBeInTheDocument();
    expect(within(items[4]).getByText('buy 0.01 @ 94,000 · rung 1')).toBeInTheDocument();
    // an unknown type is shown generically, with its data
    expect(within(items[5]).getByText('Grid rebalanced')).toBeInTheDocument();
    expect(within(items[5]).getByText('GridRebalanced')).toHaveClass('timeline__type--unknown');
    expect(within(items[5]).getByText('shift: 3 · note: moved')).toBeInTheDocument();
    expect(within(items[6]).getByText('cancel all open orders')).toBeInTheDocument();
    expect(within(items[7]).getByText('Bot stopped')).toBeInTheDocument();

    expect(screen.getByRole('link', { name: 'Download the history as CSV' })).toHaveAttribute('href', `/api/bots/${BOT}/history?format=csv`);
    expect(screen.getByRole('link', { name: 'Download the history as NDJSON' })).toHaveAttribute('href', `/api/bots/${BOT}/history?format=ndjson`);
    expect(screen.getByRole('link', { name: 'Back to bots' })).toHaveAttribute('href', '/bots');
  });

  it('says so when the bot is not there (or not yours)', async () => {
    mockFetch({ ...baseRoutes(), [`GET /api/bots/${BOT}/history`]: { status: 404, body: { statusCode: 404, message: 'Bot not found' } } });
    renderApp(`/bots/${BOT}/history`, { user: USER });
    expect(await screen.findByText(/this bot does not exist, or it is not yours/)).toBeInTheDocument();
  });

  it('is guarded like /bots', async () => {
    mockFetch(baseRoutes(null));
    renderApp(`/bots/${BOT}/history`, { user: null });
    expect(await screen.findByTestId('location')).toHaveTextContent('/sign-in');
  });

  it('is reached from the History link on a bot card', async () => {
    mockFetch({ ...baseRoutes(), 'GET /api/bots/u-1': [makeBot({ id: BOT })], [`GET /api/bots/${BOT}/history`]: EVENTS, [`GET /api/bots/${BOT}/state`]: (u: URL) => stateAt(u) });
    renderApp('/bots', { user: USER });
    const card = await screen.findByTestId('bot-card');
    await userEvent.click(within(card).getByRole('link', { name: /^History of / }));
    expect(await screen.findByRole('heading', { name: 'History', level: 1 })).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent(`/bots/${BOT}/history`);
  });
});

describe('history view: time slider', () => {
  it('starts at the latest event and shows the state folded up to the chosen event', async () => {
    const fetch = historyRoutes();
    renderApp(`/bots/${BOT}/history`, { user: USER });
    const slider = await screen.findByRole('slider', { name: 'Time' });
    expect(slider).toHaveAttribute('min', '0');
    expect(slider).toHaveAttribute('max', String(EVENTS.length - 1));
    expect(slider).toHaveValue(String(EVENTS.length - 1));
    expect(slider.getAttribute('aria-valuetext')).toMatch(/Bot stopped \(event 8 of 8\)$/);
    await waitFor(() => expect(screen.getByTestId('state-status')).toHaveTextContent('Stopped'));
    expect(screen.getByTestId('state-at')).toHaveTextContent('8 of 8 events applied');
    expect(statesAsked(fetch)).toEqual([iso(181)]);

    // to the moment the bot was running
    fireEvent.change(slider, { target: { value: '4' } });
    expect(slider.getAttribute('aria-valuetext')).toMatch(/Buy order placed \(event 5 of 8\)$/);
    await waitFor(() => expect(screen.getByTestId('state-status')).toHaveTextContent('Running'));
    const state = screen.getByTestId('state-at');
    expect(state).toHaveTextContent('5 of 8 events applied');
    expect(within(state).getByText('4242')).toBeInTheDocument();
    expect(within(state).getByText('1.5%')).toBeInTheDocument();
    expect(state).toHaveTextContent('What could follow: Stop requested, Bot failed');
    expect(statesAsked(fetch)).toContain(iso(122));
    // the current event is marked in the timeline, later ones are not applied yet
    const items = within(screen.getByRole('list', { name: 'Events, oldest first' })).getAllByRole('listitem');
    expect(items[4]).toHaveAttribute('aria-current', 'step');
    expect(items[5]).toHaveClass('is-future');

    // to the first event: created, stopped, with the original take profit
    fireEvent.change(slider, { target: { value: '0' } });
    await waitFor(() => expect(screen.getByTestId('state-at')).toHaveTextContent('1 of 8 events applied'));
    expect(screen.getByTestId('state-status')).toHaveTextContent('Stopped');
    expect(within(screen.getByTestId('state-at')).getByText('1%')).toBeInTheDocument();
    expect(statesAsked(fetch)).toContain(iso(0));
  });

  it('a time in the timeline moves the slider there', async () => {
    const fetch = historyRoutes();
    renderApp(`/bots/${BOT}/history`, { user: USER });
    const timeline = await screen.findByRole('list', { name: 'Events, oldest first' });
    const started = within(timeline).getAllByRole('listitem')[3];
    await userEvent.click(within(started).getByRole('button', { name: /^Show the bot at .*\(Bot started\)$/ }));
    expect(screen.getByRole('slider', { name: 'Time' })).toHaveValue('3');
    await waitFor(() => expect(screen.getByTestId('state-status')).toHaveTextContent('Running'));
    await waitFor(() => expect(statesAsked(fetch)).toContain(iso(121)));
  });
});

describe('history words', () => {
  it('labels every known type and humanizes the others', () => {
    expect(eventLabel('BotStartFailed')).toBe('Start failed');
    expect(eventLabel('TakeProfitFilled')).toBe('Take profit filled');
    expect(eventLabel('OrderCancelled')).toBe('Order cancelled');
    expect(eventLabel('ProfitRealized')).toBe('Profit realized');
    expect(eventLabel('BotDeleted')).toBe('Bot deleted');
    expect(eventLabel('BotResumed')).toBe('Bot resumed');
    expect(describeEvent({ type: 'BotResumed', data: { pid: 4343 } })).toBe('a runner took over: running in process 4343');
    expect(describeEvent({ type: 'BotStopRequested', data: { cancelAllOrders: true, closePosition: true } })).toBe('cancel all open orders · close the position at market');
    expect(describeEvent({ type: 'BotStopRequested', data: { cancelAllOrders: false } })).toBe('keep open orders on the exchange');
    // every event type the server writes has its own label (none falls back to the generic words)
    for (const type of [...BOT_LIFECYCLE_EVENTS, ...BOT_TRADING_EVENTS]) expect({ type, known: isKnownType(type) }).toEqual({ type, known: true });
    expect(humanize('FundingFeeCharged')).toBe('Funding fee charged');
    expect(humanize('KYCChecked')).toBe('KYC checked');
    expect(describeEvent({ type: 'BotStartFailed', data: { reason: 'Invalid API key' } })).toBe('Invalid API key');
    expect(describeEvent({ type: 'ProfitRealized', data: { amount: 4.2, totalProfit: 10.5, cycle: 3 } })).toBe('+4.2 USDT · total 10.5 USDT · cycle 3');
    expect(describeEvent({ type: 'TakeProfitFilled', data: { side: 'sell', amount: 0.03, price: 95410, profit: 12.3 } })).toBe('sell 0.03 @ 95,410 · profit 12.3 USDT');
    // issue 40: the stop's sale, by role, with what it realised
    expect(eventLabelOf({ type: 'PositionClosed', data: { side: 'sell' } })).toBe('Position sold at market');
    expect(eventLabelOf({ type: 'PositionClosed', data: { side: 'buy' } })).toBe('Position bought back at market');
    expect(describeEvent({ type: 'PositionClosed', data: { side: 'sell', amount: 10, price: 13.4, fee: 0.067, profit: -3.5945 } })).toBe("sell 10 @ 13.4 · fee 0.067 USDT · loss 3.5945 USDT · the stop's close");
    expect(describeEvent({ type: 'PositionLiquidated', data: { side: 'sell', amount: 0.01, price: 90250, realized: -47.5, profit: -47.975 } })).toBe('the exchange closed the position: sold 0.01 at 90250, lost 47.98 USDT');
    expect(describeAll([EVENTS[0], { ...EVENTS[1], data: { ...CONFIG } }])[1]).toBe('no setting changed');
    expect(who('runner', 'u-1').text).toBe('bot runner');
    expect(who('4f1c2d3e-aaaa-bbbb-cccc-000000000000', 'u-1').text).toBe('user 4f1c2d3e…');
    expect(who(undefined, 'u-1').text).toBe('system');
  });

  it('a cancelled order reads as the order the bot placed, never as its raw client order id (issue 29)', () => {
    const placed = ev(4, 'OrderPlaced', { run: 2, clientOrderId: 'gr-493e2dfa-r2-c1-b0', side: 'buy', price: 94000, amount: 0.01, cycle: 1, level: 0 }, 122, 'runner');
    const tp = ev(5, 'TakeProfitPlaced', { run: 2, clientOrderId: 'gr-493e2dfa-r2-c1-tp', side: 'sell', price: 95410.5, amount: 0.03, cycle: 1 }, 123, 'runner');
    const cancel = (r: number, id: string, filled = 0) => ev(r, 'OrderCancelled', { run: 2, clientOrderId: id, filled }, 180, 'runner');
    const lines = describeAll([placed, tp, cancel(6, 'gr-493e2dfa-r2-c1-b0', 0.004), cancel(7, 'gr-493e2dfa-r2-c1-tp'), cancel(8, 'gr-493e2dfa-r1-c0-b3')]);
    expect(lines.slice(2)).toEqual([
      'buy 0.01 @ 94,000 · rung 1 · 0.004 had filled',
      'take-profit sell 0.03 @ 95,410.5',
      'an order of the bot', // placed before the history shown: still no id
    ]);
    for (const line of lines) expect(line).not.toMatch(/gr-/);
  });

  it('says in words what the watchdog found and what it did (issue 29)', () => {
    expect(eventLabel('BotDriftDetected')).toBe('Exchange differs');
    expect(eventLabel('BotNotTrading')).toBe('Not trading');
    const drift = (kind: string, action: string, expected: string, actual: string) => describeEvent({ type: 'BotDriftDetected', data: { kind, action, expected, actual, subject: 'gr-abc-1-b0' } });
    expect(drift('missed-fill', 'repaired', 'not in the bot\'s history', 'buy 0.01 at 60000 filled')).toBe(
      'a fill the bot had missed · expected not in the bot\'s history, the exchange has buy 0.01 at 60000 filled · repaired: applied',
    );
    expect(drift('order-missing', 'flagged', 'buy 0.01 at 59000', 'cancelled on the exchange outside GridRocket')).toBe(
      'an order of the bot is not on the exchange · expected buy 0.01 at 59000, the exchange has cancelled on the exchange outside GridRocket · shown only: nothing was changed',
    );
    expect(describeEvent({ type: 'BotNotTrading', data: { reason: 'no-resting-order', detail: '2 orders should rest on the exchange, none does' } })).toBe(
      'no order rests on the exchange: 2 orders should rest on the exchange, none does',
    );
  });
});

describe('take profit is a percentage', () => {
  it('the card shows it with a % sign', async () => {
    mockFetch({ ...baseRoutes(), 'GET /api/bots/u-1': [makeBot({ id: 'p1', takeprofit: 1.25, entryprice: 94156.8912, interval: 941.5689 })] });
    renderApp('/bots', { user: USER });
    const card = await screen.findByTestId('bot-card');
    expect(within(card).getByText('Take profit').nextSibling).toHaveTextContent('1.25%');
    // long numbers are shortened so that the stats do not wrap
    expect(within(card).getByText('94,156.89')).toBeInTheDocument();
    expect(within(card).getByText('941.5689')).toBeInTheDocument();
  });

  it('the chart draws TP from the settings at entry × (1 + tp/100)', () => {
    const levels = ladderFromBot(makeBot({ entryprice: 100, interval: 1, numoforders: 3, takeprofit: 2 }));
    expect(levels).toEqual([
      { price: 100, kind: 'buy', status: 'open', side: 'buy' },
      { price: 99, kind: 'buy', status: 'open', side: 'buy' },
      { price: 98, kind: 'buy', status: 'open', side: 'buy' },
      { price: 102, kind: 'take-profit', status: 'open', side: 'sell' },
    ]);
  });
});
