// Over 400 lines: the paper exchange port end to end (orders, fills, fees, futures, restart, replay, feeds).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  DuplicateOrderError,
  InsufficientFundsError,
  InvalidOrderError,
  OrderNotFoundError,
  UnknownSymbolError,
} from './exchange.errors';
import type { ExchangePort, OrderUpdate, PriceTick } from './exchange.port';
import { PaperExchangeProvider, PaperFeedDriver, PaperVenue, type PaperExchange } from './paper.exchange';
import { CsvReplayFeed, RandomWalkFeed } from './paper-price-feed';
import { PAPER_DEFAULT_LEVERAGE, PAPER_SYMBOLS } from './paper.constants';

const dirs: string[] = [];
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'paper-exchange-'));
  dirs.push(d);
  return d;
}
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

const T0 = 1_700_000_000_000;
/** Rows `ms,exchange,symbol,price` for BTCUSDT on both exchanges plus an ETH line. */
function csv(prices: Array<[number, string]>, extra: string[] = []): string {
  const lines = ['ms,exchange,symbol,price'];
  for (const [dt, p] of prices) {
    lines.push(`${T0 + dt},Binance,BTCUSDT,${p}`);
    lines.push(`${T0 + dt},Kucoin,BTCUSDT,${p}`);
  }
  return [...lines, ...extra].join('\n') + '\n';
}

function open(dir: string, text: string): PaperVenue {
  return new PaperVenue({ store: join(dir, 'paper-exchange.sqlite'), feed: new CsvReplayFeed(text) });
}

async function port(venue: PaperVenue, market: 'spot' | 'futures' = 'spot', userId = 'u1', exchange: 'Binance' | 'Kucoin' = 'Binance') {
  return (await new PaperExchangeProvider(venue).for({ userId, exchange, market })) as PaperExchange;
}

const usdt = async (p: ExchangePort, market?: 'spot' | 'futures') => (await p.balances(market)).find((b) => b.symbol === 'USDT')!;

describe('paper exchange: the exchange port', () => {
  const PATH = csv([
    [0, '95000'],
    [1000, '94500'],
    [2000, '93999.99'],
    [3000, '94800'],
    [4000, '95000'],
    [5000, '96000.5'],
  ]);

  it('starts every user with 10,000 USDT on each exchange and market', async () => {
    const venue = open(tempDir(), PATH);
    for (const exchange of ['Binance', 'Kucoin'] as const) {
      for (const market of ['spot', 'futures'] as const) {
        const p = await port(venue, market, 'alice', exchange);
        expect(await p.balances()).toEqual([{ symbol: 'USDT', exchange, balance: 10000, available: 10000 }]);
      }
    }
    venue.close();
  });

  it('gives prices from the feed and market rules per symbol', async () => {
    const venue = open(tempDir(), PATH);
    const p = await port(venue);
    expect(await p.price('BTCUSDT')).toBe(95000); // the first row before the replay starts
    venue.advanceTo(T0 + 2000);
    expect(await p.price('BTCUSDT')).toBe(93999.99);
    expect(await p.price('XRPUSDT')).toBe(2.2); // not in the CSV: the catalogue's start price
    expect(await p.marketRules('BTCUSDT')).toMatchObject({ priceStep: 0.01, amountStep: 0.00001, minNotional: 5, minAmount: 0.00001, makerFee: 0.001, takerFee: 0.001 });
    // issue 39: the maximums its market's row states (venues/markets.ts BS-SNAP), named as the venue names them
    expect(await p.marketRules('BTCUSDT')).toMatchObject({ maxAmount: 9000, maxNotional: 9000000, ruleNames: { maxAmount: 'LOT_SIZE maxQty' } });
    expect(await p.marketRules('BTCUSDT')).not.toHaveProperty('percentPrice'); // not enforced by the paper venue: not reported
    expect(await p.marketRules('XRPUSDT')).not.toHaveProperty('maxAmount'); // none recorded: none invented
    // issue 39: the paper exchange keeps its catalogue: a pair only the venues list is not one of its markets
    await expect(p.marketRules('ADAUSDT')).rejects.toBeInstanceOf(UnknownSymbolError);
    await expect(p.price('NOPEUSDT')).rejects.toBeInstanceOf(UnknownSymbolError);
    venue.close();
  });

  it('creates, lists, finds and cancels orders by client order id, releasing the held funds', async () => {
    const venue = open(tempDir(), PATH);
    const p = await port(venue);
    const order = await p.createLimitOrder({ symbol: 'BTCUSDT', side: 'buy', price: 90000, amount: 0.01, clientOrderId: 'bot1-c0-l0-buy' });
    expect(order).toMatchObject({ clientOrderId: 'bot1-c0-l0-buy', symbol: 'BTCUSDT', side: 'buy', price: 90000, amount: 0.01, filled: 0, status: 'open' });
    // 900 held: on Binance spot the buy's fee is taken from the BTC received, not from USDT
    expect(await usdt(p)).toMatchObject({ balance: 10000, available: 9100 });
    expect((await p.openOrders('BTCUSDT')).map((o) => o.clientOrderId)).toEqual(['bot1-c0-l0-buy']);
    expect(await p.orderByClientId('BTCUSDT', 'bot1-c0-l0-buy')).toMatchObject({ status: 'open', exchangeOrderId: order.exchangeOrderId });
    expect(await p.orderByClientId('BTCUSDT', 'nope')).toBeNull();
    await expect(
      p.createLimitOrder({ symbol: 'BTCUSDT', side: 'buy', price: 89000, amount: 0.01, clientOrderId: 'bot1-c0-l0-buy' }),
    ).rejects.toBeInstanceOf(DuplicateOrderError);

    const cancelled = await p.cancelOrder('BTCUSDT', 'bot1-c0-l0-buy');
    expect(cancelled.status).toBe('cancelled');
    expect(await usdt(p)).toMatchObject({ balance: 10000, available: 10000 });
    expect(await p.openOrders('BTCUSDT')).toEqual([]);
    expect((await p.cancelOrder('BTCUSDT', 'bot1-c0-l0-buy')).status).toBe('cancelled'); // idempotent
    expect(await p.orderByClientId('BTCUSDT', 'bot1-c0-l0-buy')).toMatchObject({ status: 'cancelled' });
    await expect(p.cancelOrder('BTCUSDT', 'never-placed')).rejects.toBeInstanceOf(OrderNotFoundError);
    venue.close();
  });

  it('fills a buy when the price reaches its limit and a sell when it rises to its limit, at the limit price, with 0.1 % fees (the buy\'s in BTC)', async () => {
    const venue = open(tempDir(), PATH);
    const p = await port(venue);
    venue.advanceTo(T0);
    await p.createLimitOrder({ symbol: 'BTCUSDT', side: 'buy', price: 94000, amount: 0.001, clientOrderId: 'b1' });
    venue.advanceTo(T0 + 1000); // 94500: not yet
    expect((await p.orderByClientId('BTCUSDT', 'b1'))!.status).toBe('open');
    venue.advanceTo(T0 + 2000); // 93999.99: fills at 94000
    const filled = (await p.orderByClientId('BTCUSDT', 'b1'))!;
    expect(filled).toMatchObject({ status: 'filled', filled: 0.001, avgFillPrice: 94000, fee: 0.094, updatedAt: T0 + 2000 });
    // USDT 10000 − 94; BTC 0.001 − 0.000001 fee
    expect(await p.balances()).toEqual([
      { symbol: 'USDT', exchange: 'Binance', balance: 9906, available: 9906 },
      { symbol: 'BTC', exchange: 'Binance', balance: 0.000999, available: 0.000999 },
    ]);
    // selling the gross amount is an oversell, refused as Binance refuses it
    await expect(p.createLimitOrder({ symbol: 'BTCUSDT', side: 'sell', price: 96000, amount: 0.001, clientOrderId: 's0' })).rejects.toBeInstanceOf(
      InsufficientFundsError,
    );

    await p.createLimitOrder({ symbol: 'BTCUSDT', side: 'sell', price: 96000, amount: 0.00099, clientOrderId: 's1' });
    expect((await p.balances()).find((b) => b.symbol === 'BTC')).toMatchObject({ balance: 0.000999, available: 0.000009 });
    venue.advanceTo(T0 + 4000);
    expect((await p.orderByClientId('BTCUSDT', 's1'))!.status).toBe('open');
    venue.advanceTo(T0 + 5000); // 96000.5 ≥ 96000
    // + 95.04 − 0.09504
    expect(await p.balances()).toEqual([
      { symbol: 'USDT', exchange: 'Binance', balance: 10000.94496, available: 10000.94496 },
      { symbol: 'BTC', exchange: 'Binance', balance: 0.000009, available: 0.000009 },
    ]);

    const fills = await p.recentFills('BTCUSDT', 0);
    expect(fills).toEqual([
      { fillId: '1', clientOrderId: 'b1', exchangeOrderId: '1', symbol: 'BTCUSDT', side: 'buy', price: 94000, amount: 0.001, fee: 0.094, feeAsset: 'BTC', feeCost: 0.000001, timestamp: T0 + 2000 },
      { fillId: '2', clientOrderId: 's1', exchangeOrderId: '2', symbol: 'BTCUSDT', side: 'sell', price: 96000, amount: 0.00099, fee: 0.09504, feeAsset: 'USDT', feeCost: 0.09504, timestamp: T0 + 5000 },
    ]);
    expect((await p.recentFills('BTCUSDT', T0 + 3000)).map((f) => f.clientOrderId)).toEqual(['s1']);
    venue.close();
  });

  it('fills at once an order placed across the current price, at the book\'s price, as a taker (finding 8)', async () => {
    const venue = open(tempDir(), PATH);
    const p = await port(venue, 'spot', 'u1', 'Kucoin');
    venue.advanceTo(T0); // 95000
    // a buy limit 96000 while the market is at 95000 takes the offer at 95000, not at its own limit
    const o = await p.createLimitOrder({ symbol: 'BTCUSDT', side: 'buy', price: 96000, amount: 0.0001, clientOrderId: 'now' });
    expect(o).toMatchObject({ status: 'filled', filled: 0.0001, avgFillPrice: 95000, fee: 0.0095 });
    expect(await usdt(p)).toMatchObject({ balance: 10000 - 9.5 - 0.0095 });
    // futures: the taker fee (Binance 0.05 %, maker 0.02 %) on the book's price; 0.002 BTC, as the
    // perpetual's minimum order value is 100 USDT (venues/markets.ts): 0.002 × 95000 = 190, × 0.05 % = 0.095
    const f = await port(venue, 'futures', 'u2', 'Binance');
    const t = await f.createLimitOrder({ symbol: 'BTCUSDT', side: 'buy', price: 97000, amount: 0.002, clientOrderId: 'take' });
    expect(t).toMatchObject({ status: 'filled', avgFillPrice: 95000, fee: 0.095 });
    const [fill] = await f.recentFills('BTCUSDT', 0);
    expect(fill).toMatchObject({ price: 95000, fee: 0.095, feeAsset: 'USDT', feeCost: 0.095 });
    expect(await f.marketRules('BTCUSDT')).toMatchObject({ makerFee: 0.0002, takerFee: 0.0005 });
    venue.close();
  });

  it('market orders fill at the current price as takers; positions are reported in base units', async () => {
    const venue = open(tempDir(), PATH);
    venue.advanceTo(T0);
    const f = await port(venue, 'futures', 'u3', 'Kucoin');
    await f.setLeverage('BTCUSDT', 5, 'isolated');
    const o = await f.createMarketOrder({ symbol: 'BTCUSDT', side: 'buy', amount: 0.002, clientOrderId: 'mkt-1' });
    expect(o).toMatchObject({ status: 'filled', avgFillPrice: 95000, fee: 0.114 }); // 190 × 0.06 %
    expect(await f.positions('BTCUSDT')).toEqual([{ symbol: 'BTCUSDT', amount: 0.002, entryPrice: 95000, leverage: 5, marginMode: 'isolated' }]);
    expect(await f.positionMode()).toBe('oneway');
    await f.createMarketOrder({ symbol: 'BTCUSDT', side: 'sell', amount: 0.002, clientOrderId: 'mkt-2', reduceOnly: true });
    expect(await f.positions()).toEqual([]);
    // hedge mode is not simulated: an order for a position side is refused like Binance refuses it in one-way mode
    await expect(f.createMarketOrder({ symbol: 'BTCUSDT', side: 'buy', amount: 0.002, clientOrderId: 'mkt-3', positionSide: 'LONG' })).rejects.toBeInstanceOf(
      InvalidOrderError,
    );
    // Kucoin's client order id alphabet has no '.', ':' or '/'
    await expect(f.createMarketOrder({ symbol: 'BTCUSDT', side: 'buy', amount: 0.002, clientOrderId: 'a.b' })).rejects.toBeInstanceOf(InvalidOrderError);
    venue.close();
  });

  it('refuses orders without the funds (holding funds of open orders) and invalid orders', async () => {
    const venue = open(tempDir(), PATH);
    const p = await port(venue);
    await expect(p.createLimitOrder({ symbol: 'BTCUSDT', side: 'buy', price: 90000, amount: 1, clientOrderId: 'big' })).rejects.toBeInstanceOf(
      InsufficientFundsError,
    );
    await p.createLimitOrder({ symbol: 'BTCUSDT', side: 'buy', price: 90000, amount: 0.06, clientOrderId: 'a' }); // 5405.4 held
    await expect(p.createLimitOrder({ symbol: 'BTCUSDT', side: 'buy', price: 90000, amount: 0.06, clientOrderId: 'b' })).rejects.toThrow(
      InsufficientFundsError,
    );
    await expect(p.createLimitOrder({ symbol: 'BTCUSDT', side: 'sell', price: 99000, amount: 0.001, clientOrderId: 'c' })).rejects.toThrow(
      InsufficientFundsError,
    );
    const bad = (over: object) => p.createLimitOrder({ symbol: 'BTCUSDT', side: 'buy', price: 90000, amount: 0.001, clientOrderId: 'x', ...over });
    await expect(bad({ price: 90000.001 })).rejects.toBeInstanceOf(InvalidOrderError);
    await expect(bad({ amount: 0.000001 })).rejects.toBeInstanceOf(InvalidOrderError);
    await expect(bad({ amount: 0.00005 })).rejects.toThrow('order value must be at least 5 USDT');
    await expect(bad({ price: -1 })).rejects.toBeInstanceOf(InvalidOrderError);
    await expect(bad({ clientOrderId: 'has space' })).rejects.toBeInstanceOf(InvalidOrderError);
    await expect(bad({ reduceOnly: true })).rejects.toBeInstanceOf(InvalidOrderError);
    // float inputs that are on the step are accepted exactly
    await expect(bad({ price: 0.1 + 0.2 + 89999.7, amount: 0.1 + 0.2 - 0.299 })).resolves.toMatchObject({ price: 90000, amount: 0.001 });
    venue.close();
  });

  it('futures: margin = notional / leverage, positions, reduce-only, 0.02 % fees and realised profit', async () => {
    const venue = open(tempDir(), PATH);
    const p = await port(venue, 'futures');
    venue.advanceTo(T0);
    // every symbol is listed, at the default leverage until one is set
    expect(await p.positionRisk()).toContainEqual({ symbol: 'BTCUSDT', leverage: PAPER_DEFAULT_LEVERAGE });
    expect((await p.positionRisk()).map((r) => r.symbol)).toContain('XRPUSDT');
    await p.setLeverage('BTCUSDT', 10);
    expect(await p.positionRisk()).toContainEqual({ symbol: 'BTCUSDT', leverage: 10 });
    expect(await p.positionRisk()).toContainEqual({ symbol: 'ETHUSDT', leverage: PAPER_DEFAULT_LEVERAGE });
    await expect(p.setLeverage('BTCUSDT', 0)).rejects.toBeInstanceOf(InvalidOrderError);
    await expect(
      p.createLimitOrder({ symbol: 'BTCUSDT', side: 'sell', price: 97000, amount: 0.1, clientOrderId: 'ro0', reduceOnly: true }),
    ).rejects.toThrow('reduce-only order would not reduce the position');

    await p.createLimitOrder({ symbol: 'BTCUSDT', side: 'buy', price: 94000, amount: 0.1, clientOrderId: 'fb1' });
    // holds 9400 / 10 + 1.88 fee
    expect(await usdt(p)).toMatchObject({ balance: 10000, available: 10000 - 940 - 1.88 });
    venue.advanceTo(T0 + 2000);
    expect(p.position('BTCUSDT')).toEqual({ qty: 0.1, entryPrice: 94000, leverage: 10, margin: 940 });
    expect(await usdt(p)).toMatchObject({ balance: 9998.12, available: 9058.12 });

    // more than 10x the wallet is refused
    await expect(p.createLimitOrder({ symbol: 'BTCUSDT', side: 'buy', price: 90000, amount: 1.1, clientOrderId: 'fb2' })).rejects.toBeInstanceOf(
      InsufficientFundsError,
    );

    // take profit: reduce-only sell larger than the position is capped at it
    await p.createLimitOrder({ symbol: 'BTCUSDT', side: 'sell', price: 96000, amount: 0.2, clientOrderId: 'tp1', reduceOnly: true });
    venue.advanceTo(T0 + 5000);
    const tp = (await p.orderByClientId('BTCUSDT', 'tp1'))!;
    expect(tp).toMatchObject({ filled: 0.1, avgFillPrice: 96000, fee: 1.92, reduceOnly: true });
    expect(p.position('BTCUSDT').qty).toBe(0);
    // 10000 − 1.88 + 200 − 1.92
    expect(await p.balances()).toEqual([{ symbol: 'USDT', exchange: 'Binance', balance: 10196.2, available: 10196.2 }]);
    const fills = await p.recentFills('BTCUSDT', 0);
    expect(fills.map((f) => [f.clientOrderId, f.price, f.amount, f.fee, f.realizedPnl])).toEqual([
      ['fb1', 94000, 0.1, 1.88, 0],
      ['tp1', 96000, 0.1, 1.92, 200],
    ]);
    // the spot account of the same user is separate
    expect(await usdt(p, 'spot')).toMatchObject({ balance: 10000 });
    venue.close();
  });

  it('futures: shorts profit when the price falls; lowering leverage needs margin', async () => {
    const venue = open(tempDir(), PATH);
    const p = await port(venue, 'futures', 'shorty', 'Kucoin');
    venue.advanceTo(T0);
    await p.setLeverage('BTCUSDT', 100);
    await p.createLimitOrder({ symbol: 'BTCUSDT', side: 'sell', price: 95000, amount: 1, clientOrderId: 'short' }); // fills now
    expect(p.position('BTCUSDT')).toMatchObject({ qty: -1, entryPrice: 95000, margin: 950 });
    await expect(p.setLeverage('BTCUSDT', 1)).rejects.toBeInstanceOf(InsufficientFundsError);
    await p.createLimitOrder({ symbol: 'BTCUSDT', side: 'buy', price: 94500, amount: 1, clientOrderId: 'cover', reduceOnly: true });
    venue.advanceTo(T0 + 1000);
    // + 500 − 57 (the short took the bid: Kucoin's 0.06 % taker fee) − 18.9 (the cover rested: 0.02 % maker)
    expect((await usdt(p)).balance).toBe(10424.1);
    venue.close();
  });

  it('keeps everything after a restart from the same file: balances, orders, fills, positions and the feed position', async () => {
    const dir = tempDir();
    let venue = open(dir, PATH);
    let spot = await port(venue);
    let fut = await port(venue, 'futures');
    venue.advanceTo(T0);
    await spot.createLimitOrder({ symbol: 'BTCUSDT', side: 'buy', price: 94000, amount: 0.001, clientOrderId: 'r-b1' });
    await spot.createLimitOrder({ symbol: 'BTCUSDT', side: 'buy', price: 93000, amount: 0.001, clientOrderId: 'r-b2' });
    await fut.setLeverage('BTCUSDT', 5);
    await fut.createLimitOrder({ symbol: 'BTCUSDT', side: 'buy', price: 94000, amount: 0.01, clientOrderId: 'r-f1' });
    venue.advanceTo(T0 + 2000);
    // what the two ports read, before the venue closes and after it opens again from its file
    const readBack = async () => ({
      spot: await spot.balances(),
      fut: await fut.balances(),
      open: await spot.openOrders('BTCUSDT'),
      fills: await spot.recentFills('BTCUSDT', 0),
      pos: fut.position('BTCUSDT'),
      risk: await fut.positionRisk(),
      price: await spot.price('BTCUSDT'),
    });
    const before = await readBack();
    venue.close();

    venue = open(dir, PATH);
    spot = await port(venue);
    fut = await port(venue, 'futures');
    expect(await readBack()).toEqual(before);
    expect(venue.nowMs()).toBe(T0 + 2000);
    expect(venue.openOrderCount()).toBe(1);
    // the restored order keeps matching, and ids continue
    await spot.createLimitOrder({ symbol: 'BTCUSDT', side: 'sell', price: 96000, amount: 0.00099, clientOrderId: 'r-s1' }); // net of the BTC fee
    venue.advanceTo(T0 + 5000);
    expect((await spot.orderByClientId('BTCUSDT', 'r-s1'))!.status).toBe('filled');
    expect((await spot.orderByClientId('BTCUSDT', 'r-s1'))!.exchangeOrderId).toBe('4');
    venue.close();
  });

  it('pushes order updates to watchers', async () => {
    const venue = open(tempDir(), PATH);
    const p = await port(venue);
    const updates: OrderUpdate[] = [];
    const stop = p.watchOrders(updates.push.bind(updates));
    venue.advanceTo(T0);
    await p.createLimitOrder({ symbol: 'BTCUSDT', side: 'buy', price: 94000, amount: 0.001, clientOrderId: 'w1' });
    venue.advanceTo(T0 + 2000);
    stop();
    expect(updates.map((u) => [u.order.status, u.fill?.price])).toEqual([
      ['open', undefined],
      ['filled', 94000],
    ]);
    venue.close();
  });
});

describe('paper exchange: deterministic CSV replay', () => {
  /** A scripted grid on two exchanges and both markets driven by a replayed price file. */
  async function replay(csvPath: string) {
    const venue = new PaperVenue({ store: join(tempDir(), 'paper-exchange.sqlite'), feed: CsvReplayFeed.fromFile(csvPath) });
    const provider = new PaperExchangeProvider(venue);
    const ports = [
      await provider.for({ userId: 'u1', exchange: 'Binance', market: 'spot' }),
      await provider.for({ userId: 'u1', exchange: 'Kucoin', market: 'spot' }),
      await provider.for({ userId: 'u2', exchange: 'Binance', market: 'futures' }),
    ];
    await ports[2].setLeverage('ETHUSDT', 3);
    const feed = venue.feed as CsvReplayFeed;
    venue.advanceTo(feed.nextMs()!);
    let n = 0;
    // ladder of buys, then after every fill a take-profit sell 1.7 % above
    for (const p of ports) {
      const symbol = p.market === 'futures' ? 'ETHUSDT' : 'BTCUSDT';
      const price = await p.price(symbol);
      // each market's own steps (Kucoin's BTC-USDT ticks by 0.1, Binance's by 0.01)
      const { priceStep: step, amountStep: lot } = await p.marketRules(symbol);
      for (let i = 0; i < 5; i++) {
        const level = Math.round((price * (1 - 0.007 * (i + 1))) / step) * step;
        // (ETH on Binance's perpetual steps by 0.001 ETH: the venue refuses 0.0317)
        await p.createLimitOrder({ symbol, side: 'buy', price: level, amount: symbol === 'BTCUSDT' ? 0.00123 : 0.032, clientOrderId: `g${n++}` });
      }
      p.watchOrders(({ order, fill }) => {
        if (!fill || order.side !== 'buy') return;
        const tp = Math.round((fill.price * 1.017) / step) * step;
        // what the account received: the fill less a fee charged in the base coin
        const amountStep = Math.round(1 / Math.max(lot, symbol === 'BTCUSDT' ? 1e-5 : 1e-4));
        const net = fill.amount - (fill.feeAsset === symbol.replace('USDT', '') ? fill.feeCost : 0);
        void p.createLimitOrder({ symbol, side: 'sell', price: tp, amount: Math.floor(net * amountStep + 1e-9) / amountStep, clientOrderId: `tp-${order.clientOrderId}`, reduceOnly: p.market === 'futures' });
      });
    }
    while (!feed.done()) venue.advanceTo(feed.nextMs()!);
    const fills = venue.store.allFills();
    const balances = await Promise.all(ports.map((p) => p.balances()));
    venue.close();
    return { fills, balances };
  }

  it('the same file gives the same fills, to the cent, on every run', async () => {
    // a seeded path of 600 rows around 95,000 (BTC) and 3,300 (ETH) with fractional cents
    const walk = new RandomWalkFeed({ seed: 'csv-path', maxMoveBps: 40 });
    const lines = ['ms,exchange,symbol,price'];
    walk.advanceTo(T0);
    for (let s = 1; s <= 200; s++) {
      for (const t of walk.advanceTo(T0 + s * 1000)) {
        if (t.symbol === 'BTCUSDT' || (t.symbol === 'ETHUSDT' && t.exchange === 'Binance')) {
          lines.push(`${t.ms},${t.exchange},${t.symbol},${(t.price / 1e8).toFixed(8)}`);
        }
      }
    }
    const path = join(tempDir(), 'prices.csv');
    writeFileSync(path, lines.join('\n'));

    const a = await replay(path);
    const b = await replay(path);
    expect(a.fills.length).toBeGreaterThan(10);
    expect(a.fills.some((f) => f.side === 'sell')).toBe(true);
    expect(b.fills).toEqual(a.fills);
    expect(b.balances).toEqual(a.balances);
    // every money figure is an exact integer count of 1e-8 units
    for (const f of a.fills) for (const v of [f.price, f.amount, f.fee]) expect(Number.isSafeInteger(v)).toBe(true);
  });
});

describe('paper price feeds', () => {
  it('random walk: every spec symbol on both exchanges, realistic starts, seeded and deterministic', () => {
    const spec = ['ALGO', 'ALICE', 'ATOM', 'AVAX', 'BCH', 'BTC', 'CAKE', 'COCOS', 'CRVS', 'DOT', 'ETC', 'FIL', 'GRASS', 'GBP', 'KCS', 'LTC', 'LINK', 'SFP', 'STX', 'SOL', 'TLM', 'XTZ', 'XRP'];
    const symbols = PAPER_SYMBOLS.map((s) => s.symbol);
    for (const c of spec) expect(symbols).toContain(`${c}USDT`);
    expect(symbols).toContain('BTCUSDC');
    const a = new RandomWalkFeed({ seed: 7 });
    const b = new RandomWalkFeed({ seed: 7 });
    expect(a.priceUnits('Binance', 'BTCUSDT')).toBe(95000e8);
    a.advanceTo(T0);
    b.advanceTo(T0);
    const ta = a.advanceTo(T0 + 60_000);
    expect(ta.length).toBe(60 * 2 * PAPER_SYMBOLS.length);
    expect(b.advanceTo(T0 + 60_000)).toEqual(ta);
    const btc = a.priceUnits('Binance', 'BTCUSDT')! / 1e8;
    expect(btc).toBeGreaterThan(90000);
    expect(btc).toBeLessThan(100000);
    const c = new RandomWalkFeed({ seed: 8 });
    c.advanceTo(T0);
    expect(c.advanceTo(T0 + 60_000)).not.toEqual(ta);
    // snapshot / restore continues the same path
    const d = new RandomWalkFeed({ seed: 7 });
    expect(d.restore(a.snapshot())).toBe(true);
    expect(d.advanceTo(T0 + 70_000)).toEqual(a.advanceTo(T0 + 70_000));
    expect(new RandomWalkFeed({ seed: 9 }).restore(a.snapshot())).toBe(false);
  });

  it("random walk: the price lies on the tick of both of the exchange's markets (the form pre-fills the entry from it)", () => {
    const f = new RandomWalkFeed({ seed: 3 });
    f.advanceTo(T0);
    const ticks = f.advanceTo(T0 + 120_000);
    const on = (exchange: string, symbol: string, tickUnits: number) =>
      ticks.filter((t) => t.exchange === exchange && t.symbol === symbol).every((t) => t.price % tickUnits === 0);
    // Binance BTCUSDT: spot ticks by 0.01, the perpetual by 0.1 (venues/markets.ts) → the walk moves in 0.1 (1e7 units)
    expect(on('Binance', 'BTCUSDT', 1e7)).toBe(true);
    // Kucoin BTC-USDT and XBTUSDTM both tick by 0.1
    expect(on('Kucoin', 'BTCUSDT', 1e7)).toBe(true);
  });

  it('random walk: a long gap is skipped ahead, not replayed step by step', () => {
    const f = new RandomWalkFeed({ seed: 1, maxCatchUpSteps: 10 });
    f.advanceTo(T0);
    expect(f.advanceTo(T0 + 86_400_000).length).toBe(10 * 2 * PAPER_SYMBOLS.length);
  });

  it('csv: parses, sorts stably by time, rejects bad rows with the line number', () => {
    const f = new CsvReplayFeed('ms,exchange,symbol,price\n2000,binance,BTCUSDT,2\n1000,Binance,BTCUSDT,1\n\n2000,KUCOIN,btcusdt,3.5\n');
    expect(f.advanceTo(2000)).toEqual([
      { ms: 1000, exchange: 'Binance', symbol: 'BTCUSDT', price: 1e8 },
      { ms: 2000, exchange: 'Binance', symbol: 'BTCUSDT', price: 2e8 },
      { ms: 2000, exchange: 'Kucoin', symbol: 'BTCUSDT', price: 3.5e8 },
    ]);
    expect(f.done()).toBe(true);
    expect(() => new CsvReplayFeed('1,Bitstamp,BTCUSDT,1')).toThrow('line 1: unknown exchange');
    expect(() => new CsvReplayFeed('1,Binance,BTCUSDT,1\n2,Binance,BTCUSDT,abc')).toThrow('line 2: bad price');
  });

  it('the driver advances the feed from an injected clock', () => {
    const venue = new PaperVenue({ store: join(tempDir(), 'p.sqlite'), feed: new CsvReplayFeed(csv([[0, '1'], [1000, '2'], [2000, '3']])) });
    let now = 50;
    const driver = new PaperFeedDriver(venue, { clock: () => now, mode: 'elapsed', speed: 2 });
    driver.tick();
    now += 501; // → feed +1002 ms from just before the first row
    expect(driver.tick().map((t) => t.price / 1e8)).toEqual([1, 1, 2, 2]);
    venue.close();
  });
});

describe('shared price subscriptions (paper)', () => {
  it('one upstream subscription per (exchange, market, symbol), many listeners', async () => {
    const venue = open(tempDir(), csv([[0, '95000'], [1000, '95100']], [`${T0 + 1000},Binance,ETHUSDT,3301`]));
    const provider = new PaperExchangeProvider(venue);
    const got: Record<string, PriceTick[]> = { a: [], b: [], c: [] };
    const ua = provider.prices.subscribe({ exchange: 'Binance', market: 'spot', symbol: 'BTCUSDT' }, (t) => got.a.push(t));
    const ub = provider.prices.subscribe({ exchange: 'Binance', market: 'spot', symbol: 'BTCUSDT' }, (t) => got.b.push(t));
    const uc = provider.prices.subscribe({ exchange: 'Binance', market: 'futures', symbol: 'ETHUSDT' }, (t) => got.c.push(t));
    expect(provider.prices.activeCount()).toBe(2);
    venue.advanceTo(T0 + 1000);
    expect(got.a.map((t) => t.price)).toEqual([95000, 95100]);
    expect(got.b).toEqual(got.a);
    expect(got.c).toEqual([{ exchange: 'Binance', market: 'futures', symbol: 'ETHUSDT', price: 3301, ms: T0 + 1000 }]);
    ua();
    ua();
    expect(provider.prices.activeCount()).toBe(2);
    ub();
    uc();
    expect(provider.prices.activeCount()).toBe(0);
    await provider.close();
  });
});
