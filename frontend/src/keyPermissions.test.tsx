/** Issue 30, keys that cannot withdraw: the refusal under the add form, the warnings in the key list. */
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { socketModuleMock } from './testing/fakeSocket';
import { baseRoutes, mockFetch, renderApp, USER } from './testing/utils';

jest.mock('./api/socket', () => socketModuleMock());

afterEach(() => window.localStorage.clear());

const WITHDRAW =
  'This Binance API key can withdraw funds; GridRocket accepts only keys that cannot. On Binance, open Account → API Management, edit the key (or create a new one) and tick only "Enable Reading" and "Enable Spot & Margin Trading" (plus "Enable Futures" for futures bots); leave "Enable Withdrawals" unticked. Then add the key here again.';
const OPEN = 'Not restricted to IP addresses: whoever obtains this key can use it from anywhere. On Binance, edit the key, choose "Restrict access to trusted IPs only" and add: 203.0.113.7.';

describe('API keys that cannot withdraw (issue 30)', () => {
  it('shows the refusal of a withdraw-capable key under the form, which stays open', async () => {
    mockFetch({
      ...baseRoutes(),
      'GET /api/api-credentials/u-1': [],
      'POST /api/api-credentials': { status: 400, body: { statusCode: 400, message: WITHDRAW, errors: [{ field: 'apiKey', message: WITHDRAW }] } },
    });
    renderApp('/security', { user: USER });
    await userEvent.click(await screen.findByRole('button', { name: 'Add API Keys' }));
    const f = screen.getByRole('form', { name: 'Add api keys' });
    expect(within(f).queryByTestId('key-add-refusal')).not.toBeInTheDocument();
    await userEvent.selectOptions(within(f).getByLabelText('Exchange'), 'Binance');
    await userEvent.type(within(f).getByLabelText('API Key'), 'abcde');
    await userEvent.type(within(f).getByLabelText('Secret Key'), 'abcdefghijkl');
    await userEvent.click(within(f).getByRole('button', { name: 'Save' }));
    const refusal = await within(f).findByTestId('key-add-refusal');
    expect(refusal).toHaveTextContent(WITHDRAW);
    expect(refusal).toHaveAttribute('role', 'alert');
    expect(screen.getByRole('dialog', { name: 'Add api keys' })).toBeInTheDocument();
  });

  it('shows a key\'s warning in the key list, under that key only', async () => {
    mockFetch({
      ...baseRoutes(),
      'GET /api/api-credentials/u-1': [
        { id: 'c1', exchange: 'Binance', apikeyid: 'pub-open', warnings: [{ code: 'no-ip-restriction', message: OPEN }] },
        { id: 'c2', exchange: 'Kucoin', apikeyid: 'pub-fine' },
      ],
    });
    renderApp('/security', { user: USER });
    const note = await screen.findByRole('note', { name: 'Binance API key pub-open: warning' });
    expect(note).toHaveTextContent(OPEN);
    expect(screen.getAllByRole('note')).toHaveLength(1);
    expect(screen.getByText('pub-fine')).toBeInTheDocument();
  });
});
