import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { freshSocketPerTest, socketModuleMock } from './testing/fakeSocket';
import { baseRoutes, makeBot, mockFetch, renderApp, USER, pickMarket, formMarketRoutes, openCreateForm } from './testing/utils';
import type { Bot } from './api/types';

jest.mock('./api/socket', () => socketModuleMock());
jest.mock('./bots/BotChart', () => ({ __esModule: true, default: () => <div data-testid="chart-stub" /> }));

freshSocketPerTest();

const cards = () => screen.queryAllByTestId('bot-card');
const EDIT_REFUSED = 'An infinity bot cannot be edited yet: stop it, delete it and create a new one'; // the server's (styles/infinity/infinity.rules.ts INFINITY_EDIT_MESSAGE)

/** An infinity bot as the server's view gives it (bot.view.ts): its own settings, the ladder's fields 0. */
const infinityBot = (over: Partial<Bot> = {}): Bot =>
  makeBot({ id: 'i1', style: 'infinity', entryprice: 100, steppercent: 2, quotevalue: 10, lowerprice: 90, initialquote: 50, numoforders: 0, ordersize: 0, interval: 0, takeprofit: 0, ...over });

const exchangeRoutes = formMarketRoutes({ spotPrice: 100, spotBalance: 1000, futuresBalance: 500 });

async function openSpotForm() {
  await userEvent.click(await screen.findByRole('button', { name: 'Create bot' }));
  return within(screen.getByRole('dialog', { name: 'Create new bot' }));
}

describe('infinity grid on the create form (issue 32)', () => {
  it('the Style select offers Ladder (default) and Infinity; Infinity shows its own fields, hides the ladder-only parts, checks like the server, previews its first orders and posts the infinity body', async () => {
    let posted: Record<string, unknown> | null = null;
    const fetch = mockFetch({
      ...baseRoutes(),
      'GET /api/bots/u-1': () => (posted ? [infinityBot()] : []),
      ...exchangeRoutes,
      'POST /api/bots': (_u: URL, init: RequestInit) => {
        posted = JSON.parse(String(init.body));
        return { status: 201, body: infinityBot() };
      },
    });
    renderApp('/bots', { user: USER });
    const f = await openSpotForm();
    expect(within(f.getByLabelText('Style')).getAllByRole('option').map((o) => o.textContent)).toEqual(['Ladder (buys below the entry, one take profit)', 'Infinity (sells each step up, buys each step down)']);
    expect(f.getByLabelText('Style')).toHaveValue('ladder');
    await pickMarket(f, '100');
    // the ladder form as today
    expect(f.getByLabelText('Grid size')).toBeInTheDocument();
    expect(f.getByTestId('advanced')).toBeInTheDocument();
    expect(f.getByRole('group', { name: 'Set the grid by' })).toBeInTheDocument();
    expect(f.getByTestId('template-bar')).toBeInTheDocument();
    expect(f.getByRole('region', { name: 'Backtest' })).toBeInTheDocument();
    expect(f.getByTestId('ladder-note')).toHaveTextContent('A ladder buys below the entry and sells all at the take profit');

    await userEvent.selectOptions(f.getByLabelText('Style'), 'infinity');
    for (const ladderOnly of ['Grid size', 'Order size', 'Price interval', 'Take profit']) expect(f.queryByLabelText(ladderOnly)).toBeNull();
    expect(f.queryByTestId('advanced')).toBeNull();
    expect(f.queryByRole('group', { name: 'Set the grid by' })).toBeNull();
    expect(f.queryByTestId('template-bar')).toBeNull();
    expect(f.queryByRole('region', { name: 'Backtest' })).toBeNull();
    expect(f.queryByTestId('total-cost')).toBeNull();
    expect(f.getByTestId('infinity-note')).toHaveTextContent('The range setup, advanced settings, templates and backtest are for ladder bots only.');
    expect(f.getByLabelText('Entry Price')).toHaveValue('100'); // still the current price

    // the server's messages (infinity.rules.ts parseInfinityBot), once a field was left
    await userEvent.click(f.getByLabelText('Step'));
    await userEvent.tab();
    expect(f.getByText('stepPercent is required')).toBeInTheDocument();
    await userEvent.type(f.getByLabelText('Step'), '60');
    await userEvent.tab();
    expect(f.getByText('stepPercent must be a percentage greater than 0 and below 50')).toBeInTheDocument();
    await userEvent.clear(f.getByLabelText('Step'));
    await userEvent.type(f.getByLabelText('Step'), '2');
    await userEvent.type(f.getByLabelText('Value per step (USDT)'), '0');
    await userEvent.tab();
    expect(f.getByText('quoteValue must be a number greater than 0 (USDT per step)')).toBeInTheDocument();
    await userEvent.type(f.getByLabelText('Initial buy (USDT, optional)'), '-1');
    await userEvent.tab();
    expect(f.getByText('initialQuote must be a number of 0 or more (USDT)')).toBeInTheDocument();
    await userEvent.clear(f.getByLabelText('Initial buy (USDT, optional)'));
    await userEvent.type(f.getByLabelText('Initial buy (USDT, optional)'), '50');
    await userEvent.clear(f.getByLabelText('Value per step (USDT)'));
    await userEvent.type(f.getByLabelText('Value per step (USDT)'), '10');
    await userEvent.type(f.getByLabelText('Lower price'), '120');
    await userEvent.tab();
    expect(f.getByText('lowerPrice must be below the entry price')).toBeInTheDocument();
    expect(f.getByRole('button', { name: 'Save' })).toBeDisabled();
    await userEvent.clear(f.getByLabelText('Lower price'));
    await userEvent.type(f.getByLabelText('Lower price'), '90');
    // the market's minimum order (infinityProblem, the server's market check): 4 USDT at one step up,
    // 100 × 1.02 = 102 → ⌊4 ÷ 102⌋ to 0.00001 = 0.03921 BTC, worth 3.99942 < 5
    await userEvent.clear(f.getByLabelText('Value per step (USDT)'));
    await userEvent.type(f.getByLabelText('Value per step (USDT)'), '4');
    expect(f.getByText("A step of 4 USDT at 102 (0.03921 coin) is below the market's minimum order (value 5, amount 0.00001)")).toBeInTheDocument();
    expect(f.getByRole('button', { name: 'Save' })).toBeDisabled();
    await userEvent.clear(f.getByLabelText('Value per step (USDT)'));
    await userEvent.type(f.getByLabelText('Value per step (USDT)'), '10');

    // the preview, by hand (price step 0.01, amount step 0.00001):
    //   initial buy: ⌊50 ÷ 100⌋ = 0.5 BTC at 100.00, worth 50.00
    //   sell one step up: 100 × 1.02 = 102.00; ⌊10 ÷ 102 = 0.0980392…⌋ = 0.09803 BTC (≤ 0.5 held), worth 9.99906 → 10.00
    //   buy one step down: 100 × 0.98 = 98.00; ⌊10 ÷ 98 = 0.1020408…⌋ = 0.10204 BTC, worth 9.99992 → 10.00
    const table = f.getByRole('table', { name: 'First orders of the infinity grid' });
    expect(within(table).getAllByRole('row').slice(1).map((r) => r.textContent)).toEqual(['Initial buy100.000.550.00', 'Sell one step up102.000.0980310.00', 'Buy one step down98.000.1020410.00']);
    expect(f.getByTestId('infinity-floor')).toHaveTextContent('No buy below 90.00 USDT; sells go on above.');

    expect(f.getByRole('button', { name: 'Save' })).toBeEnabled();
    await userEvent.click(f.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Bot successfully added!')).toBeInTheDocument();
    const call = fetch.mock.calls.find(([u, i]) => String(u) === '/api/bots' && i?.method === 'POST')!;
    expect(JSON.parse(String(call[1]!.body))).toEqual({ userId: 'u-1', style: 'infinity', exchange: 'Binance', symbol: 'BTCUSDT', botType: 'Spot', entryPrice: 100, stepPercent: 2, quoteValue: 10, lowerPrice: 90, initialQuote: 50 });
    await waitFor(() => expect(cards()).toHaveLength(1));
  }, 30_000);

  it('without an initial buy the preview says the first sell waits, and the body leaves initialQuote out (the server\'s default 0)', async () => {
    const fetch = mockFetch({ ...baseRoutes(), 'GET /api/bots/u-1': [], ...exchangeRoutes, 'POST /api/bots': { status: 201, body: infinityBot({ initialquote: 0 }) } });
    renderApp('/bots', { user: USER });
    const f = await openSpotForm();
    await pickMarket(f, '100');
    await userEvent.selectOptions(f.getByLabelText('Style'), 'infinity');
    await userEvent.type(f.getByLabelText('Step'), '1');
    await userEvent.type(f.getByLabelText('Value per step (USDT)'), '20');
    await userEvent.type(f.getByLabelText('Lower price'), '50');
    // no coin held: no sell; the buy one step down 100 × 0.99 = 99.00, ⌊20 ÷ 99 = 0.2020202…⌋ = 0.20202 BTC, worth 19.99998 → 20.00
    const table = f.getByRole('table', { name: 'First orders of the infinity grid' });
    expect(within(table).getAllByRole('row').slice(1).map((r) => r.textContent)).toEqual(['No initial buy: the first sell waits for a buy', 'Buy one step down99.000.2020220.00']);
    await userEvent.click(f.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Bot successfully added!')).toBeInTheDocument();
    const call = fetch.mock.calls.find(([u, i]) => String(u) === '/api/bots' && i?.method === 'POST')!;
    expect(JSON.parse(String(call[1]!.body))).toEqual({ userId: 'u-1', style: 'infinity', exchange: 'Binance', symbol: 'BTCUSDT', botType: 'Spot', entryPrice: 100, stepPercent: 1, quoteValue: 20, lowerPrice: 50 });
  }, 30_000);

  it('futures: no Style select (an infinity grid is spot only)', async () => {
    mockFetch({ ...baseRoutes(), 'GET /api/bots/u-1': [], ...exchangeRoutes });
    renderApp('/bots', { user: USER });
    const f = await openCreateForm(/Futures bots/);
    expect(f.getByLabelText('Direction')).toBeInTheDocument();
    expect(f.queryByLabelText('Style')).toBeNull();
  });
});

describe('an infinity bot on its card and its page (issue 32)', () => {
  it('the ladder form\'s "Start from" offers no copy of an infinity bot (it has no ladder: its ladder fields are 0)', async () => {
    mockFetch({ ...baseRoutes(), 'GET /api/bots/u-1': [infinityBot({ entryprice: 100 }), makeBot({ id: 'l1', entryprice: 60000 })], ...exchangeRoutes, 'GET /api/templates': [] });
    renderApp('/bots', { user: USER });
    await waitFor(() => expect(cards()).toHaveLength(2));
    const f = await openSpotForm();
    await waitFor(() => expect(within(f.getByLabelText('Start from')).getAllByRole('option')).toHaveLength(2));
    expect(within(f.getByLabelText('Start from')).getAllByRole('option').map((o) => o.textContent)).toEqual(['Blank form', 'Copy of bot: BTC/USDT on Binance, entry 60000']);
  });

  it('the card shows its own settings, not ladder zeros, and its Edit is disabled with the server\'s refusal', async () => {
    mockFetch({ ...baseRoutes(), 'GET /api/bots/u-1': [infinityBot(), makeBot({ id: 'l1' })] });
    renderApp('/bots', { user: USER });
    await waitFor(() => expect(cards()).toHaveLength(2));
    const card = within(cards().find((c) => c.getAttribute('data-bot-id') === 'i1')!);
    const fact = (label: string) => card.getByText(label).nextSibling;
    expect(fact('Style')).toHaveTextContent('Infinity');
    expect(fact('Entry price')).toHaveTextContent('100');
    expect(fact('Step')).toHaveTextContent('2%');
    expect(fact('Per step')).toHaveTextContent('10 USDT');
    expect(fact('Lower price')).toHaveTextContent('90');
    expect(fact('Initial buy')).toHaveTextContent('50 USDT');
    for (const ladder of ['Orders', 'Order size', 'Take profit', 'Interval']) expect(card.queryByText(ladder)).toBeNull();
    const edit = card.getByRole('button', { name: /^Edit / });
    expect(edit).toBeDisabled();
    expect(edit).toHaveAttribute('title', EDIT_REFUSED);
    // a ladder bot's card is unchanged
    const ladderCard = within(cards().find((c) => c.getAttribute('data-bot-id') === 'l1')!);
    expect(ladderCard.getByText('Orders')).toBeInTheDocument();
    expect(ladderCard.getByRole('button', { name: /^Edit / })).toBeEnabled();
  });

  it('the bot page\'s Settings show its own settings, and its Edit is disabled with the server\'s refusal', async () => {
    mockFetch({ ...baseRoutes(), 'GET /api/bots/u-1': [infinityBot({ quotevalue: 12.5 })], 'GET /api/bots-overview': [] });
    renderApp('/bots/i1', { user: USER });
    const settings = within(await screen.findByTestId('infinity-settings', {}, { timeout: 5000 }));
    const fact = (label: string) => settings.getByText(label).nextSibling;
    expect(fact('Style')).toHaveTextContent('Infinity');
    expect(fact('Entry price')).toHaveTextContent('100.00 USDT');
    expect(fact('Step')).toHaveTextContent('2%');
    expect(fact('Value per step')).toHaveTextContent('12.50 USDT');
    expect(fact('Lower price')).toHaveTextContent('90.00 USDT');
    expect(fact('Initial buy')).toHaveTextContent('50.00 USDT');
    expect(fact('How it trades')).toHaveTextContent('Sells 12.50 USDT of coin each step up and buys as much each step down, with no buy below 90.00 USDT');
    for (const ladder of ['Grid size', 'Order size', 'Price interval', 'Take profit']) expect(settings.queryByText(ladder)).toBeNull();
    const edit = screen.getByRole('button', { name: /^Edit / });
    expect(edit).toBeDisabled();
    expect(edit).toHaveAttribute('title', EDIT_REFUSED);
  });
});
