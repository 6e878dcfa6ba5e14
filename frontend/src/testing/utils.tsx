import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Provider } from 'react-redux';
import { MemoryRouter, useLocation } from 'react-router-dom';
import type { ReactNode } from 'react';
import { AppRoutes, Session } from '../App';
import type { Bot, User } from '../api/types';
import { makeStore } from '../store/store';

export const USER: User = { uid: 'u-1', displayName: 'Ada Lovelace', email: 'ada@example.com', emailVerified: true, photoURL: null };

export interface MockResponse {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
}
export type Handler = (url: URL, init: RequestInit) => MockResponse | unknown;

/**
 * Installs a fetch that answers from `routes` ("METHOD /path" → handler or value); everything
 * else is 404. Returns the jest mock so tests can inspect calls.
 */
export function mockFetch(routes: Record<string, Handler | unknown>) {
  const fn = jest.fn(async (input: string, init: RequestInit = {}) => {
    const url = new URL(input, 'http://localhost');
    const key = `${(init.method ?? 'GET').toUpperCase()} ${url.pathname}`;
    let entry = routes[key];
    if (entry === undefined) {
      const match = Object.keys(routes).find((k) => k.endsWith('*') && key.startsWith(k.slice(0, -1)));
      entry = match ? routes[match] : undefined;
    }
    let res: MockResponse;
    if (entry === undefined) res = { status: 404, body: { statusCode: 404, message: 'Not Found' } };
    else {
      const out = typeof entry === 'function' ? (entry as Handler)(url, init) : entry;
      res = out && typeof out === 'object' && ('status' in (out as object) || 'body' in (out as object)) ? (out as MockResponse) : { status: 200, body: out };
    }
    const status = res.status ?? 200;
    const text = res.body === undefined || status === 204 ? '' : JSON.stringify(res.body);
    const headers = res.headers ?? {};
    return {
      ok: status >= 200 && status < 300,
      status,
      statusText: String(status),
      headers: { get: (name: string) => headers[name] ?? headers[name.toLowerCase()] ?? null },
      text: async () => text,
      json: async () => (text ? JSON.parse(text) : null),
    } as unknown as Response;
  });
  (global as unknown as { fetch: unknown }).fetch = fn;
  return fn;
}

export function LocationProbe() {
  const loc = useLocation();
  return <div data-testid="location">{loc.pathname}</div>;
}

export function renderApp(route: string, opts: { user?: User | null; extra?: ReactNode } = {}) {
  window.localStorage.setItem('user', JSON.stringify(opts.user ?? null));
  document.cookie = 'csrf_token=test-csrf';
  const store = makeStore();
  const utils = render(
    <Provider store={store}>
      <MemoryRouter initialEntries={[route]} useTransitions={false}>
        <Session />
        <AppRoutes />
        <LocationProbe />
        {opts.extra}
      </MemoryRouter>
    </Provider>,
  );
  return { store, ...utils };
}

let nextId = 1;
export function makeBot(over: Partial<Bot> = {}): Bot {
  const id = over.id ?? `bot-${nextId++}`;
  return {
    id,
    bottype: 'Spot',
    userid: USER.uid,
    exchange: 'Binance',
    symbol: 'BTCUSDT',
    numoforders: 5,
    ordersize: 0.01,
    interval: 100,
    entryprice: 60000,
    takeprofit: 1,
    botstatus: false,
    pid: -1,
    profit: 0,
    state: 'stopped',
    lasterror: null,
    ...over,
  };
}

export const CONFIG = {
  contactEmail: 'hello@gridrocket.test',
  social: { twitter: 'https://x.test/gr', telegram: 'https://t.test/gr', github: 'https://github.test/gr' },
  exchangeSignup: { binance: 'https://binance.test/ref', kucoin: 'https://kucoin.test/ref' },
  providers: { google: true, facebook: false },
};

/** Routes every signed-in screen needs. */
export function baseRoutes(user: User | null = USER): Record<string, unknown> {
  return {
    'GET /api/config': CONFIG,
    'GET /api/auth/me': user ? user : { status: 401, body: { statusCode: 401, message: 'Unauthorized' } },
    'GET /api/tokens': { tokens: [] },
  };
}

/** Binance spot's rules as the bot-form suites mock `GET /api/market-rules` (a cent's price step, 5 USDT minimum). */
export const SPOT_RULES = { priceStep: 0.01, amountStep: 0.00001, minNotional: 5, minAmount: 0.00001, makerFee: 0.001, takerFee: 0.001 };

/** The spot market a bot-form suite trades: `balance` USDT free, the price `price`, SPOT_RULES. */
export function spotMarketRoutes(price: number, balance = 100000): Record<string, unknown> {
  return {
    'GET /api/balanceSpot': [{ symbol: 'USDT', exchange: 'Binance', balance, available: balance }],
    'GET /api/priceSpot': price,
    'GET /api/market-rules': SPOT_RULES,
  };
}

/** Both markets a bot-form suite may open: spotMarketRoutes, and the futures balance, a price of 100 and 10x on BTCUSDT. */
export function formMarketRoutes({ spotPrice, spotBalance, futuresBalance }: { spotPrice: number; spotBalance: number; futuresBalance: number }): Record<string, unknown> {
  return {
    ...spotMarketRoutes(spotPrice, spotBalance),
    'GET /api/balanceFutures': [{ symbol: 'USDT', exchange: 'Binance', balance: futuresBalance, available: futuresBalance }],
    'GET /api/priceFutures': 100,
    'GET /api/futuresPositionRisk': [{ symbol: 'BTCUSDT', leverage: 10 }],
  };
}

/** In the create form `f`: picks the exchange and pair, and waits for the entry price the form fills in (`entry`). */
export async function pickMarket(f: ReturnType<typeof within>, entry: string, { exchange = 'Binance', symbol = 'BTCUSDT', leverage }: { exchange?: string; symbol?: string; leverage?: string } = {}) {
  await userEvent.selectOptions(f.getByLabelText('Exchange'), exchange);
  await userEvent.selectOptions(f.getByLabelText('Pair'), symbol);
  if (leverage !== undefined) await waitFor(() => expect(f.getByTestId('leverage')).toHaveTextContent(leverage));
  await waitFor(() => expect(f.getByLabelText('Entry Price')).toHaveValue(entry));
}

/** On the bots page: clicks the tab named `tab` first (e.g. /Futures bots/) where given, opens "Create bot" and returns its form. */
export async function openCreateForm(tab?: RegExp) {
  if (tab) await userEvent.click(await screen.findByRole('tab', { name: tab }));
  await userEvent.click(await screen.findByRole('button', { name: 'Create bot' }));
  return within(screen.getByRole('dialog', { name: 'Create new bot' }));
}

/** In the create form `f`: types the ladder's fields that are given (grid size, order size, price interval, take profit), in that order. */
export async function typeLadder(f: ReturnType<typeof within>, ladder: { grid?: string; size?: string; interval?: string; takeProfit?: string }) {
  const fields = [['Grid size', ladder.grid], ['Order size', ladder.size], ['Price interval', ladder.interval], ['Take profit', ladder.takeProfit]] as const;
  for (const [label, text] of fields) if (text !== undefined) await userEvent.type(f.getByLabelText(label), text);
}

/** The text of each element named in `ids` (a name → its test id), by name: what a screen shows, to compare with another's. */
export function textsOf<K extends string>(ids: Record<K, string>): Record<K, string | null> {
  return Object.fromEntries(Object.entries<string>(ids).map(([name, id]) => [name, screen.getByTestId(id).textContent])) as Record<K, string | null>;
}
