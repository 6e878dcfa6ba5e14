/**
 * The venue stand-ins refuse a reduce-only order that would open or grow a position (issue 32), each in
 * its venue's words: Binance USDⓈ-M POST /fapi/v1/order `reduceOnly` → -2022 "ReduceOnly Order is rejected."
 * (https://developers.binance.com/docs/derivatives/usds-margined-futures/error-code#-2022-reduce_only_reject);
 * Kucoin futures POST /api/v1/orders `reduceOnly`: "only the orders reducing the position size will be executed"
 * (https://www.kucoin.com/docs/rest/futures-trading/orders/place-order), no answer code documented: 400100.
 * The raw HTTP answers, as a venue gives them (the port's view is in exchange-port.contract.ts).
 */
import { CONTRACT_T0 } from '../../exchange-port.contract';
import { PaperVenue } from '../../paper.exchange';
import { STUB_KEY } from '../ccxt.fixtures';
import type { VenueStandIn } from './venue-standin';
import { closeContractStandIn, contractStandIn } from './contract-standin';

describe('venue stand-ins: reduce-only that would not reduce', () => {
  let venue: PaperVenue;
  let standIn: VenueStandIn;
  afterEach(() => closeContractStandIn({ venue, standIn }));
  const open = async (exchange: 'Binance' | 'Kucoin') => {
    ({ venue, standIn } = await contractStandIn(exchange, 'futures'));
  };

  it('Binance futures answers -2022 to a reduce-only buy with nothing to reduce, and to a reduce-only sell that would grow a short; the closing buy is taken', async () => {
    await open('Binance');
    const post = async (q: Record<string, string>) => {
      const res = await fetch(`${standIn.origin}/fapi/v1/order?${new URLSearchParams({ symbol: 'BTCUSDT', type: 'LIMIT', timeInForce: 'GTC', timestamp: String(CONTRACT_T0), ...q })}`, { method: 'POST', headers: { 'X-MBX-APIKEY': STUB_KEY.apiKey } });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    };
    expect(await post({ side: 'BUY', quantity: '0.001', price: '94000', newClientOrderId: 'ro-0', reduceOnly: 'true' })).toEqual({ status: 400, body: { code: -2022, msg: 'ReduceOnly Order is rejected.' } });
    expect((await post({ side: 'SELL', type: 'MARKET', quantity: '0.002', newClientOrderId: 'short-1' })).status).toBe(200);
    expect(await post({ side: 'SELL', quantity: '0.001', price: '96000', newClientOrderId: 'ro-1', reduceOnly: 'true' })).toEqual({ status: 400, body: { code: -2022, msg: 'ReduceOnly Order is rejected.' } });
    const tp = await post({ side: 'BUY', quantity: '0.002', price: '94000', newClientOrderId: 'ro-tp', reduceOnly: 'true' });
    expect(tp).toMatchObject({ status: 200, body: { clientOrderId: 'ro-tp', side: 'BUY', reduceOnly: true, status: 'NEW' } });
  });

  it('Kucoin futures refuses a reduce-only buy with nothing to reduce (400100) and takes the one that closes a short', async () => {
    await open('Kucoin');
    const post = async (b: Record<string, unknown>) => {
      const res = await fetch(`${standIn.origin}/api/v1/orders`, { method: 'POST', headers: { 'KC-API-KEY': STUB_KEY.apiKey, 'Content-Type': 'application/json' }, body: JSON.stringify({ symbol: 'XBTUSDTM', leverage: 5, marginMode: 'ISOLATED', ...b }) });
      return (await res.json()) as { code: string; data?: unknown; msg?: string };
    };
    expect(await post({ clientOid: 'ro-0', side: 'buy', type: 'limit', price: '94000', size: 1, reduceOnly: true })).toMatchObject({ code: '400100' });
    expect(await post({ clientOid: 'short-1', side: 'sell', type: 'market', size: 2 })).toMatchObject({ code: '200000' });
    expect(await post({ clientOid: 'ro-1', side: 'sell', type: 'limit', price: '96000', size: 1, reduceOnly: true })).toMatchObject({ code: '400100' });
    expect(await post({ clientOid: 'ro-tp', side: 'buy', type: 'limit', price: '94000', size: 2, reduceOnly: true })).toMatchObject({ code: '200000', data: { clientOid: 'ro-tp' } });
  });
});
