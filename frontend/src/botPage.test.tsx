import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fake, freshSocketPerTest, socketModuleMock } from './testing/fakeSocket';
import { baseRoutes, makeBot, mockFetch, renderApp, USER } from './testing/utils';
import type { BotSummary } from './api/types';

jest.mock('./api/socket', () => socketModuleMock());
// the canvas chart has no place in jsdom: the page's figures and table are what is tested here
jest.mock('./bots/BotChart', () => ({ __esModule: true, default: () => <div data-testid="chart-stub" /> }));

freshSocketPerTest();

const summary = (over: Partial<BotSummary> = {}): BotSummary => ({
  ladder: [
    { price: 100, size: 2, filled: 0, state: 'open' },
    { price: 90, size: 2, filled: 0, state: 'open' },
  ],
  takeProfit: null,
  position: 0,
  dust: 0,
  averageEntry: null,
  lastPrice: 101.25,
  unrealisedPnl: 0,
  realisedPnl: 0,
  realisedToday: 0,
  feesPaid: 0,
  cyclesCompleted: 0,
  fills: 0,
  capitalInUse: 380,
  capitalCommitted: 380,
  totalPnl: 0,
  returnPercent: 0,
  annualisedPercent: null,
  runtimeMs: 125_000,
  currency: 'USDT',
  direction: 'long',
  runtimeSeconds: 125,
  lastRun: { startedAt: Date.now() - 125_000, endedAt: null, ms: 125_000 },
  runs: 1,
  annualisedReturn: null,
  running: true,
  lastError: null,
  lastErrorAt: null,
  ...over,
});

const figure = (key: string) => screen.getByTestId(`figure-${key}`);

describe('bot page: figures, orders, live', () => {
  it('shows the figures and the orders, and updates both when a fill is pushed, without a reload', async () => {
    let current = summary();
    const bot = makeBot({ id: 'b1', botstatus: true, state: 'running', pid: 7, entryprice: 100, interval: 10, numoforders: 2, ordersize: 2 });
    mockFetch({ ...baseRoutes(), 'GET /api/bots/u-1': [bot], 'GET /api/bots/b1/summary': () => current, 'GET /api/bots-overview': [] });
    renderApp('/bots/b1', { user: USER });

    await waitFor(() => expect(figure('price')).toHaveTextContent('101.25'), { timeout: 5000 });
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('BTC/USDT');
    expect(figure('position')).toHaveTextContent('0 BTC');
    expect(figure('average-entry')).toHaveTextContent('—');
    expect(figure('unrealised')).toHaveTextContent('0.00 USDT');
    expect(figure('realised')).toHaveTextContent('0.00 USDT');
    expect(figure('fees')).toHaveTextContent('0.00 USDT');
    expect(figure('cycles')).toHaveTextContent('0');
    expect(figure('runtime')).toHaveTextContent(/^2m \d+s$/);
    expect(figure('annualised')).toHaveTextContent('—');
    expect(figure('capital')).toHaveTextContent('380.00 USDT');
    const table = screen.getByRole('table', { name: 'Ladder orders' });
    expect(within(table).getAllByText('Open')).toHaveLength(2);
    // edit and delete wait for a stop; the history is one tab away
    expect(screen.getByRole('button', { name: /^Edit / })).toBeDisabled();
    expect(screen.getByRole('button', { name: /^Delete / })).toBeDisabled();
    expect(screen.getByRole('link', { name: 'History' })).toHaveAttribute('href', '/bots/b1/history');

    // the runner fills the first rung and then sells it at the take profit
    current = summary({
      ladder: [
        { price: 100, size: 2, filled: 2, state: 'filled' },
        { price: 90, size: 2, filled: 0, state: 'open' },
      ],
      takeProfit: { price: 101.5, size: 2, filled: 0, state: 'open' },
      position: 2,
      averageEntry: 100,
      unrealisedPnl: 2.5,
      feesPaid: 0.2,
      fills: 1,
    });
    act(() => fake.socket.push('bot:activity', { id: 'b1', type: 'OrderFilled' }));
    await waitFor(() => expect(figure('unrealised')).toHaveTextContent('+2.50 USDT'), { timeout: 5000 });
    expect(figure('position')).toHaveTextContent('2 BTC');
    expect(figure('average-entry')).toHaveTextContent('100.00');
    expect(figure('fees')).toHaveTextContent('0.20 USDT');
    const rows = within(screen.getByRole('table', { name: 'Ladder orders' })).getAllByRole('row').slice(1);
    expect(rows.map((r) => r.getAttribute('data-state'))).toEqual(['open', 'filled', 'open']);
    expect(rows[0]).toHaveTextContent('Take profit');

    current = summary({ realisedPnl: 2.8, realisedToday: 2.8, cyclesCompleted: 1, fills: 2, feesPaid: 0.4, annualisedReturn: 12.34 });
    act(() => fake.socket.push('bot:activity', { id: 'b1', type: 'CycleCompleted' }));
    await waitFor(() => expect(figure('realised')).toHaveTextContent('+2.80 USDT'), { timeout: 5000 });
    expect(figure('cycles')).toHaveTextContent('1');
    expect(figure('annualised')).toHaveTextContent('12.34%');
    // another bot's push changes nothing
    current = summary({ realisedPnl: 99 });
    act(() => fake.socket.push('bot:activity', { id: 'other', type: 'CycleCompleted' }));
    await new Promise((r) => setTimeout(r, 50));
    expect(figure('realised')).toHaveTextContent('+2.80 USDT');
  });

  it('shows dust apart from the position: a rest below the market\'s minimum order after a cycle (issue 29)', async () => {
    const bot = makeBot({ id: 'b3', symbol: 'LINKUSDT', botstatus: true, state: 'running', pid: 7 });
    mockFetch({ ...baseRoutes(), 'GET /api/bots/u-1': [bot], 'GET /api/bots/b3/summary': summary({ position: 0, dust: 0.009, cyclesCompleted: 1 }), 'GET /api/bots-overview': [] });
    renderApp('/bots/b3', { user: USER });
    await waitFor(() => expect(figure('dust')).toHaveTextContent('0.009 LINK'), { timeout: 5000 });
    expect(figure('position')).toHaveTextContent('0 LINK');
    expect(figure('dust').parentElement).toHaveAttribute('title', 'Left after a cycle, below the market’s minimum order: not counted as a position; the next take-profit sells it along');
  });

  it('shows no dust figure when nothing is left', async () => {
    const bot = makeBot({ id: 'b4', botstatus: true, state: 'running', pid: 7 });
    mockFetch({ ...baseRoutes(), 'GET /api/bots/u-1': [bot], 'GET /api/bots/b4/summary': summary(), 'GET /api/bots-overview': [] });
    renderApp('/bots/b4', { user: USER });
    await waitFor(() => expect(figure('position')).toHaveTextContent('0 BTC'), { timeout: 5000 });
    expect(screen.queryByTestId('figure-dust')).toBeNull();
  });

  it('a stopped bot shows how long its last run lasted, not "0s"; one never started shows a dash (issue 29)', async () => {
    const T = Date.parse('2026-01-10T12:00:00Z');
    const ran = makeBot({ id: 'b5' });
    const never = makeBot({ id: 'b6' });
    mockFetch({
      ...baseRoutes(),
      'GET /api/bots/u-1': [ran, never],
      // two runs: 90 s, then 0.44 s (stopped right after its buys filled)
      'GET /api/bots/b5/summary': summary({ running: false, runtimeSeconds: 90, runs: 2, lastRun: { startedAt: T, endedAt: T + 440, ms: 440 } }),
      'GET /api/bots/b6/summary': summary({ running: false, runtimeSeconds: 0, runs: 0, lastRun: null }),
      'GET /api/bots-overview': [],
    });
    renderApp('/bots/b5', { user: USER });
    await waitFor(() => expect(figure('runtime')).toHaveTextContent('under 1s (last run)'), { timeout: 5000 });
    expect(figure('runtime').parentElement!.getAttribute('title')).toMatch(/; 1m 30s over 2 runs$/);
    expect(screen.queryByText('0s')).toBeNull();
    cleanup();
    renderApp('/bots/b6', { user: USER });
    // the dash also stands while the summary loads: wait for the summary's own word
    await waitFor(() => expect(figure('runtime').parentElement).toHaveAttribute('title', 'Not started yet'), { timeout: 5000 });
    expect(figure('runtime')).toHaveTextContent(/^—$/);
  });

  it('says the last error in words, with a link to the Security page when the key is missing', async () => {
    const bot = makeBot({ id: 'b2', lasterror: 'No API key for Binance: add one on the Security page before starting a bot.' });
    mockFetch({
      ...baseRoutes(),
      'GET /api/bots/u-1': [bot],
      'GET /api/bots/b2/summary': summary({ running: false, ladder: [], lastError: null }),
      'GET /api/bots-overview': [],
    });
    renderApp('/bots/b2', { user: USER });
    const alert = await screen.findByTestId('last-error', {}, { timeout: 5000 });
    expect(alert).toHaveTextContent('No API key for Binance');
    expect(within(alert).getByRole('link', { name: 'Add an API key on the Security page' })).toHaveAttribute('href', '/security');
    expect(screen.getByText('No orders placed yet: start the bot and its ladder appears here.')).toBeInTheDocument();
    await userEvent.click(within(alert).getByRole('link'));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/security'), { timeout: 5000 });
  });
});

describe('the direction of a futures bot (issue 32)', () => {
  it('a short bot says Short in its settings and header; a futures bot without a direction is long', async () => {
    const short = makeBot({ id: 'bs', bottype: 'Futures', leverage: 5, direction: 'short' });
    mockFetch({ ...baseRoutes(), 'GET /api/bots/u-1': [short], 'GET /api/bots/bs/summary': summary({ running: false }), 'GET /api/bots-overview': [] });
    renderApp('/bots/bs', { user: USER });
    expect(await screen.findByTestId('direction', {}, { timeout: 5000 })).toHaveTextContent('Short: sells above the entry, buys back below the average');
    cleanup();
    const long = makeBot({ id: 'bl', bottype: 'Futures', leverage: 5 });
    mockFetch({ ...baseRoutes(), 'GET /api/bots/u-1': [long], 'GET /api/bots/bl/summary': summary({ running: false }), 'GET /api/bots-overview': [] });
    renderApp('/bots/bl', { user: USER });
    expect(await screen.findByTestId('direction', {}, { timeout: 5000 })).toHaveTextContent('Long: buys below the entry, sells above the average');
  });

  it('a neutral bot says Neutral in its settings and header', async () => {
    const neutral = makeBot({ id: 'bn', bottype: 'Futures', leverage: 5, direction: 'neutral' });
    mockFetch({ ...baseRoutes(), 'GET /api/bots/u-1': [neutral], 'GET /api/bots/bn/summary': summary({ running: false }), 'GET /api/bots-overview': [] });
    renderApp('/bots/bn', { user: USER });
    expect(await screen.findByTestId('direction', {}, { timeout: 5000 })).toHaveTextContent('Neutral: buys below and sells above the entry, each fill answered one interval away');
  });
});

describe('a bot that failed because the venue rejected its key (issue 29)', () => {
  it('shows the reason with a link to the Security page, on the card and on the page', async () => {
    const reason = "Binance rejected the bot's API key (invalid or deleted key, secret, passphrase, IP or permissions), so the bot stopped. Check the key on the Security page or add a new one, then start the bot again.";
    mockFetch({ ...baseRoutes(), 'GET /api/bots/u-1': [makeBot({ id: 'k1', lasterror: reason, ordersleftopen: 3 })], 'GET /api/bots/k1/summary': summary({ running: false, ladder: [], lastError: null }), 'GET /api/bots-overview': [] });
    renderApp('/bots/k1', { user: USER });
    const alert = await screen.findByTestId('last-error', {}, { timeout: 5000 });
    expect(alert).toHaveTextContent("Binance rejected the bot's API key");
    expect(within(alert).getByRole('link', { name: 'Add an API key on the Security page' })).toHaveAttribute('href', '/security');
    expect(screen.getByTestId('orders-left-open')).toHaveTextContent('3 orders of this bot are still open on Binance and no longer managed.');

    renderApp('/bots', { user: USER });
    const card = (await screen.findAllByTestId('bot-card'))[0];
    expect(within(card).getByRole('link', { name: 'Add a key' })).toHaveAttribute('href', '/security');
  });
});

describe('a running bot whose venue stream is down (issue 39)', () => {
  it('says the live updates are down, since when and how often it checks its fills', async () => {
    const since = new Date(2026, 10, 28, 23, 31, 5).getTime();
    mockFetch({ ...baseRoutes(), 'GET /api/bots/u-1': [makeBot({ id: 's1', botstatus: true, state: 'running', pid: 5, streamdownsince: since, streamdownreason: 'the venue ended the stream', streampollms: 2000 })], 'GET /api/bots/s1/summary': summary({ running: true }), 'GET /api/bots-overview': [] });
    renderApp('/bots/s1', { user: USER });
    const note = await screen.findByTestId('stream-fallback', {}, { timeout: 5000 });
    expect(note).toHaveTextContent('Live updates from Binance are down since');
    expect(note).toHaveTextContent('(the venue ended the stream)');
    expect(note).toHaveTextContent('checks its fills every 2 s until they are back');
  });

  it('says nothing while its live updates are on', async () => {
    mockFetch({ ...baseRoutes(), 'GET /api/bots/u-1': [makeBot({ id: 's2', botstatus: true, state: 'running', pid: 5 })], 'GET /api/bots/s2/summary': summary({ running: true }), 'GET /api/bots-overview': [] });
    renderApp('/bots/s2', { user: USER });
    await screen.findByTestId('check-now', {}, { timeout: 5000 });
    expect(screen.queryByTestId('stream-fallback')).not.toBeInTheDocument();
  });
});

describe('a running bot paused by its venue\'s rate limit (issue 39)', () => {
  it('says it is paused, why, and when it resumes by itself', async () => {
    const until = Date.now() + 5 * 60_000;
    mockFetch({ ...baseRoutes(), 'GET /api/bots/u-1': [makeBot({ id: 'r1', botstatus: true, state: 'running', pid: 5, ratelimiteduntil: until, ratelimitstatus: 418 })], 'GET /api/bots/r1/summary': summary({ running: true }), 'GET /api/bots-overview': [] });
    renderApp('/bots/r1', { user: USER });
    const note = await screen.findByTestId('rate-limit-pause', {}, { timeout: 5000 });
    expect(note).toHaveTextContent("Paused by the venue's rate limit: Binance banned this server's address for too many requests.");
    expect(note).toHaveTextContent(`until ${new Date(until).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', second: '2-digit' })}, then resumes by itself`);
  });

  it('says nothing once the pause is over', async () => {
    mockFetch({ ...baseRoutes(), 'GET /api/bots/u-1': [makeBot({ id: 'r2', botstatus: true, state: 'running', pid: 5, ratelimiteduntil: Date.now() - 1000, ratelimitstatus: 429 })], 'GET /api/bots/r2/summary': summary({ running: true }), 'GET /api/bots-overview': [] });
    renderApp('/bots/r2', { user: USER });
    await screen.findByTestId('check-now', {}, { timeout: 5000 });
    expect(screen.queryByTestId('rate-limit-pause')).not.toBeInTheDocument();
  });
});

describe('a bot stopped with its orders still on the exchange (issue 29)', () => {
  it('says so on the bot page and on its card; a running bot or one with none says nothing', async () => {
    const left = makeBot({ id: 'b5', ordersleftopen: 3 });
    const none = makeBot({ id: 'b6', entryprice: 59000 });
    mockFetch({
      ...baseRoutes(),
      'GET /api/bots/u-1': [left, none],
      'GET /api/bots/b5/summary': summary({ running: false, ladder: [] }),
      'GET /api/bots-overview': [],
    });
    renderApp('/bots/b5', { user: USER });
    const note = await screen.findByTestId('orders-left-open', {}, { timeout: 5000 });
    expect(note).toHaveTextContent('3 orders of this bot are still open on Binance and no longer managed.');

    renderApp('/bots', { user: USER });
    await waitFor(() => expect(screen.getAllByTestId('bot-card')).toHaveLength(2));
    const [card5, card6] = ['b5', 'b6'].map((id) => screen.getAllByTestId('bot-card').find((c) => c.getAttribute('data-bot-id') === id)!);
    expect(within(card5).getByTestId('orders-left-open')).toHaveTextContent('3 orders of this bot are still open on Binance and no longer managed.');
    expect(within(card6).queryByTestId('orders-left-open')).not.toBeInTheDocument();
  });

  it('one order reads in the singular; a running bot says nothing', async () => {
    mockFetch({ ...baseRoutes(), 'GET /api/bots/u-1': [makeBot({ id: 'b7', ordersleftopen: 1 }), makeBot({ id: 'b8', ordersleftopen: 2, botstatus: true, state: 'running', pid: 5 })], 'GET /api/bots-overview': [] });
    renderApp('/bots', { user: USER });
    await waitFor(() => expect(screen.getAllByTestId('bot-card')).toHaveLength(2));
    const notes = screen.getAllByTestId('orders-left-open');
    expect(notes).toHaveLength(1);
    expect(notes[0]).toHaveTextContent('1 order of this bot is still open on Binance and no longer managed.');
  });
});

describe('bots page: summary strip, filters, URL', () => {
  it('sums the account\'s bots and keeps filters and page in the URL', async () => {
    const bots = [
      makeBot({ id: 'a', botstatus: true, state: 'running', pid: 1 }),
      makeBot({ id: 'b', exchange: 'Kucoin' }),
      makeBot({ id: 'c', bottype: 'Futures', leverage: 5 }),
    ];
    mockFetch({
      ...baseRoutes(),
      'GET /api/bots/u-1': bots,
      'GET /api/bots-overview': [
        { id: 'a', lastPrice: 100, position: 1, averageEntry: 99, unrealisedPnl: 1, realisedPnl: 3.5, realisedToday: 1.25, capitalInUse: 250, running: true, spark: [99, 100, 101] },
        { id: 'b', lastPrice: 100, position: 0, averageEntry: null, unrealisedPnl: 0, realisedPnl: 1, realisedToday: 0, capitalInUse: 0, running: false, spark: [] },
      ],
    });
    renderApp('/bots', { user: USER });
    const strip = await screen.findByTestId('summary-strip');
    await waitFor(() => expect(within(strip).getByTestId('strip-capital')).toHaveTextContent('250.00 USDT'), { timeout: 5000 });
    expect(within(strip).getByTestId('strip-running')).toHaveTextContent('1 of 3');
    expect(within(strip).getByTestId('strip-today')).toHaveTextContent('+1.25 USDT');
    expect(within(strip).getByTestId('strip-total')).toHaveTextContent('+4.50 USDT');
    const card = screen.getAllByTestId('bot-card').find((c) => c.getAttribute('data-bot-id') === 'a')!;
    expect(within(card).getByTestId('live-price')).toHaveTextContent('100.00');
    expect(within(card).getByTestId('position')).toHaveTextContent('1 BTC');
    expect(within(card).getByTestId('profit')).toHaveTextContent('+3.50 USDT');
    expect(within(card).getByRole('img', { name: 'Recent price of BTC/USDT' })).toBeInTheDocument();

    await userEvent.selectOptions(screen.getByLabelText('Exchange'), 'Kucoin');
    expect(screen.getAllByTestId('bot-card').map((c) => c.getAttribute('data-bot-id'))).toEqual(['b']);
    await userEvent.selectOptions(screen.getByLabelText('Exchange'), 'all');
    await userEvent.selectOptions(screen.getByLabelText('Status'), 'running');
    expect(screen.getAllByTestId('bot-card').map((c) => c.getAttribute('data-bot-id'))).toEqual(['a']);
    await userEvent.click(screen.getByRole('tab', { name: /Futures bots/ }));
    expect(screen.getByText('No bot matches these filters.')).toBeInTheDocument();
  });
});

describe('bot page of a neutral grid (issue 32)', () => {
  it('lists its sells and its buys, each side numbered, says its stops and has no take profit of its own', async () => {
    const bot = makeBot({ id: 'n1', bottype: 'Futures', leverage: 20, botstatus: true, state: 'running', pid: 7, entryprice: 90, interval: 2.7, numoforders: 2, ordersize: 1, direction: 'neutral', stoplossprice: 81, stoplosspriceabove: 99 });
    const neutral = summary({
      ladder: [
        { price: 95.4, size: 1, filled: 0, state: 'open', side: 'sell' },
        { price: 92.7, size: 1, filled: 0, state: 'open', side: 'sell' },
        { price: 87.3, size: 1, filled: 0, state: 'open' },
        { price: 84.6, size: 1, filled: 0, state: 'open' },
      ],
      position: -1,
      averageEntry: 92.7,
    });
    mockFetch({ ...baseRoutes(), 'GET /api/bots/u-1': [bot], 'GET /api/bots/n1/summary': () => neutral, 'GET /api/bots-overview': [] });
    renderApp('/bots/n1', { user: USER });
    const table = await screen.findByRole('table', { name: 'Ladder orders' }, { timeout: 5000 });
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(5));
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((r) => `${r.getAttribute('data-kind')} ${(r as HTMLTableRowElement).cells[0].textContent}`)).toEqual(['sell Sell 1', 'sell Sell 2', 'buy Buy 1', 'buy Buy 2']);
    expect(screen.queryByText('Take profit')).toBeNull();
    expect(screen.getByText('Stop-loss below').nextSibling).toHaveTextContent('81.00 USDT');
    expect(screen.getByText('Stop-loss above').nextSibling).toHaveTextContent('99.00 USDT');
    expect(screen.getByTestId('direction')).toHaveTextContent('Neutral: buys below and sells above the entry');
  });
});
