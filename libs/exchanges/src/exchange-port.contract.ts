/**
 * The exchange-port contract: what every adapter (paper, ccxt against each venue) does the same way,
 * with the venue's documented behaviour as the judge (docs/exchanges.md "The port contract").
 * `exchangePortContract(name, open)` registers the cases; `open()` gives a fresh world: the port,
 * and a way to move the market (the venue core's price feed).
 */
import { DuplicateOrderError, InsufficientFundsError, InvalidOrderError, OrderNotFoundError } from './exchange.errors';
import type { ExchangeName, ExchangePort, MarketType } from './exchange.port';
import { venueRules } from './venues/venue-rules';

export const DAY = 86_400_000;
/** Contract time line: the market starts at T0 and moves at the listed offsets. */
export const CONTRACT_T0 = 1_700_000_000_000;
export const CONTRACT_PRICES: Array<[offsetMs: number, price: string]> = [
  [0, '95000'],
  [3 * DAY, '93900'], // fills the buy at 94000
  [9 * DAY, '92900'], // fills the buy at 93000
  [16 * DAY, '91900'], // fills the buy at 92000
  [17 * DAY, '95000'],
];

/** The price file of the contract (both exchanges, BTCUSDT). */
export function contractCsv(): string {
  const rows = ['ms,exchange,symbol,price'];
  for (const [dt, p] of CONTRACT_PRICES) rows.push(`${CONTRACT_T0 + dt},Binance,BTCUSDT,${p}`, `${CONTRACT_T0 + dt},Kucoin,BTCUSDT,${p}`);
  return rows.join('\n');
}

export interface ContractWorld {
  port: ExchangePort;
  /** Moves the market to T0 + offset (fills what crosses). */
  advance(offsetMs: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * BTCUSDT on each venue's market, as the venue reports it (venues/markets.ts, sources there and in
 * docs/exchanges.md "Markets"): the same symbol has other steps and minimums on each market.
 */
export const CONTRACT_MARKETS: Record<string, { priceStep: number; amountStep: number; minAmount: number; minNotional: number }> = {
  'Binance spot': { priceStep: 0.01, amountStep: 0.00001, minAmount: 0.00001, minNotional: 5 }, // BS-SNAP
  'Binance futures': { priceStep: 0.1, amountStep: 0.001, minAmount: 0.001, minNotional: 100 }, // BF-SNAP steps, BF-NOTIONAL-2023
  'Kucoin spot': { priceStep: 0.1, amountStep: 0.00000001, minAmount: 0.00001, minNotional: 0.1 }, // KS-SNAP
  'Kucoin futures': { priceStep: 0.1, amountStep: 0.001, minAmount: 0.001, minNotional: 0 }, // KF-SNAP: XBTUSDTM multiplier 0.001 BTC, lotSize 1, no minimum value
};

export function exchangePortContract(name: string, exchange: ExchangeName, market: MarketType, open: () => Promise<ContractWorld>): void {
  const rules = venueRules(exchange, market);
  const S = 'BTCUSDT';
  const futures = market === 'futures';
  const m = CONTRACT_MARKETS[`${exchange} ${market}`];
  /**
   * The orders' amount: 0.001 BTC, except on Binance's perpetual, whose 100 USDT minimum value needs
   * 0.002 BTC at the contract's prices (0.002 × 92000 = 184 ≥ 100; 0.001 × 94000 = 94 < 100).
   */
  const A = m.minNotional > 90 ? 0.002 : 0.001;

  describe(`exchange-port contract: ${name}`, () => {
    let w: ContractWorld;
    let p: ExchangePort;
    beforeEach(async () => {
      w = await open();
      p = w.port;
      if (futures) await p.setLeverage(S, 5, 'isolated');
    });
    afterEach(() => w.close());

    it('market rules carry the steps, the minimum notional and the venue fees', async () => {
      const r = await p.marketRules(S);
      // Kucoin futures has no minimum order value, only a minimum of one lot
      expect(r).toMatchObject({ ...m, makerFee: rules.fees.maker, takerFee: rules.fees.taker });
    });

    it('refuses a client order id an open order already has (DuplicateOrderError), keeping one order', async () => {
      await p.createLimitOrder({ symbol: S, side: 'buy', price: 90000, amount: A, clientOrderId: 'dup-1' });
      await expect(p.createLimitOrder({ symbol: S, side: 'buy', price: 90000, amount: A, clientOrderId: 'dup-1' })).rejects.toBeInstanceOf(DuplicateOrderError);
      expect((await p.openOrders(S)).map((o) => o.clientOrderId)).toEqual(['dup-1']);
    });

    it('refuses a client order id outside the venue format', async () => {
      const bad = exchange === 'Kucoin' ? 'has.dot' : 'x'.repeat(37);
      await expect(p.createLimitOrder({ symbol: S, side: 'buy', price: 90000, amount: A, clientOrderId: bad })).rejects.toBeInstanceOf(InvalidOrderError);
    });

    it('cancel of a filled order returns it as filled; of an unknown id is OrderNotFoundError', async () => {
      await p.createLimitOrder({ symbol: S, side: 'buy', price: 94000, amount: A, clientOrderId: 'c-fill' });
      await w.advance(3 * DAY);
      expect(await p.cancelOrder(S, 'c-fill')).toMatchObject({ clientOrderId: 'c-fill', status: 'filled', filled: A });
      await expect(p.cancelOrder(S, 'c-never')).rejects.toBeInstanceOf(OrderNotFoundError);
      const open = await p.createLimitOrder({ symbol: S, side: 'buy', price: 80000, amount: A, clientOrderId: 'c-open' });
      expect(open.status).toBe('open');
      expect(await p.cancelOrder(S, 'c-open')).toMatchObject({ status: 'cancelled' });
      expect(await p.cancelOrder(S, 'c-open')).toMatchObject({ status: 'cancelled' }); // idempotent
    });

    it('recovers fills from a start time across the venue windows, oldest first, each once', async () => {
      for (const [i, price] of [94000, 93000, 92000].entries()) {
        await p.createLimitOrder({ symbol: S, side: 'buy', price, amount: A, clientOrderId: `f-${i}` });
      }
      await w.advance(17 * DAY);
      const all = await p.recentFills(S, CONTRACT_T0);
      expect(all.map((f) => [f.clientOrderId, f.price, f.timestamp - CONTRACT_T0])).toEqual([
        ['f-0', 94000, 3 * DAY],
        ['f-1', 93000, 9 * DAY],
        ['f-2', 92000, 16 * DAY],
      ]);
      expect((await p.recentFills(S, CONTRACT_T0 + 5 * DAY)).map((f) => f.clientOrderId)).toEqual(['f-1', 'f-2']);
    });

    it('balances after fees: the fee is charged in the venue\'s asset, and what is held is what can be sold', async () => {
      await p.createLimitOrder({ symbol: S, side: 'buy', price: 94000, amount: A, clientOrderId: 'b-1' });
      await w.advance(3 * DAY);
      const [fill] = await p.recentFills(S, CONTRACT_T0);
      const feeRate = rules.fees.maker;
      expect(fill.fee).toBeCloseTo(94000 * A * feeRate, 8); // price × amount × maker rate
      if (market === 'spot') {
        const btc = (await p.balances()).find((b) => b.symbol === 'BTC')!;
        if (rules.fees.buyFeeIn === 'base') {
          expect(fill).toMatchObject({ feeAsset: 'BTC', feeCost: 0.000001 });
          expect(btc.balance).toBeCloseTo(0.000999, 10);
          // the gross amount is an oversell
          await expect(p.createLimitOrder({ symbol: S, side: 'sell', price: 99000, amount: 0.001, clientOrderId: 's-gross' })).rejects.toBeInstanceOf(InsufficientFundsError);
          await p.createLimitOrder({ symbol: S, side: 'sell', price: 99000, amount: 0.00099, clientOrderId: 's-net' });
        } else {
          expect(fill).toMatchObject({ feeAsset: 'USDT' });
          expect(btc.balance).toBeCloseTo(0.001, 10);
          await p.createLimitOrder({ symbol: S, side: 'sell', price: 99000, amount: 0.001, clientOrderId: 's-all' });
        }
      } else {
        expect(fill).toMatchObject({ feeAsset: 'USDT' });
      }
    });

    it('rounds nothing itself: an off-step price or amount and a too small order are refused', async () => {
      await expect(p.createLimitOrder({ symbol: S, side: 'buy', price: 90000 + m.priceStep / 2, amount: A, clientOrderId: 'r-price' })).rejects.toBeInstanceOf(InvalidOrderError);
      // (Kucoin spot's BTC step is 1e-8, the finest amount the port carries: no amount is off it)
      if (m.amountStep >= 1e-7) {
        await expect(p.createLimitOrder({ symbol: S, side: 'buy', price: 90000, amount: A + m.amountStep / 2, clientOrderId: 'r-amount' })).rejects.toBeInstanceOf(InvalidOrderError);
      }
      if (m.minAmount > m.amountStep) {
        // below the minimum amount, on the step (Kucoin spot: 0.00001 − 0.00000001 BTC)
        await expect(p.createLimitOrder({ symbol: S, side: 'buy', price: 90000, amount: m.minAmount - m.amountStep, clientOrderId: 'r-min' })).rejects.toBeInstanceOf(InvalidOrderError);
      }
      if (rules.minNotional && m.minAmount * 90000 < m.minNotional) {
        // the minimum amount at 90000 is worth less than the minimum value (Binance spot 0.9 < 5, futures 90 < 100)
        await expect(p.createLimitOrder({ symbol: S, side: 'buy', price: 90000, amount: m.minAmount, clientOrderId: 'r-notional' })).rejects.toBeInstanceOf(InvalidOrderError);
      }
    });

    it('a crossing limit order fills at the market price as a taker', async () => {
      const o = await p.createLimitOrder({ symbol: S, side: 'buy', price: 96000, amount: A, clientOrderId: 'x-1' });
      const [fill] = await p.recentFills(S, CONTRACT_T0);
      expect(fill).toMatchObject({ clientOrderId: 'x-1', price: 95000 });
      expect(fill.fee).toBeCloseTo(95000 * A * rules.fees.taker, 8); // at the market's 95000, taker rate
      expect(o.clientOrderId).toBe('x-1');
    });

    it('lists every open order, more than one page of the venue\'s listing (KuCoin pages by 50 unless asked), of a symbol and of several', async () => {
      for (let i = 0; i < 51; i++) await p.createLimitOrder({ symbol: S, side: 'buy', price: 60000 - i * 10, amount: A, clientOrderId: `pg-${i}` });
      const ids = (orders: Array<{ clientOrderId: string }>) => orders.map((o) => o.clientOrderId).sort();
      const all = Array.from({ length: 51 }, (_, i) => `pg-${i}`).sort();
      expect(ids(await p.openOrders(S))).toEqual(all);
      // the watchdog's read for an account's symbols (an all-symbols read where it weighs less)
      if (p.openOrdersOf) expect(ids(await p.openOrdersOf([S, 'ETHUSDT']))).toEqual(all);
    });

    if (futures) {
      it('one-way mode: an order for a position side is refused; a market close flattens the position', async () => {
        expect(await p.positionMode()).toBe('oneway');
        await expect(p.createLimitOrder({ symbol: S, side: 'buy', price: 90000, amount: A, clientOrderId: 'h-1', positionSide: 'LONG' })).rejects.toBeInstanceOf(InvalidOrderError);
        await p.createMarketOrder({ symbol: S, side: 'buy', amount: 0.002, clientOrderId: 'm-open' });
        expect(await p.positions(S)).toEqual([{ symbol: S, amount: 0.002, entryPrice: 95000, leverage: 5, marginMode: 'isolated' }]);
        await p.createMarketOrder({ symbol: S, side: 'sell', amount: 0.002, clientOrderId: 'm-close', reduceOnly: true });
        expect(await p.positions(S)).toEqual([]);
      });

      it('reduce-only (issue 32): the buy that closes a short rests and fills; a reduce-only order that would open or grow a position is refused', async () => {
        // Binance: POST /fapi/v1/order reduceOnly, refused with -2022 "ReduceOnly Order is rejected."; Kucoin: POST
        // /api/v1/orders reduceOnly, "only the orders reducing the position size will be executed" (docs/exchanges.md)
        // nothing held: a reduce-only buy would open a long
        await expect(p.createLimitOrder({ symbol: S, side: 'buy', price: 94000, amount: 0.001, clientOrderId: 'ro-0', reduceOnly: true })).rejects.toBeInstanceOf(InvalidOrderError);
        await p.createMarketOrder({ symbol: S, side: 'sell', amount: 0.002, clientOrderId: 'ro-short' });
        expect(await p.positions(S)).toEqual([{ symbol: S, amount: -0.002, entryPrice: 95000, leverage: 5, marginMode: 'isolated' }]);
        // short: a reduce-only SELL would grow it
        await expect(p.createLimitOrder({ symbol: S, side: 'sell', price: 96000, amount: 0.001, clientOrderId: 'ro-1', reduceOnly: true })).rejects.toBeInstanceOf(InvalidOrderError);
        // the short's take-profit: a reduce-only buy below the market, accepted and resting
        await p.createLimitOrder({ symbol: S, side: 'buy', price: 94000, amount: 0.002, clientOrderId: 'ro-tp', reduceOnly: true });
        expect((await p.openOrders(S)).map((o) => [o.clientOrderId, o.side, o.reduceOnly === true])).toEqual([['ro-tp', 'buy', true]]);
        await w.advance(3 * DAY); // 93900: the buy at 94000 fills
        expect(await p.positions(S)).toEqual([]);
        expect((await p.recentFills(S, CONTRACT_T0)).map((f) => [f.clientOrderId, f.side, f.price, f.amount])).toEqual([
          ['ro-short', 'sell', 95000, 0.002],
          ['ro-tp', 'buy', 94000, 0.002],
        ]);
      });
    } else {
      it('spot: one-way, no positions, no position side', async () => {
        expect(await p.positionMode()).toBe('oneway');
        expect(await p.positions()).toEqual([]);
        await expect(p.createLimitOrder({ symbol: S, side: 'buy', price: 90000, amount: A, clientOrderId: 'h-1', positionSide: 'LONG' })).rejects.toBeInstanceOf(InvalidOrderError);
      });
    }
  });
}
