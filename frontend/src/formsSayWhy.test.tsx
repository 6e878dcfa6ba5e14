/**
 * Issue 40: forms that say why (point 7) and the investment-based form, in the dashboard's bot form:
 * a disabled Save names each missing or wrong field; a neutral grid asks for no take profit; a total
 * investment sizes the orders with the market's minimums, and one too small is refused with the numbers.
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { freshSocketPerTest, socketModuleMock } from './testing/fakeSocket';
import { baseRoutes, makeBot, mockFetch, renderApp, USER, pickMarket, formMarketRoutes, typeLadder } from './testing/utils';
import type { Bot } from './api/types';

jest.mock('./api/socket', () => socketModuleMock());
jest.setTimeout(30_000);

freshSocketPerTest();

const exchangeRoutes = formMarketRoutes({ spotPrice: 60000, spotBalance: 5000, futuresBalance: 5000 });
const created = (init: RequestInit) => ({ status: 201, body: makeBot({ id: 'n1', ...JSON.parse(String(init.body)) }) });
function routes(bots: Bot[] = [], extra: Record<string, unknown> = {}) {
  return mockFetch({ ...baseRoutes(), 'GET /api/bots/u-1': () => bots, ...exchangeRoutes, 'POST /api/bots': (_u: URL, init: RequestInit) => created(init), ...extra });
}
const posted = (fetch: jest.Mock) => JSON.parse(String(fetch.mock.calls.find(([u, i]) => String(u) === '/api/bots' && i?.method === 'POST')![1]!.body));

async function openCreate(tab: 'Spot' | 'Futures' = 'Spot') {
  renderApp('/bots', { user: USER });
  if (tab === 'Futures') await userEvent.click(await screen.findByRole('tab', { name: /Futures bots/ }));
  await userEvent.click(await screen.findByRole('button', { name: 'Create bot' }));
  return within(screen.getByRole('dialog', { name: 'Create new bot' }));
}

describe('a disabled Save says why (issue 40, point 7)', () => {
  it('an empty form: Save is disabled and says every field still to fill in, tied to the button', async () => {
    routes();
    const f = await openCreate();
    const save = f.getByRole('button', { name: 'Save' });
    expect(save).toBeDisabled();
    expect(save).toHaveAccessibleDescription(/Save is disabled: Fill in: Exchange, Pair, Entry Price, Grid size, Order size, Price interval, Take profit/);
  });

  it('as fields are filled the reasons shrink to what is left, a wrong field with its message; then Save is enabled and the reasons go', async () => {
    routes();
    const f = await openCreate();
    await pickMarket(f, '60000');
    await typeLadder(f, { grid: '5', size: '0.000015', interval: '1000' });
    await waitFor(() => expect(f.getByTestId('save-reasons')).toHaveTextContent(/^Save is disabled:Fill in: Take profit$/));
    // (the market's checks come once every field is valid on its own)
    await userEvent.type(f.getByLabelText('Take profit'), '1');
    await waitFor(() => expect(f.getByTestId('save-reasons')).toHaveTextContent(/^Save is disabled:Order size must be a multiple of 0\.00001 \(the market's amount step\)$/));
    await userEvent.clear(f.getByLabelText('Order size'));
    await userEvent.type(f.getByLabelText('Order size'), '0.001');
    await waitFor(() => expect(f.getByRole('button', { name: 'Save' })).toBeEnabled());
    expect(f.queryByTestId('save-reasons')).toBeNull();
  });

  it('the neutral form asks no take profit: filled without one, Save is enabled and the body carries none', async () => {
    const fetch = routes();
    const f = await openCreate('Futures');
    await pickMarket(f, '100');
    await userEvent.selectOptions(f.getByLabelText('Direction'), 'neutral');
    expect(f.queryByLabelText('Take profit')).toBeNull();
    expect(f.getByRole('button', { name: 'Save' })).toHaveAccessibleDescription(/Fill in: Grid size, Order size, Price interval$/);
    await typeLadder(f, { grid: '2', size: '0.1', interval: '5' });
    await waitFor(() => expect(f.getByRole('button', { name: 'Save' })).toBeEnabled());
    await userEvent.click(f.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Bot successfully added!')).toBeInTheDocument();
    const body = posted(fetch);
    expect(body).toMatchObject({ direction: 'neutral', numOfOrders: 2, orderSize: 0.1, interval: 5 });
    expect(body).not.toHaveProperty('takeProfit');
  });

  it('Make a template on an incomplete form names the missing fields', async () => {
    routes([], { 'GET /api/bot-templates': { templates: [] } });
    const f = await openCreate();
    await userEvent.click(f.getByRole('button', { name: 'Make a template' }));
    await userEvent.type(f.getByLabelText('Template name'), 'Night');
    await userEvent.click(f.getByRole('button', { name: 'Create template' }));
    expect(await f.findByText('Fill in the form first: Fill in: Exchange, Pair, Entry Price, Grid size, Order size, Price interval, Take profit')).toBeInTheDocument();
  });
});

describe('the investment-based form (issue 40)', () => {
  async function ladder(f: ReturnType<typeof within>) {
    await pickMarket(f, '60000');
    // rungs 60000 … 56000: Σ 290000 USDT per coin of each order
    await typeLadder(f, { grid: '5', interval: '1000', takeProfit: '1' });
    await userEvent.click(f.getByLabelText('Total investment (USDT)'));
  }

  it('1000 USDT sizes 0.00344 BTC per order (read-only), shown with the market\'s minimums and the smallest investment; Save sends the investment', async () => {
    const fetch = routes();
    const f = await openCreate();
    await ladder(f);
    await userEvent.type(f.getByLabelText('Investment (USDT)'), '1000');
    await waitFor(() => expect(f.getByLabelText('Order size')).toHaveValue('0.00344'));
    expect(f.getByLabelText('Order size')).toHaveAttribute('readonly');
    expect(f.getByTestId('investment-sizing')).toHaveTextContent('0.00344 BTC per order × 5 orders: 997.60 USDT locked by the orders');
    expect(f.getByTestId('investment-minimums')).toHaveTextContent("The market's minimums: amount step 0.00001 BTC, minimum amount 0.00001 BTC, minimum order value 5 USDT. Smallest investment for this grid: 26.10 USDT");
    expect(f.getByTestId('total-cost')).toHaveTextContent('997.60 USDT');
    await userEvent.click(f.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Bot successfully added!')).toBeInTheDocument();
    const body = posted(fetch);
    expect(body).toMatchObject({ investment: 1000, numOfOrders: 5, interval: 1000, entryPrice: 60000 });
    expect(body).not.toHaveProperty('orderSize'); // the server sizes it again, from the same rules
  });

  it('an investment too small is refused with the numbers, and Save says so', async () => {
    routes();
    const f = await openCreate();
    await ladder(f);
    await userEvent.type(f.getByLabelText('Investment (USDT)'), '26.09');
    const message = "An investment of 26.09 USDT is too small for this grid: its 5 orders would be 0.00008 BTC each, and the smallest would be worth 4.48 USDT, below the market's minimum order value of 5 USDT. The smallest investment for this grid is 26.10 USDT";
    await waitFor(() => expect(f.getByRole('button', { name: 'Save' })).toBeDisabled());
    expect(within(f.getByTestId('save-reasons')).getByText(`Investment (USDT): ${message}`)).toBeInTheDocument();
    await userEvent.tab();
    expect(f.getByText(message, { selector: '.field__error' })).toBeInTheDocument();
  });

  it('an infinity grid: 500 USDT over its 5 steps down from 60,000 to 57,000 (59,400 … 57,059.40) is 100 USDT per step; Save sends the investment', async () => {
    const fetch = routes();
    const f = await openCreate();
    await pickMarket(f, '60000');
    await userEvent.selectOptions(f.getByLabelText('Style'), 'infinity');
    await userEvent.type(f.getByLabelText('Step'), '1');
    await userEvent.type(f.getByLabelText('Lower price'), '57000');
    await userEvent.click(f.getByLabelText('Total investment (USDT)'));
    expect(f.getByRole('button', { name: 'Save' })).toHaveAccessibleDescription('Save is disabled: Fill in: Investment (USDT)');
    await userEvent.type(f.getByLabelText('Investment (USDT)'), '500');
    await waitFor(() => expect(f.getByLabelText('Value per step (USDT)')).toHaveValue('100'));
    expect(f.getByTestId('investment-sizing')).toHaveTextContent('100.00 USDT per step × 5 steps down to the lower price: 500.00 USDT');
    await userEvent.click(f.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Bot successfully added!')).toBeInTheDocument();
    const body = posted(fetch);
    expect(body).toMatchObject({ style: 'infinity', investment: 500, stepPercent: 1, lowerPrice: 57000 });
    expect(body).not.toHaveProperty('quoteValue');
  });

  it('an edit of a bot set by its investment opens on it', async () => {
    routes([makeBot({ id: 'e1', entryprice: 60000, numoforders: 5, ordersize: 0.00344, interval: 1000, takeprofit: 1, investment: 1000 })]);
    renderApp('/bots', { user: USER });
    await userEvent.click(await screen.findByRole('button', { name: /^Edit / }));
    const f = within(screen.getByRole('dialog', { name: 'Edit bot' }));
    expect(f.getByLabelText('Total investment (USDT)')).toBeChecked();
    expect(f.getByLabelText('Investment (USDT)')).toHaveValue('1000');
    await waitFor(() => expect(f.getByLabelText('Order size')).toHaveValue('0.00344'));
  });
});
