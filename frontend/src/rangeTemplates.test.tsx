/**
 * Issue 32 in the bot form: the grid set by a price range (the same ladder fields, computed by the
 * grid engine's range.ts at the market's price step), templates and copies that fill the form and are
 * checked against today's market, and saving the form as a template.
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { freshSocketPerTest, socketModuleMock } from './testing/fakeSocket';
import { baseRoutes, makeBot, mockFetch, renderApp, USER, spotMarketRoutes, pickMarket, typeLadder } from './testing/utils';
import type { Bot } from './api/types';
import { settingsOfBot } from './bots/TemplateBar';

jest.mock('./api/socket', () => socketModuleMock());
jest.setTimeout(30_000);

freshSocketPerTest();

const btcRoutes = spotMarketRoutes(95447);
const template = {
  id: 't-1',
  name: 'BTC high',
  fromBotId: null,
  createdAt: '2026-11-01T00:00:00.000Z',
  settings: { botType: 'Spot', exchange: 'Binance', symbol: 'BTCUSDT', numOfOrders: 5, orderSize: 0.01, interval: 500, entryPrice: 190000, takeProfit: 1, leverage: 1 },
};

function routes(bots: Bot[] = [], extra: Record<string, unknown> = {}) {
  return mockFetch({
    ...baseRoutes(),
    ...btcRoutes,
    'GET /api/bots/u-1': () => bots,
    'GET /api/bot-templates': { templates: [template] },
    'POST /api/bots': (_u: URL, init: RequestInit) => ({ status: 201, body: makeBot({ id: 'n1', ...JSON.parse(String(init.body)) }) }),
    ...extra,
  });
}

const bodyOf = (fetch: jest.Mock, path: string) => {
  const call = fetch.mock.calls.find(([u, i]) => String(u) === path && (i as RequestInit | undefined)?.method === 'POST')!;
  return JSON.parse(String((call[1] as RequestInit).body));
};

async function openForm(bots: Bot[] = [], extra: Record<string, unknown> = {}) {
  const fetch = routes(bots, extra);
  renderApp('/bots', { user: USER });
  await userEvent.click(await screen.findByRole('button', { name: 'Create bot' }, { timeout: 10_000 }));
  const f = within(screen.getByRole('dialog', { name: 'Create new bot' }));
  return { f, fetch };
}

async function pickBtc(f: ReturnType<typeof within>) {
  await pickMarket(f, '95447');
}

/** In the create form `f`: "Price range" chosen, and its upper price (in place of the one filled in), lower price and levels typed. */
async function typeRange(f: ReturnType<typeof within>, upper: string, lower: string, levels: string) {
  await userEvent.click(f.getByRole('radio', { name: 'Price range' }));
  await userEvent.clear(f.getByLabelText('Upper price'));
  await userEvent.type(f.getByLabelText('Upper price'), upper);
  await userEvent.type(f.getByLabelText('Lower price'), lower);
  await userEvent.type(f.getByLabelText('Levels'), levels);
}

describe('the bot form in range mode (issue 32)', () => {
  it('90,000 to 95,000 in 7 arithmetic levels fills the ladder fields (read-only), the cost follows, and the request carries that ladder', async () => {
    const { f, fetch } = await openForm();
    await pickBtc(f);
    await typeRange(f, '95000', '90000', '7');
    // (95000 − 90000) ÷ 6 = 833.333… → 833.33 at the price step of 0.01; last rung 95000 − 6 × 833.33 = 90000.02
    expect(f.getByLabelText('Entry Price')).toHaveValue('95000');
    expect(f.getByLabelText('Grid size')).toHaveValue('7');
    expect(f.getByLabelText('Price interval')).toHaveValue('833.33');
    expect(f.getByLabelText('Price interval')).toHaveAttribute('readonly');
    expect(f.getByTestId('range-summary')).toHaveTextContent('7 buy orders from 95,000.00 USDT down to 90,000.02 USDT, 833.33 USDT apart');
    await userEvent.type(f.getByLabelText('Order size'), '0.001');
    await userEvent.type(f.getByLabelText('Take profit'), '1');
    // 0.001 × (95000 + 94166.67 + 93333.34 + 92500.01 + 91666.68 + 90833.35 + 90000.02) = 0.001 × 647500.07
    expect(f.getByTestId('total-cost')).toHaveTextContent('647.50 USDT');
    await userEvent.click(f.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Bot successfully added!')).toBeInTheDocument();
    expect(bodyOf(fetch, '/api/bots')).toMatchObject({ entryPrice: 95000, numOfOrders: 7, interval: 833.33, orderSize: 0.001, takeProfit: 1 });
    expect(bodyOf(fetch, '/api/bots').spacing).toBeUndefined(); // arithmetic: the spec's absolute spacing
  });

  it('geometric: 80,000 to 95,000 in 4 levels sends percent spacing with the ratio that puts the last rung at 80,000', async () => {
    const { f, fetch } = await openForm();
    await pickBtc(f);
    await typeRange(f, '95000', '80000', '4');
    await userEvent.selectOptions(f.getByLabelText('Steps'), 'geometric');
    // (1 − (80000 ÷ 95000)^(1/3)) × 100 = (1 − 0.9443264) × 100 = 5.5673608…% → 5.56736
    expect(f.getByLabelText('Price interval')).toHaveValue('5.56736');
    expect(f.getByTestId('range-summary')).toHaveTextContent('4 buy orders from 95,000.00 USDT down to 80,000.00 USDT, each 5.56736 % below the previous');
    await userEvent.type(f.getByLabelText('Order size'), '0.001');
    await userEvent.type(f.getByLabelText('Take profit'), '1');
    await userEvent.click(f.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Bot successfully added!')).toBeInTheDocument();
    expect(bodyOf(fetch, '/api/bots')).toMatchObject({ entryPrice: 95000, numOfOrders: 4, interval: 5.56736, spacing: 'percent' });
  });

  it('a bad range says so under its fields and Save stays disabled', async () => {
    const { f } = await openForm();
    await pickBtc(f);
    await typeRange(f, '90000', '95000', '1');
    await userEvent.tab();
    await userEvent.click(f.getByLabelText('Upper price'));
    await userEvent.tab();
    expect(f.getByText('Upper price must be above the lower price')).toBeInTheDocument();
    expect(f.getByText('Levels must be a whole number of at least 2')).toBeInTheDocument();
    expect(f.getByRole('button', { name: 'Save' })).toBeDisabled();
  });

  it('switching to range mode starts from the ladder typed in: its range', async () => {
    const { f } = await openForm();
    await pickBtc(f);
    await userEvent.clear(f.getByLabelText('Entry Price'));
    await userEvent.type(f.getByLabelText('Entry Price'), '95000');
    await userEvent.type(f.getByLabelText('Grid size'), '5');
    await userEvent.type(f.getByLabelText('Price interval'), '250');
    await userEvent.click(f.getByRole('radio', { name: 'Price range' }));
    // 95000 − 4 × 250 = 94000
    expect(f.getByLabelText('Upper price')).toHaveValue('95000');
    expect(f.getByLabelText('Lower price')).toHaveValue('94000');
    expect(f.getByLabelText('Levels')).toHaveValue('5');
  });
});

describe('the edit form in range mode (issue 32)', () => {
  it('a bot\'s range is read from its ladder; a new range is sent as its ladder fields', async () => {
    const bot = makeBot({ id: 'e1', entryprice: 95000, numoforders: 5, ordersize: 0.001, interval: 100, takeprofit: 1 });
    const fetch = routes([bot], { 'PUT /api/bots/e1': (_u: URL, init: RequestInit) => ({ status: 200, body: { ...bot, ...JSON.parse(String(init.body)) } }) });
    renderApp('/bots', { user: USER });
    const card = await screen.findByTestId('bot-card', {}, { timeout: 10_000 });
    await userEvent.click(within(card).getByRole('button', { name: /^Edit / }));
    const f = within(screen.getByRole('dialog', { name: 'Edit bot' }));
    await userEvent.click(f.getByRole('radio', { name: 'Price range' }));
    // 95000 − 4 × 100 = 94600
    expect([f.getByLabelText('Upper price'), f.getByLabelText('Lower price'), f.getByLabelText('Levels')].map((e) => (e as HTMLInputElement).value)).toEqual(['95000', '94600', '5']);
    await userEvent.clear(f.getByLabelText('Levels'));
    await userEvent.type(f.getByLabelText('Levels'), '9');
    // (95000 − 94600) ÷ 8 = 50
    expect(f.getByLabelText('Price interval')).toHaveValue('50');
    await userEvent.click(f.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Bot successfully edited!')).toBeInTheDocument();
    const call = fetch.mock.calls.find(([u, i]) => String(u) === '/api/bots/e1' && (i as RequestInit | undefined)?.method === 'PUT')!;
    expect(JSON.parse(String((call[1] as RequestInit).body))).toEqual({ exchange: 'Binance', numOfOrders: 9, orderSize: 0.001, interval: 50, entryPrice: 95000, takeProfit: 1 });
  });
});

describe('templates and copies in the bot form (issue 32)', () => {
  it('a template fills the form and today\'s market checks it: its entry far above the price asks for the confirmation', async () => {
    const { f } = await openForm();
    await waitFor(() => expect(f.getByRole('option', { name: 'Template: BTC high (BTC/USDT)' })).toBeInTheDocument());
    await userEvent.selectOptions(f.getByLabelText('Start from'), 'Template: BTC high (BTC/USDT)');
    await waitFor(() => expect(f.getByTestId('current-price')).toHaveTextContent('95,447.00 USDT'));
    expect(f.getByLabelText('Entry Price')).toHaveValue('190000'); // the template's, not replaced by today's price
    expect(f.getByLabelText('Grid size')).toHaveValue('5');
    expect(f.getByTestId('above-market-warning')).toHaveTextContent('The entry price is 99.06 % above the current price of 95,447.00 USDT');
    expect(f.getByRole('button', { name: 'Save' })).toBeDisabled();
  });

  it('a copy of one of one\'s bots fills the form with its settings', async () => {
    const mine = makeBot({ id: 'b-7', symbol: 'BTCUSDT', entryprice: 95000, interval: 300, numoforders: 4, ordersize: 0.002, takeprofit: 1.2 });
    const { f } = await openForm([mine]);
    const label = 'Copy of bot: BTC/USDT on Binance, entry 95000';
    await waitFor(() => expect(f.getByRole('option', { name: label })).toBeInTheDocument());
    await userEvent.selectOptions(f.getByLabelText('Start from'), label);
    await waitFor(() => expect(f.getByTestId('current-price')).toHaveTextContent('95,447.00 USDT'));
    expect([f.getByLabelText('Entry Price'), f.getByLabelText('Grid size'), f.getByLabelText('Order size'), f.getByLabelText('Price interval'), f.getByLabelText('Take profit')].map((e) => (e as HTMLInputElement).value)).toEqual(['95000', '4', '0.002', '300', '1.2']);
    await waitFor(() => expect(f.getByRole('button', { name: 'Save' })).toBeEnabled());
  });

  it('a copy of a short futures bot keeps its direction (the settings are the server\'s BotConfig, direction included)', () => {
    const short = makeBot({ id: 'b-8', bottype: 'Futures', leverage: 5, symbol: 'BTCUSDT', entryprice: 96000, interval: 300, numoforders: 4, ordersize: 0.002, takeprofit: 1.2, direction: 'short' });
    expect(settingsOfBot(short as Bot & Record<string, unknown>)).toMatchObject({ botType: 'Futures', leverage: 5, entryPrice: 96000, direction: 'short' });
    expect(settingsOfBot(makeBot({ id: 'b-9' }) as Bot & Record<string, unknown>)).not.toHaveProperty('direction');
  });

  it('Make a template sends the form\'s settings under the name; a name already used is said under the name', async () => {
    let posted = 0;
    const { f, fetch } = await openForm([], {
      'POST /api/bot-templates': () => (++posted === 1 ? { status: 400, body: { statusCode: 400, message: 'Invalid input', errors: [{ field: 'name', message: 'You already have a template named BTC high' }] } } : { status: 201, body: { ...template, id: 't-2', name: 'Tight' } }),
    });
    await pickBtc(f);
    await userEvent.clear(f.getByLabelText('Entry Price'));
    await userEvent.type(f.getByLabelText('Entry Price'), '95000');
    await typeLadder(f, { grid: '3', size: '0.001', interval: '100', takeProfit: '1' });
    await userEvent.click(f.getByRole('button', { name: 'Make a template' }));
    await userEvent.type(f.getByLabelText('Template name'), 'BTC high');
    await userEvent.click(f.getByRole('button', { name: 'Create template' }));
    expect(await f.findByText('You already have a template named BTC high')).toBeInTheDocument();
    await userEvent.clear(f.getByLabelText('Template name'));
    await userEvent.type(f.getByLabelText('Template name'), 'Tight');
    await userEvent.click(f.getByRole('button', { name: 'Create template' }));
    expect(await screen.findByText('Template saved!')).toBeInTheDocument();
    const calls = fetch.mock.calls.filter(([u, i]) => String(u) === '/api/bot-templates' && (i as RequestInit | undefined)?.method === 'POST');
    expect(JSON.parse(String((calls[1][1] as RequestInit).body))).toEqual({
      name: 'Tight',
      settings: { exchange: 'Binance', symbol: 'BTCUSDT', botType: 'Spot', entryPrice: 95000, numOfOrders: 3, orderSize: 0.001, interval: 100, takeProfit: 1 },
    });
  });
});
