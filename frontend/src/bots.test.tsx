// Over 400 lines: the bots list's user flows (create, start, stop, live updates) on one shared set-up of mocked answers and socket.
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fake, freshSocketPerTest, socketModuleMock } from './testing/fakeSocket';
import { baseRoutes, makeBot, mockFetch, renderApp, USER, spotMarketRoutes, pickMarket, openCreateForm, typeLadder } from './testing/utils';
import type { Bot } from './api/types';

jest.mock('./api/socket', () => socketModuleMock());

freshSocketPerTest();

const cards = () => screen.queryAllByTestId('bot-card');

/** Once the tab shows its one card: that card's Stop clicked, and the dialog it opens. */
async function stopFromCard() {
  await waitFor(() => expect(cards()).toHaveLength(1));
  await userEvent.click(within(cards()[0]).getByRole('button', { name: /^Stop / }));
  return screen.getByRole('alertdialog', { name: 'Stop Bot' });
}

function routesWith(bots: Bot[], extra: Record<string, unknown> = {}) {
  return mockFetch({ ...baseRoutes(), 'GET /api/bots/u-1': () => bots, ...extra });
}

describe('bots page: tabs and pagination (9 per page)', () => {
  it('shows 9 spot cards a page with page controls, and futures on their own tab', async () => {
    const spot = Array.from({ length: 12 }, (_, i) => makeBot({ id: `s${i + 1}`, entryprice: 1000 + i }));
    const futures = Array.from({ length: 2 }, (_, i) => makeBot({ id: `f${i + 1}`, bottype: 'Futures', leverage: 10 }));
    routesWith([...spot, ...futures]);
    renderApp('/bots', { user: USER });
    await waitFor(() => expect(cards()).toHaveLength(9));
    expect(screen.getByRole('tab', { name: /Spot bots/ })).toHaveAttribute('aria-selected', 'true');
    const nav = screen.getByRole('navigation', { name: 'Spot bots pages' });
    expect(within(nav).getByText('Page 1 of 2')).toBeInTheDocument();
    expect(within(nav).getByRole('button', { name: 'Previous page' })).toBeDisabled();
    await userEvent.click(within(nav).getByRole('button', { name: 'Page 2' }));
    expect(cards()).toHaveLength(3);
    expect(cards().map((c) => c.getAttribute('data-bot-id'))).toEqual(['s10', 's11', 's12']);
    expect(within(nav).getByRole('button', { name: 'Next page' })).toBeDisabled();
    await userEvent.click(within(nav).getByRole('button', { name: 'Previous page' }));
    expect(cards()).toHaveLength(9);

    await userEvent.click(screen.getByRole('tab', { name: /Futures bots/ }));
    expect(cards()).toHaveLength(2);
    expect(screen.queryByRole('navigation', { name: 'Futures bots pages' })).not.toBeInTheDocument();
    const card = cards()[0];
    expect(within(card).getByText('futures')).toBeInTheDocument();
    expect(within(card).getByText('T/P')).toBeInTheDocument();
    expect(within(card).getByText('$60,000.00')).toBeInTheDocument();
    expect(within(card).getByText('10.00x')).toBeInTheDocument();
  });

  it('tabs move with the arrow keys', async () => {
    routesWith([]);
    renderApp('/bots', { user: USER });
    const spotTab = await screen.findByRole('tab', { name: /Spot bots/ });
    spotTab.focus();
    await userEvent.keyboard('{ArrowRight}');
    expect(screen.getByRole('tab', { name: /Futures bots/ })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('tab', { name: /Futures bots/ })).toHaveFocus();
  });

  it('blocks edit and delete while a bot runs, and shows profit', async () => {
    routesWith([makeBot({ id: 'r1', botstatus: true, state: 'running', pid: 42, profit: 12.5 }), makeBot({ id: 's1' })]);
    renderApp('/bots', { user: USER });
    await waitFor(() => expect(cards()).toHaveLength(2));
    const [running, stopped] = cards();
    expect(within(running).getByRole('button', { name: /^Edit / })).toBeDisabled();
    expect(within(running).getByRole('button', { name: /^Delete / })).toBeDisabled();
    expect(within(running).getByRole('button', { name: /^Stop / })).toBeEnabled();
    expect(within(running).getByTestId('profit')).toHaveTextContent('+12.50 USDT');
    expect(within(stopped).getByRole('button', { name: /^Edit / })).toBeEnabled();
    expect(within(stopped).getByRole('button', { name: /^Delete / })).toBeEnabled();
    expect(within(stopped).getByRole('button', { name: /^Start / })).toBeEnabled();
  });
});

describe('bot form: validation, price, cost', () => {
  const exchangeRoutes = {
    'GET /api/balanceSpot': [{ symbol: 'BTC', exchange: 'Binance', balance: 1, available: 1 }, { symbol: 'USDT', exchange: 'Binance', balance: 1234.5, available: 1000 }],
    'GET /api/priceSpot': 100,
    'GET /api/balanceFutures': [{ symbol: 'USDT', exchange: 'Binance', balance: 500, available: 500 }],
    'GET /api/priceFutures': 100,
    'GET /api/futuresPositionRisk': [{ symbol: 'BTCUSDT', leverage: 10 }],
  };

  it('spot: balance with 2 decimals, price pre-fills entry, live cost via gridCost, Save enabled only when valid', async () => {
    const fetch = routesWith([], { ...exchangeRoutes, 'POST /api/bots': (_u: URL, init: RequestInit) => ({ status: 201, body: makeBot({ id: 'n1', ...JSON.parse(String(init.body)) }) }) });
    renderApp('/bots', { user: USER });
    await userEvent.click(await screen.findByRole('button', { name: 'Create bot' }));
    const dialog = screen.getByRole('dialog', { name: 'Create new bot' });
    const f = within(dialog);
    expect(f.getByText('Minimum: 20 USDT')).toBeInTheDocument();
    expect(f.getByRole('option', { name: 'Select Exchange' })).toBeInTheDocument();
    const save = f.getByRole('button', { name: 'Save' });
    expect(save).toBeDisabled();
    expect(f.getByTestId('total-cost')).toHaveTextContent('—');

    await userEvent.click(f.getByLabelText('Take profit'));
    await userEvent.tab();
    expect(f.getByText('Missing form values!')).toBeInTheDocument();

    await userEvent.selectOptions(f.getByLabelText('Exchange'), 'Binance');
    await waitFor(() => expect(f.getByTestId('balance')).toHaveTextContent('1,234.50 USDT'));
    await userEvent.selectOptions(f.getByLabelText('Pair'), 'BTCUSDT');
    await waitFor(() => expect(f.getByLabelText('Entry Price')).toHaveValue('100'));
    expect(f.getByTestId('current-price')).toHaveTextContent('100.00 USDT');

    await typeLadder(f, { grid: '3', size: '2', interval: '10' });
    // 2×100 + 2×90 + 2×80
    expect(f.getByTestId('total-cost')).toHaveTextContent('540.00 USDT');
    expect(save).toBeDisabled();
    await userEvent.type(f.getByLabelText('Take profit'), '1.5');
    expect(save).toBeEnabled();
    // take profit is a percentage: sold at the average entry + 1.5 %
    expect(f.getByLabelText('Take profit')).toHaveAccessibleDescription('Sold at the average entry price + this % (after the first fill: 101.50 USDT)');
    expect(f.queryByText('Missing form values!')).not.toBeInTheDocument();

    await userEvent.clear(f.getByLabelText('Order size'));
    await userEvent.type(f.getByLabelText('Order size'), 'x');
    expect(f.getByTestId('total-cost')).toHaveTextContent('—');
    expect(save).toBeDisabled();
    expect(f.getByText('Missing form values!')).toBeInTheDocument();
    await userEvent.clear(f.getByLabelText('Order size'));
    await userEvent.type(f.getByLabelText('Order size'), '2');

    await userEvent.click(save);
    expect(await screen.findByText('Bot successfully added!')).toBeInTheDocument();
    const call = fetch.mock.calls.find(([u, i]) => String(u) === '/api/bots' && i?.method === 'POST')!;
    expect(JSON.parse(String(call[1]!.body))).toEqual({
      userId: 'u-1', exchange: 'Binance', symbol: 'BTCUSDT', numOfOrders: 3, orderSize: 2, interval: 10, entryPrice: 100,
      takeProfit: 1.5, status: false, botType: 'Spot', pid: -1,
    });
    await waitFor(() => expect(cards()).toHaveLength(1));
  });

  it('field lengths follow the spec (grid size 1 to 2 characters); order size up to 12, the market\'s amount step decides (issue 29)', async () => {
    routesWith([], exchangeRoutes);
    renderApp('/bots', { user: USER });
    const f = await openCreateForm();
    expect(f.getByLabelText('Grid size')).toHaveAttribute('maxLength', '2');
    expect(f.getByLabelText('Order size')).toHaveAttribute('maxLength', '12');
    expect(f.getByLabelText('Entry Price')).toHaveAttribute('maxLength', '10');
    await userEvent.type(f.getByLabelText('Grid size'), '0');
    await userEvent.tab();
    expect(f.getByText('Grid size must be a number greater than 0', { selector: '.field__error' })).toBeInTheDocument();
  });

  const btcRoutes = {
    ...exchangeRoutes,
    ...spotMarketRoutes(95447),
  };
  async function openBtcForm() {
    const fetch = routesWith([], { ...btcRoutes, 'POST /api/bots': (_u: URL, init: RequestInit) => ({ status: 201, body: makeBot({ id: 'n2', ...JSON.parse(String(init.body)) }) }) });
    renderApp('/bots', { user: USER });
    const f = await openCreateForm();
    await pickMarket(f, '95447');
    return { f, fetch };
  }

  it('order size 0.001 BTC is accepted where the market\'s amount step (0.00001) allows it; off the step it is refused (issue 29)', async () => {
    const { f } = await openBtcForm();
    await userEvent.type(f.getByLabelText('Grid size'), '3');
    await userEvent.type(f.getByLabelText('Order size'), '0.001');
    expect(f.getByLabelText('Order size')).toHaveValue('0.001');
    await waitFor(() => expect(f.getByLabelText('Order size')).toHaveAccessibleDescription('Coins per order, in steps of 0.00001'));
    await userEvent.type(f.getByLabelText('Price interval'), '100');
    await userEvent.type(f.getByLabelText('Take profit'), '1');
    // 0.001 × (95447 + 95347 + 95247)
    expect(f.getByTestId('total-cost')).toHaveTextContent('286.04 USDT');
    expect(f.getByRole('button', { name: 'Save' })).toBeEnabled();
    await userEvent.clear(f.getByLabelText('Order size'));
    await userEvent.type(f.getByLabelText('Order size'), '0.000015');
    await userEvent.tab();
    expect(f.getByText("Order size must be a multiple of 0.00001 (the market's amount step)", { selector: '.field__error' })).toBeInTheDocument();
    expect(f.getByRole('button', { name: 'Save' })).toBeDisabled();
  });

  it('live: the pair is typed (any pair the venue lists, the catalogue as suggestions), asked of the venue, and the venue\'s maximum is named (issue 39)', async () => {
    const asked: string[] = [];
    routesWith([], {
      ...btcRoutes,
      'GET /api/exchange-mode': { mode: 'live' },
      'GET /api/priceSpot': (u: URL) => (asked.push(u.searchParams.get('symbol') ?? ''), 0.35),
      'GET /api/market-rules': { priceStep: 0.0001, amountStep: 0.1, minNotional: 5, minAmount: 0.1, makerFee: 0.001, takerFee: 0.001, maxAmount: 900000, ruleNames: { maxAmount: 'LOT_SIZE maxQty' } },
    });
    renderApp('/bots', { user: USER });
    const f = await openCreateForm();
    await userEvent.selectOptions(f.getByLabelText('Exchange'), 'Binance');
    await waitFor(() => expect(f.getByRole('combobox', { name: 'Pair' })).toHaveAttribute('list'));
    await userEvent.type(f.getByLabelText('Pair'), 'adausdt');
    expect(f.getByLabelText('Pair')).toHaveValue('ADAUSDT');
    await waitFor(() => expect(f.getByLabelText('Entry Price')).toHaveValue('0.35'));
    expect(asked.every((s) => /^[A-Z0-9]{2,16}(USDT|USDC)$/.test(s))).toBe(true); // half-typed pairs are not asked
    await typeLadder(f, { grid: '3', size: '1000000', interval: '0.001', takeProfit: '1' });
    await userEvent.tab();
    expect(f.getByText("Order size 1000000 ADA is above Binance's maximum of 900000 ADA per order (LOT_SIZE maxQty)", { selector: '.field__error' })).toBeInTheDocument();
  });

  it('an entry price above the market warns with the numbers and Save waits for the confirmation, which the request carries (issue 29)', async () => {
    const { f, fetch } = await openBtcForm();
    await userEvent.clear(f.getByLabelText('Entry Price'));
    await userEvent.type(f.getByLabelText('Entry Price'), '190000');
    await typeLadder(f, { grid: '5', size: '0.01', interval: '500', takeProfit: '1' });
    const warning = f.getByTestId('above-market-warning');
    // every rung (190000 … 188000) is above 95447: 0.05 BTC at about 95447 = 4772.35 USDT, taker fee 0.1 %
    expect(warning).toHaveTextContent(
      'The entry price is 99.06 % above the current price of 95,447.00 USDT: 5 of the 5 buy orders (0.05 BTC) would fill at once as taker orders, for about 4,772.35 USDT plus 4.77 USDT taker fee.',
    );
    const save = f.getByRole('button', { name: 'Save' });
    expect(save).toBeDisabled();
    const confirm = within(warning).getByRole('checkbox', { name: 'I understand: these orders buy at once at the market price' });
    expect(confirm).not.toBeChecked();
    await userEvent.click(confirm);
    expect(save).toBeEnabled();
    // a change of the ladder asks again
    await userEvent.clear(f.getByLabelText('Entry Price'));
    await userEvent.type(f.getByLabelText('Entry Price'), '96000');
    // 96000 and 95500 are at or above 95447: 0.58 % above, two rungs buy at once
    expect(f.getByTestId('above-market-warning')).toHaveTextContent('0.58 % above the current price of 95,447.00 USDT: 2 of the 5 buy orders (0.02 BTC) would fill at once as taker orders, for about 1,908.94 USDT plus 1.91 USDT taker fee.');
    expect(save).toBeDisabled();
    await userEvent.click(within(f.getByTestId('above-market-warning')).getByRole('checkbox'));
    await userEvent.click(save);
    expect(await screen.findByText('Bot successfully added!')).toBeInTheDocument();
    const call = fetch.mock.calls.find(([u, i]) => String(u) === '/api/bots' && i?.method === 'POST')!;
    expect(JSON.parse(String(call[1]!.body))).toMatchObject({ entryPrice: 96000, confirmAboveMarket: true });
  });

  it('an entry within 0.5 % above the market (the pre-filled price that moved) asks nothing', async () => {
    const { f } = await openBtcForm();
    await userEvent.clear(f.getByLabelText('Entry Price'));
    await userEvent.type(f.getByLabelText('Entry Price'), '95900'); // 0.47 % above
    await typeLadder(f, { grid: '5', size: '0.01', interval: '500', takeProfit: '1' });
    expect(f.queryByTestId('above-market-warning')).toBeNull();
    expect(f.getByRole('button', { name: 'Save' })).toBeEnabled();
  });

  it('futures: leverage as Nx divides the cost; minimum hint 60 USDT', async () => {
    routesWith([], exchangeRoutes);
    renderApp('/bots', { user: USER });
    const f = await openCreateForm(/Futures bots/);
    expect(f.getByText('Minimum: 60 USDT')).toBeInTheDocument();
    await pickMarket(f, '100', { leverage: '10.00x' });
    await typeLadder(f, { grid: '3', size: '2', interval: '10' });
    expect(f.getByTestId('total-cost')).toHaveTextContent('54.00 USDT');
  });

  it('futures short (issue 32): a small Direction select; the ladder sells above the entry, the take-profit buys back below; Save sends direction short; the card says Short', async () => {
    const fetch = routesWith([], { ...exchangeRoutes, 'POST /api/bots': (_u: URL, init: RequestInit) => ({ status: 201, body: makeBot({ id: 's1', bottype: 'Futures', leverage: 10, ...JSON.parse(String(init.body)) }) }) });
    renderApp('/bots', { user: USER });
    const f = await openCreateForm(/Futures bots/);
    expect(f.getByLabelText('Direction')).toHaveValue('long'); // absent = the spec's long grid
    await pickMarket(f, '100', { leverage: '10.00x' });
    await userEvent.selectOptions(f.getByLabelText('Direction'), 'short');
    await typeLadder(f, { grid: '3', size: '2', interval: '10' });
    // sells at 100, 110, 120: (2×100 + 2×110 + 2×120) ÷ 10 = 66
    expect(f.getByTestId('total-cost')).toHaveTextContent('66.00 USDT');
    await userEvent.type(f.getByLabelText('Take profit'), '1.5');
    // 100 × (1 − 0.015) = 98.5
    expect(f.getByLabelText('Take profit')).toHaveAccessibleDescription('Bought back at the average entry price − this % (after the first fill: 98.50 USDT)');
    await userEvent.click(f.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Bot successfully added!')).toBeInTheDocument();
    const call = fetch.mock.calls.find(([u, i]) => String(u) === '/api/bots' && i?.method === 'POST')!;
    expect(JSON.parse(String(call[1]!.body))).toMatchObject({ botType: 'Futures', entryPrice: 100, leverage: 10, direction: 'short' });
    await waitFor(() => expect(cards()).toHaveLength(1));
    expect(within(cards()[0]).getByText('Direction').nextSibling).toHaveTextContent('Short');
  }, 30_000);

  it('futures neutral (issue 32): the Direction select offers Long, Short and Neutral; a neutral grid previews its sells above and buys below, costs both halves, takes its two stops (checked against its lines) and Save sends them', async () => {
    const fetch = routesWith([], { ...exchangeRoutes, 'POST /api/bots': (_u: URL, init: RequestInit) => ({ status: 201, body: makeBot({ id: 'n1', bottype: 'Futures', leverage: 10, ...JSON.parse(String(init.body)) }) }) });
    renderApp('/bots', { user: USER });
    const f = await openCreateForm(/Futures bots/);
    expect(within(f.getByLabelText('Direction')).getAllByRole('option').map((o) => o.textContent)).toEqual(['Long (buys below the entry)', 'Short (sells above the entry)', 'Neutral (buys and sells)']);
    await pickMarket(f, '100', { leverage: '10.00x' });
    // a neutral grid is set by its reference, lines and interval: no range setup, no advanced ladder settings
    expect(f.getByTestId('advanced')).toBeInTheDocument(); // (long: the Advanced section and the range setup)
    expect(f.getByRole('group', { name: 'Set the grid by' })).toBeInTheDocument();
    await userEvent.selectOptions(f.getByLabelText('Direction'), 'neutral');
    expect(f.queryByTestId('advanced')).toBeNull();
    expect(f.queryByRole('group', { name: 'Set the grid by' })).toBeNull();
    expect(f.getByLabelText('Grid size')).toHaveAccessibleDescription('Orders on each side: that many buys below and sells above');
    await typeLadder(f, { grid: '2', size: '1', interval: '5' });
    // issue 40, point 7: a neutral grid has no take profit of its own: no field asks for one
    expect(f.queryByLabelText('Take profit')).toBeNull();
    // sells 110, 105 | reference 100 | buys 95, 90
    const table = f.getByRole('table', { name: 'Sell and buy orders of the neutral grid' });
    expect(within(table).getAllByRole('row').slice(1).map((r) => r.textContent)).toEqual(['Sell110.001110.00', 'Sell105.001105.00', 'Reference 100.00: no order', 'Buy95.00195.00', 'Buy90.00190.00']);
    // margin of both halves at 10x: (95 + 90 + 105 + 110) ÷ 10 = 40
    expect(f.getByTestId('total-cost')).toHaveTextContent('40.00 USDT');
    expect(f.getByTestId('neutral-cost')).toHaveTextContent('All of its orders need 40.00 USDT of margin; 500.00 USDT is available.');
    // the stops lie outside its lines: below the lowest buy 90, above the highest sell 110
    await userEvent.type(f.getByLabelText('Stop-loss below'), '92');
    await userEvent.type(f.getByLabelText('Stop-loss above'), '110');
    expect(f.getByText('Stop-loss below must be below the lowest buy (90)', { selector: '.field__error' })).toBeInTheDocument();
    expect(f.getByText('Stop-loss above must be above the highest sell (110)', { selector: '.field__error' })).toBeInTheDocument();
    expect(f.getByRole('button', { name: 'Save' })).toBeDisabled();
    await userEvent.clear(f.getByLabelText('Stop-loss below'));
    await userEvent.type(f.getByLabelText('Stop-loss below'), '85');
    await userEvent.clear(f.getByLabelText('Stop-loss above'));
    await userEvent.type(f.getByLabelText('Stop-loss above'), '115');
    await userEvent.click(f.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Bot successfully added!')).toBeInTheDocument();
    const call = fetch.mock.calls.find(([u, i]) => String(u) === '/api/bots' && i?.method === 'POST')!;
    expect(JSON.parse(String(call[1]!.body))).toMatchObject({ botType: 'Futures', entryPrice: 100, numOfOrders: 2, interval: 5, leverage: 10, direction: 'neutral', stopLossPrice: 85, stopLossPriceAbove: 115 });
    await waitFor(() => expect(cards()).toHaveLength(1));
    expect(within(cards()[0]).getByText('Direction').nextSibling).toHaveTextContent('Neutral');
  }, 30_000);

  it('spot: no Direction select (a spot bot is long)', async () => {
    routesWith([], exchangeRoutes);
    renderApp('/bots', { user: USER });
    const f = await openCreateForm();
    expect(f.queryByLabelText('Direction')).toBeNull();
  });

  it('edit: pair is read-only, PUT sends the fields, failure says "Error editing bot!"', async () => {
    const bot = makeBot({ id: 'e1', entryprice: 100, numoforders: 3, ordersize: 2, interval: 10, takeprofit: 1 });
    const fetch = routesWith([bot], { ...exchangeRoutes, 'PUT /api/bots/e1': { status: 409, body: { statusCode: 409, message: 'Bot is running' } } });
    renderApp('/bots', { user: USER });
    await waitFor(() => expect(cards()).toHaveLength(1));
    await userEvent.click(within(cards()[0]).getByRole('button', { name: /^Edit / }));
    const f = within(screen.getByRole('dialog', { name: 'Edit bot' }));
    expect(f.getByLabelText('Pair')).toBeDisabled();
    expect(f.getByLabelText('Entry Price')).toHaveValue('100');
    expect(f.getByTestId('total-cost')).toHaveTextContent('540.00 USDT');
    await userEvent.clear(f.getByLabelText('Grid size'));
    await userEvent.type(f.getByLabelText('Grid size'), '4');
    expect(f.getByTestId('total-cost')).toHaveTextContent('680.00 USDT');
    await userEvent.click(f.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Error editing bot!')).toBeInTheDocument();
    const call = fetch.mock.calls.find(([u, i]) => String(u) === '/api/bots/e1' && i?.method === 'PUT')!;
    expect(JSON.parse(String(call[1]!.body))).toEqual({ exchange: 'Binance', numOfOrders: 4, orderSize: 2, interval: 10, entryPrice: 100, takeProfit: 1 });
  });
});

describe('live status', () => {
  it('a started bot turns running with "Bot successfully started!" when the push arrives', async () => {
    const bot = makeBot({ id: 'b1' });
    const fetch = routesWith([bot], { 'GET /api/startBot': { status: 202, body: { ...bot, state: 'starting' } } });
    renderApp('/bots', { user: USER });
    await waitFor(() => expect(cards()).toHaveLength(1));
    await userEvent.click(within(cards()[0]).getByRole('button', { name: /^Start / }));
    await waitFor(() => expect(cards()[0]).toHaveAttribute('data-state', 'starting'));
    const call = fetch.mock.calls.find(([u]) => String(u).startsWith('/api/startBot'))!;
    const q = new URL(String(call[0]), 'http://x').searchParams;
    expect(Object.fromEntries(q)).toEqual({
      userId: 'u-1', symbol: 'BTCUSDT', quantity: '0.01', orderCount: '5', orderDiff: '100', takeProfit: '1', id: 'b1',
      exchange: 'Binance', entryPrice: '60000', botType: 'Spot',
    });
    expect((call[1]!.headers as Record<string, string>)['X-CSRF-Token']).toBe('test-csrf');
    expect(screen.queryByText('Bot successfully started!')).not.toBeInTheDocument();
    act(() => fake.socket.push('bot:status', { id: 'b1', botstatus: true, pid: 4242 }));
    expect(await screen.findByText('Bot successfully started!')).toBeInTheDocument();
    expect(cards()[0]).toHaveAttribute('data-state', 'running');
    expect(within(cards()[0]).getByRole('button', { name: /^Edit / })).toBeDisabled();
    // no polling while the socket is up
    expect(fetch.mock.calls.some(([u]) => String(u).startsWith('/api/bot-details'))).toBe(false);
  });

  it('a bot-details read that answers after the status push does not undo it (fast runner)', async () => {
    const bot = makeBot({ id: 'b5' });
    const base = routesWith([bot], {
      'GET /api/startBot': { status: 202, body: { ...bot, state: 'starting' } },
      // read while the runner was still placing the ladder
      'GET /api/bot-details/b5': { ...bot, state: 'starting' },
    });
    let release: () => void = () => undefined;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    (global as unknown as { fetch: unknown }).fetch = async (u: string, init?: RequestInit) => {
      if (String(u).startsWith('/api/bot-details/')) await gate;
      return base(u, init);
    };
    renderApp('/bots', { user: USER });
    await waitFor(() => expect(cards()).toHaveLength(1));
    await userEvent.click(within(cards()[0]).getByRole('button', { name: /^Start / }));
    await waitFor(() => expect(cards()[0]).toHaveAttribute('data-state', 'starting'));
    // BotStartRequested → bot:changed → a read goes out; BotStarted's push overtakes its answer
    act(() => fake.socket.push('bot:changed', { id: 'b5' }));
    await waitFor(() => expect(base.mock.calls.some(([u]) => String(u).startsWith('/api/bot-details/b5'))).toBe(false));
    act(() => fake.socket.push('bot:status', { id: 'b5', botstatus: true, pid: 77 }));
    expect(await screen.findByText('Bot successfully started!')).toBeInTheDocument();
    await act(async () => {
      release();
      await new Promise((r) => setTimeout(r, 20));
    });
    expect(base.mock.calls.some(([u]) => String(u).startsWith('/api/bot-details/b5'))).toBe(true);
    expect(cards()[0]).toHaveAttribute('data-state', 'running');
    expect(within(cards()[0]).getByRole('button', { name: /^Stop / })).toBeEnabled();
  });

  it('a start that fails later shows "Failed to start the bot." with the reason', async () => {
    const bot = makeBot({ id: 'b2' });
    routesWith([bot], {
      'GET /api/startBot': { status: 202, body: { ...bot, state: 'starting' } },
      'GET /api/bot-details/b2': { ...bot, state: 'stopped', lasterror: 'Insufficient balance' },
    });
    renderApp('/bots', { user: USER });
    await waitFor(() => expect(cards()).toHaveLength(1));
    await userEvent.click(within(cards()[0]).getByRole('button', { name: /^Start / }));
    act(() => fake.socket.push('bot:changed', { id: 'b2' }));
    expect(await screen.findByText('Failed to start the bot.')).toBeInTheDocument();
    expect(screen.getAllByText('Insufficient balance').length).toBeGreaterThan(0);
  });

  it('polls bot-details every second only while the socket is down', async () => {
    fake.socket.connected = false;
    const bot = makeBot({ id: 'b3' });
    let polls = 0;
    const fetch = routesWith([bot], {
      'GET /api/startBot': { status: 202, body: { ...bot, state: 'starting' } },
      'GET /api/bot-details/b3': () => {
        polls += 1;
        return polls >= 2 ? { ...bot, botstatus: true, state: 'running', pid: 7 } : { ...bot, state: 'starting' };
      },
    });
    renderApp('/bots', { user: USER });
    await waitFor(() => expect(cards()).toHaveLength(1));
    await userEvent.click(within(cards()[0]).getByRole('button', { name: /^Start / }));
    expect(await screen.findByText('Bot successfully started!', {}, { timeout: 4000 })).toBeInTheDocument();
    expect(cards()[0]).toHaveAttribute('data-state', 'running');
    const n = fetch.mock.calls.filter(([u]) => String(u).startsWith('/api/bot-details')).length;
    await new Promise((r) => setTimeout(r, 1300));
    // pending cleared: polling stopped
    expect(fetch.mock.calls.filter(([u]) => String(u).startsWith('/api/bot-details')).length).toBe(n);
  });

  it('stop asks about "Cancel all orders" and sends it; the push reports the stop', async () => {
    const bot = makeBot({ id: 'b4', botstatus: true, state: 'running', pid: 99 });
    const fetch = routesWith([bot], {
      'GET /api/stopBot': { status: 202, body: { ...bot, state: 'stopping' } },
      'GET /api/bot-details/b4': { ...bot, botstatus: false, state: 'stopped', pid: -1 },
    });
    renderApp('/bots', { user: USER });
    const dlg = await stopFromCard();
    expect(within(dlg).getByText('Are you sure you want to stop the Bot?')).toBeInTheDocument();
    await userEvent.click(within(dlg).getByLabelText('Cancel all orders'));
    await userEvent.click(within(dlg).getByRole('button', { name: 'Yes' }));
    await waitFor(() => expect(fetch.mock.calls.some(([u]) => String(u).startsWith('/api/stopBot'))).toBe(true));
    const call = fetch.mock.calls.find(([u]) => String(u).startsWith('/api/stopBot'))!;
    expect(Object.fromEntries(new URL(String(call[0]), 'http://x').searchParams)).toEqual({
      userId: 'u-1', id: 'b4', pid: '99', cancelAllOrders: 'true', exchange: 'Binance', symbol: 'BTCUSDT', botType: 'Spot',
    });
    act(() => fake.socket.push('bot:status', { id: 'b4', botstatus: false, pid: -1 }));
    expect(await screen.findByText('Bot successfully stopped!')).toBeInTheDocument();
    await waitFor(() => expect(cards()[0]).toHaveAttribute('data-state', 'stopped'));
  });

  it('a spot bot\'s stop dialog has no "Close the position at market"; a futures bot\'s does, off by default, and untouched the stop is the spec\'s call', async () => {
    const spot = makeBot({ id: 's1', botstatus: true, state: 'running', pid: 7 });
    const fut = makeBot({ id: 'f1', bottype: 'Futures', leverage: 10, botstatus: true, state: 'running', pid: 8 });
    const fetch = routesWith([spot, fut], {
      'GET /api/stopBot': { status: 202, body: { ...fut, state: 'stopping' } },
    });
    const stopParams = () =>
      fetch.mock.calls.filter(([u]) => String(u).startsWith('/api/stopBot')).map(([u]) => Object.fromEntries(new URL(String(u), 'http://x').searchParams));
    renderApp('/bots', { user: USER });
    let dlg = await stopFromCard();
    expect(within(dlg).queryByLabelText('Close the position at market')).not.toBeInTheDocument();
    await userEvent.click(within(dlg).getByRole('button', { name: 'No' }));

    await userEvent.click(screen.getByRole('tab', { name: /Futures bots/ }));
    await waitFor(() => expect(cards()).toHaveLength(1));
    // untouched: the stop is the spec's call, without closePosition
    await userEvent.click(within(cards()[0]).getByRole('button', { name: /^Stop / }));
    dlg = screen.getByRole('alertdialog', { name: 'Stop Bot' });
    expect(within(dlg).getByLabelText('Close the position at market')).not.toBeChecked();
    await userEvent.click(within(dlg).getByRole('button', { name: 'Yes' }));
    await waitFor(() => expect(stopParams()).toHaveLength(1));
    expect(stopParams()[0]).toEqual({ userId: 'u-1', id: 'f1', pid: '8', cancelAllOrders: 'false', exchange: 'Binance', symbol: 'BTCUSDT', botType: 'Futures' });
  });

  it('a futures bot\'s stop with "Close the position at market" ticked sends closePosition=true', async () => {
    const fut = makeBot({ id: 'f2', bottype: 'Futures', leverage: 10, botstatus: true, state: 'running', pid: 9 });
    const fetch = routesWith([fut], { 'GET /api/stopBot': { status: 202, body: { ...fut, state: 'stopping' } } });
    renderApp('/bots', { user: USER });
    await userEvent.click(await screen.findByRole('tab', { name: /Futures bots/ }));
    const dlg = await stopFromCard();
    await userEvent.click(within(dlg).getByLabelText('Close the position at market'));
    await userEvent.click(within(dlg).getByRole('button', { name: 'Yes' }));
    await waitFor(() => expect(fetch.mock.calls.some(([u]) => String(u).startsWith('/api/stopBot'))).toBe(true));
    const call = fetch.mock.calls.find(([u]) => String(u).startsWith('/api/stopBot'))!;
    expect(Object.fromEntries(new URL(String(call[0]), 'http://x').searchParams)).toEqual({
      userId: 'u-1', id: 'f2', pid: '9', cancelAllOrders: 'false', exchange: 'Binance', symbol: 'BTCUSDT', botType: 'Futures', closePosition: 'true',
    });
  });

  it('a spot bot\'s stop offers "Sell what the bot holds at market", off by default; ticked, the stop sends closePosition=true (issue 29)', async () => {
    const spot = makeBot({ id: 's3', botstatus: true, state: 'running', pid: 11 });
    const fetch = routesWith([spot], { 'GET /api/stopBot': { status: 202, body: { ...spot, state: 'stopping' } } });
    const stopParams = () =>
      fetch.mock.calls.filter(([u]) => String(u).startsWith('/api/stopBot')).map(([u]) => Object.fromEntries(new URL(String(u), 'http://x').searchParams));
    renderApp('/bots', { user: USER });
    const dlg = await stopFromCard();
    expect(within(dlg).getByText('Are you sure you want to stop the Bot?')).toBeInTheDocument();
    expect(within(dlg).getByLabelText('Cancel all orders')).not.toBeChecked();
    const sell = within(dlg).getByLabelText('Sell what the bot holds at market');
    expect(sell).not.toBeChecked();
    await userEvent.click(within(dlg).getByLabelText('Cancel all orders'));
    await userEvent.click(sell);
    await userEvent.click(within(dlg).getByRole('button', { name: 'Yes' }));
    await waitFor(() => expect(stopParams()).toHaveLength(1));
    expect(stopParams()[0]).toEqual({
      userId: 'u-1', id: 's3', pid: '11', cancelAllOrders: 'true', exchange: 'Binance', symbol: 'BTCUSDT', botType: 'Spot', closePosition: 'true',
    });
  });

  describe('a start of a bot that holds a position (issue 29)', () => {
    const held =
      'The bot holds 0.03 BTC (bought for 1,797.00 USDT). Starting it places its ladder again: up to 0.05 BTC more for 2,990.00 USDT. Confirm the start to go on (confirmPosition=true).';
    const startParams = (fetch: jest.Mock) =>
      fetch.mock.calls.filter(([u]) => String(u).startsWith('/api/startBot')).map(([u]) => Object.fromEntries(new URL(String(u), 'http://x').searchParams));
    const routes = (bot: Bot) =>
      routesWith([bot], {
        'GET /api/startBot': (url: URL) =>
          url.searchParams.get('confirmPosition') === 'true'
            ? { status: 202, body: { ...bot, state: 'starting' } }
            : { status: 409, body: { statusCode: 409, message: held } },
      });

    /** The bots page with its one card, whose Start is clicked: the confirmation that opens. */
    const startFromCard = async () => {
      renderApp('/bots', { user: USER });
      await waitFor(() => expect(cards()).toHaveLength(1));
      await userEvent.click(within(cards()[0]).getByRole('button', { name: /^Start / }));
      return screen.findByRole('alertdialog', { name: 'Start Bot' });
    };

    it('the refusal is shown in a confirmation; "Start anyway" starts again with confirmPosition=true', async () => {
      const bot = makeBot({ id: 'p1' });
      const fetch = routes(bot);
      const dlg = await startFromCard();
      expect(within(dlg).getByText(/The bot holds 0\.03 BTC \(bought for 1,797\.00 USDT\)\. Starting it places its ladder again: up to 0\.05 BTC more for 2,990\.00 USDT\./)).toBeInTheDocument();
      expect(dlg).not.toHaveTextContent('confirmPosition');
      expect(screen.queryByText('Failed to start the bot.')).not.toBeInTheDocument();
      expect(cards()[0]).toHaveAttribute('data-state', 'stopped');
      expect(startParams(fetch)).toHaveLength(1);
      expect(startParams(fetch)[0].confirmPosition).toBeUndefined();

      await userEvent.click(within(dlg).getByRole('button', { name: 'Start anyway' }));
      await waitFor(() => expect(startParams(fetch)).toHaveLength(2));
      expect(startParams(fetch)[1]).toMatchObject({ id: 'p1', userId: 'u-1', confirmPosition: 'true' });
      await waitFor(() => expect(cards()[0]).toHaveAttribute('data-state', 'starting'));
      expect(screen.queryByRole('alertdialog', { name: 'Start Bot' })).not.toBeInTheDocument();
    });

    it('"Cancel" starts nothing', async () => {
      const bot = makeBot({ id: 'p2' });
      const fetch = routes(bot);
      const dlg = await startFromCard();
      await userEvent.click(within(dlg).getByRole('button', { name: 'Cancel' }));
      expect(screen.queryByRole('alertdialog', { name: 'Start Bot' })).not.toBeInTheDocument();
      expect(startParams(fetch)).toHaveLength(1);
      expect(cards()[0]).toHaveAttribute('data-state', 'stopped');
      expect(within(cards()[0]).getByRole('button', { name: /^Start / })).toBeEnabled();
    });
  });

  it('delete asks first; success and failure texts', async () => {
    let bots = [makeBot({ id: 'd1' }), makeBot({ id: 'd2' })];
    routesWith([], {
      'GET /api/bots/u-1': () => bots,
      'DELETE /api/bots/d1': () => {
        bots = bots.filter((b) => b.id !== 'd1');
        return { status: 204 };
      },
      'DELETE /api/bots/d2': { status: 500, body: { statusCode: 500, message: 'boom' } },
    });
    renderApp('/bots', { user: USER });
    await waitFor(() => expect(cards()).toHaveLength(2));
    await userEvent.click(within(cards()[0]).getByRole('button', { name: /^Delete / }));
    const dlg = screen.getByRole('alertdialog', { name: 'Delete Bot' });
    expect(within(dlg).getByText('Are you sure you want to Delete the Bot?')).toBeInTheDocument();
    await userEvent.click(within(dlg).getByRole('button', { name: 'Yes' }));
    expect(await screen.findByText('Bot successfully deleted!')).toBeInTheDocument();
    await waitFor(() => expect(cards()).toHaveLength(1));
    await userEvent.click(within(cards()[0]).getByRole('button', { name: /^Delete / }));
    await userEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Yes' }));
    expect(await screen.findByText('Error deleting bot!')).toBeInTheDocument();
  });

  it('bot:deleted and bot:changed pushes update the list', async () => {
    const a = makeBot({ id: 'p1' });
    routesWith([a], { 'GET /api/bot-details/p2': makeBot({ id: 'p2', symbol: 'SOLUSDT' }) });
    renderApp('/bots', { user: USER });
    await waitFor(() => expect(cards()).toHaveLength(1));
    act(() => fake.socket.push('bot:changed', { id: 'p2' }));
    await waitFor(() => expect(cards()).toHaveLength(2));
    act(() => fake.socket.push('bot:deleted', { id: 'p1' }));
    await waitFor(() => expect(cards()).toHaveLength(1));
    expect(cards()[0]).toHaveAttribute('data-bot-id', 'p2');
  });
});
