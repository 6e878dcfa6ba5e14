/**
 * Issue 39, "Any pair the venue lists", on the Binance spot stand-in: its exchangeInfo serves each market's
 * filters as Binance documents them (https://developers.binance.com/docs/binance-spot-api-docs/filters:
 * LOT_SIZE maxQty, NOTIONAL maxNotional, MAX_NUM_ORDERS maxNumOrders, PERCENT_PRICE_BY_SIDE) with the
 * values of the venue's own answer (venues/markets.ts BS-SNAP), lists a pair beyond the paper catalogue
 * (ADAUSDT: paper.constants.ts VENUE_ONLY_SYMBOLS) on which orders match, and refuses an amount above
 * LOT_SIZE maxQty as Binance does: -1013 "Filter failure: LOT_SIZE". The ccxt adapter reads those
 * maximums into MarketRules and reloads the markets once they are older than its maximum age.
 */
import { CcxtExchange } from '../../ccxt.exchange';
import { PaperVenue } from '../../paper.exchange';
import { CsvReplayFeed } from '../../paper-price-feed';
import { STANDIN_SYMBOLS } from '../../paper.constants';
import { STUB_KEY } from '../ccxt.fixtures';
import { startVenueStandIn, type VenueStandIn } from './venue-standin';

const T0 = 1_700_000_000_000;
const CSV = ['ms,exchange,symbol,price', `${T0},Binance,BTCUSDT,95000`, `${T0},Binance,ADAUSDT,0.3500`, `${T0 + 1000},Binance,ADAUSDT,0.3390`].join('\n');

describe('the Binance spot stand-in: any pair it lists, and its maximums (issue 39)', () => {
  let venue: PaperVenue;
  let standIn: VenueStandIn;
  const port = (marketsMaxAgeMs?: number) =>
    new CcxtExchange({ exchange: 'Binance', market: 'spot', mode: 'live', credential: STUB_KEY, apiOrigin: standIn.origin, timeoutMs: 2000, enableRateLimit: false, retry: { attempts: 1 }, marketsMaxAgeMs });
  beforeAll(async () => {
    venue = new PaperVenue({ store: ':memory:', feed: new CsvReplayFeed(CSV, STANDIN_SYMBOLS), symbols: STANDIN_SYMBOLS });
    venue.advanceTo(T0);
    standIn = await startVenueStandIn(venue, 'Binance', 'spot', [{ ...STUB_KEY, userId: 'u1' }], { now: () => venue.nowMs() });
  });
  afterAll(async () => {
    await standIn.close();
    venue.close();
  });

  it('exchangeInfo lists ADAUSDT (not in the paper catalogue) with its filters, BTCUSDT with LOT_SIZE maxQty 9000', async () => {
    const info = (await (await fetch(`${standIn.origin}/api/v3/exchangeInfo`)).json()) as { symbols: Array<{ symbol: string; filters: Array<Record<string, unknown>> }> };
    const ada = info.symbols.find((s) => s.symbol === 'ADAUSDT');
    expect(ada?.filters).toEqual(
      expect.arrayContaining([
        { filterType: 'LOT_SIZE', minQty: '0.1', maxQty: '900000', stepSize: '0.1' },
        expect.objectContaining({ filterType: 'NOTIONAL', minNotional: '5', maxNotional: '9000000' }),
        { filterType: 'MAX_NUM_ORDERS', maxNumOrders: 200 },
        { filterType: 'PERCENT_PRICE_BY_SIDE', bidMultiplierUp: '5', bidMultiplierDown: '0.2', askMultiplierUp: '5', askMultiplierDown: '0.2', avgPriceMins: 5 },
      ]),
    );
    expect(info.symbols.find((s) => s.symbol === 'BTCUSDT')?.filters).toContainEqual(expect.objectContaining({ filterType: 'LOT_SIZE', maxQty: '9000' }));
  });

  it('the ccxt adapter reports the maximums with their names, for a pair beyond the catalogue too', async () => {
    const p = port();
    expect(await p.marketRules('ADAUSDT')).toMatchObject({ priceStep: 0.0001, amountStep: 0.1, minNotional: 5, maxAmount: 900000, maxNotional: 9000000, maxNumOrders: 200, percentPrice: { bidUp: 5, bidDown: 0.2 }, ruleNames: { maxAmount: 'LOT_SIZE maxQty' } });
    expect(await p.marketRules('BTCUSDT')).toMatchObject({ maxAmount: 9000 });
  });

  it('an amount above LOT_SIZE maxQty is refused as Binance refuses it: 400, -1013 "Filter failure: LOT_SIZE"', async () => {
    const post = async (q: Record<string, string>) => {
      const res = await fetch(`${standIn.origin}/api/v3/order?${new URLSearchParams({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: '500', timestamp: String(T0), ...q })}`, { method: 'POST', headers: { 'X-MBX-APIKEY': STUB_KEY.apiKey } });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    };
    expect(await post({ quantity: '9000.00001', newClientOrderId: 'lot-1' })).toEqual({ status: 400, body: { code: -1013, msg: 'Filter failure: LOT_SIZE' } });
    expect((await post({ quantity: '1', newClientOrderId: 'lot-2' })).status).toBe(200);
  });

  it('an ADAUSDT buy placed through the adapter rests and fills when the price comes down to it', async () => {
    const p = port();
    const order = await p.createLimitOrder({ symbol: 'ADAUSDT', side: 'buy', price: 0.34, amount: 100, clientOrderId: 'ada-1' });
    expect(order).toMatchObject({ symbol: 'ADAUSDT', status: 'open', amount: 100, price: 0.34 });
    venue.advanceTo(T0 + 1000);
    expect(await p.orderByClientId('ADAUSDT', 'ada-1')).toMatchObject({ status: 'filled', filled: 100 });
  });

  it('markets older than the maximum age are loaded again (the venue lists and changes pairs; a day by default)', async () => {
    const reads = () => standIn.stub.calls('GET', '/api/v3/exchangeInfo').length;
    const daily = port();
    await daily.marketRules('BTCUSDT');
    const before = reads();
    await daily.marketRules('BTCUSDT');
    expect(reads()).toBe(before); // fresh: not asked again
    const stale = port(0);
    await stale.marketRules('BTCUSDT');
    const loaded = reads();
    await stale.marketRules('ADAUSDT');
    expect(reads()).toBe(loaded + 1);
  });
});
