/**
 * Issue 40: leverage and margin mode per futures bot. The venue stand-ins serve the endpoints ccxt calls as
 * the venues document them and refuse what the venues refuse (docs/exchanges.md "Leverage and margin mode"):
 *  - Binance USDⓈ-M POST /fapi/v1/marginType (ISOLATED, CROSSED): -4046 "No need to change margin type.",
 *    -4047 with open orders, -4048 with a position; POST /fapi/v1/leverage ("int from 1 to 125"): -4028
 *    "Leverage %s is not valid" above the bracket's initialLeverage (BTCUSDT: 125 up to 50,000 notional, 100
 *    to 250,000: GET /fapi/v1/leverageBracket), -4161 a lower leverage of an isolated position
 *    (https://developers.binance.com/docs/derivatives/usds-margined-futures/error-code);
 *  - Kucoin futures POST /api/v2/position/changeMarginMode (ccxt setMarginMode), leverage on each order and
 *    POST /api/v2/changeCrossUserLeverage: 300016 "The leverage cannot be greater than xxx." (kucoin-futures-api-docs
 *    `_errors.md`); a mode change with a position: refused (no code documented: 400100).
 * Then the port (ccxt adapter) on the same stand-ins: a refusal reaches the caller with the venue's words.
 */
import { CONTRACT_T0 } from '../../exchange-port.contract';
import { CcxtExchange } from '../../ccxt.exchange';
import { FuturesSettingRefusedError } from '../../exchange.errors';
import { PaperVenue } from '../../paper.exchange';
import { STUB_KEY } from '../ccxt.fixtures';
import type { VenueStandIn } from './venue-standin';
import { closeContractStandIn, contractStandIn } from './contract-standin';

describe('venue stand-ins: leverage and margin mode of a futures symbol', () => {
  let venue: PaperVenue;
  let standIn: VenueStandIn;
  afterEach(() => closeContractStandIn({ venue, standIn }));
  const open = async (exchange: 'Binance' | 'Kucoin') => {
    ({ venue, standIn } = await contractStandIn(exchange, 'futures', { startingUsdt: '100000' }));
  };
  const port = (exchange: 'Binance' | 'Kucoin') =>
    new CcxtExchange({ exchange, market: 'futures', mode: 'live', credential: STUB_KEY, apiOrigin: standIn.origin, timeoutMs: 5000, retry: { attempts: 1, baseDelayMs: 5 }, clock: () => venue.nowMs() });

  it('Binance: marginType -4046 when unchanged, -4047 with an open order, -4048 with a position; leverage -4028 above the bracket, -4161 lower on an isolated position', async () => {
    await open('Binance');
    const post = async (path: string, q: Record<string, string>) => {
      const res = await fetch(`${standIn.origin}${path}?${new URLSearchParams({ symbol: 'BTCUSDT', timestamp: String(CONTRACT_T0), ...q })}`, { method: 'POST', headers: { 'X-MBX-APIKEY': STUB_KEY.apiKey } });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    };
    // a new account's symbol is CROSSED (Binance's default): asking for it again changes nothing
    expect(await post('/fapi/v1/marginType', { marginType: 'CROSSED' })).toEqual({ status: 400, body: { code: -4046, msg: 'No need to change margin type.' } });
    expect(await post('/fapi/v1/marginType', { marginType: 'ISOLATED' })).toEqual({ status: 200, body: { code: 200, msg: 'success' } });
    expect(await post('/fapi/v1/leverage', { leverage: '126' })).toEqual({ status: 400, body: { code: -4028, msg: 'Leverage 126 is not valid' } });
    expect(await post('/fapi/v1/leverage', { leverage: '125' })).toEqual({ status: 200, body: { leverage: 125, maxNotionalValue: '80000000', symbol: 'BTCUSDT' } });
    // an open order: the type cannot change
    expect((await post('/fapi/v1/order', { side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.01', price: '90000', newClientOrderId: 'rest-1' })).status).toBe(200);
    expect(await post('/fapi/v1/marginType', { marginType: 'CROSSED' })).toEqual({ status: 400, body: { code: -4047, msg: 'Margin type cannot be changed if there exists open orders.' } });
    await fetch(`${standIn.origin}/fapi/v1/order?${new URLSearchParams({ symbol: 'BTCUSDT', origClientOrderId: 'rest-1', timestamp: String(CONTRACT_T0) })}`, { method: 'DELETE', headers: { 'X-MBX-APIKEY': STUB_KEY.apiKey } });
    // a position of 0.6 BTC at ~95,000 (57,000 notional: bracket 2, initialLeverage 100)
    expect((await post('/fapi/v1/leverage', { leverage: '100' })).status).toBe(200);
    expect((await post('/fapi/v1/order', { side: 'BUY', type: 'MARKET', quantity: '0.6', newClientOrderId: 'pos-1' })).status).toBe(200);
    expect(await post('/fapi/v1/marginType', { marginType: 'CROSSED' })).toEqual({ status: 400, body: { code: -4048, msg: 'Margin type cannot be changed if there exists position.' } });
    expect(await post('/fapi/v1/leverage', { leverage: '101' })).toEqual({ status: 400, body: { code: -4028, msg: 'Leverage 101 is not valid' } });
    expect(await post('/fapi/v1/leverage', { leverage: '50' })).toEqual({ status: 400, body: { code: -4161, msg: 'Leverage reduction is not supported in Isolated Margin Mode with open positions' } });
    expect(((await (await fetch(`${standIn.origin}/fapi/v1/symbolConfig?timestamp=${CONTRACT_T0}`, { headers: { 'X-MBX-APIKEY': STUB_KEY.apiKey } })).json()) as Array<{ symbol: string; marginType: string; leverage: number }>).find((r) => r.symbol === 'BTCUSDT')).toMatchObject({ marginType: 'ISOLATED', leverage: 100 });

    // the port: isolated again is fine (-4046 is not an error to ccxt), cross is refused in the venue's words
    const p = port('Binance');
    await expect(p.setLeverage('BTCUSDT', 100, 'isolated')).resolves.toBeUndefined();
    const refused = await p.setLeverage('BTCUSDT', 100, 'cross').catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(FuturesSettingRefusedError);
    expect((refused as FuturesSettingRefusedError).reason).toBe('Margin type cannot be changed if there exists position (-4048)');
    expect((await p.setLeverage('BTCUSDT', 10, 'isolated').catch((e: Error & { reason?: string }) => e.reason))).toBe('Leverage reduction is not supported in Isolated Margin Mode with open positions (-4161)');
  });

  it('Kucoin: an order above the contract\'s leverage is 300016, a margin mode change with a position is refused, cross leverage only in cross mode', async () => {
    await open('Kucoin');
    const post = async (path: string, b: Record<string, unknown>) => {
      const res = await fetch(`${standIn.origin}${path}`, { method: 'POST', headers: { 'KC-API-KEY': STUB_KEY.apiKey, 'Content-Type': 'application/json' }, body: JSON.stringify(b) });
      return (await res.json()) as { code: string; data?: unknown; msg?: string };
    };
    const order = { symbol: 'XBTUSDTM', side: 'buy', type: 'market', size: 2, marginMode: 'ISOLATED' };
    expect(await post('/api/v1/orders', { ...order, clientOid: 'lev-126', leverage: 126 })).toEqual({ code: '300016', msg: 'The leverage cannot be greater than 125.' });
    expect(await post('/api/v2/changeCrossUserLeverage', { symbol: 'XBTUSDTM', leverage: 10 })).toMatchObject({ code: '400100' });
    expect(await post('/api/v2/position/changeMarginMode', { symbol: 'XBTUSDTM', marginMode: 'ISOLATED' })).toMatchObject({ code: '200000' });
    expect(await post('/api/v1/orders', { ...order, clientOid: 'pos-1', leverage: 5 })).toMatchObject({ code: '200000' });
    expect(await post('/api/v2/position/changeMarginMode', { symbol: 'XBTUSDTM', marginMode: 'CROSS' })).toEqual({ code: '400100', msg: 'Parameter Error: marginMode cannot be changed with a position' });

    const p = port('Kucoin');
    await expect(p.setLeverage('BTCUSDT', 5, 'isolated')).resolves.toBeUndefined();
    await expect(p.setLeverage('BTCUSDT', 5, 'cross')).rejects.toBeInstanceOf(Error);
  });
});
