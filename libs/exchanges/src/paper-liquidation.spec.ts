/**
 * Issue 40 point 3: the paper exchange liquidates a futures position as the venue would, at the price
 * computed by hand from the venue's margin tiers (Binance BTCUSDT, GET /fapi/v1/leverageBracket bracket 1:
 * notional up to 50,000, maintMarginRatio 0.004, cum 0, initialLeverage 125; venues/margin-tiers.ts).
 *
 * Long 0.01 BTC bought at market at 95,000 (taker 0.05 %: fee 0.475), isolated, leverage 20:
 *   margin W = 950 ÷ 20 = 47.5; maintenance at P = 0.01·P·0.004 (notional ≤ 50,000, amount 0);
 *   margin balance at P = 47.5 + 0.01·(P − 95,000)
 *   liquidated when 47.5 + 0.01·P − 950 ≤ 0.00004·P  ⇔  P ≤ 902.5 ÷ 0.00996 = 90,612.449…
 *   at 90,700: 47.5 − 43 = 4.5 > 3.628 (not yet); at 90,600: 47.5 − 44 = 3.5 ≤ 3.624 (liquidated);
 *   closed at the bankruptcy price (950 − 47.5) ÷ 0.01 = 90,250: realised −47.5, the whole margin.
 * Short mirror, 0.01 BTC sold at 95,000, leverage 20: liquidated when 47.5 + 950 − 0.01·P ≤ 0.00004·P ⇔
 *   P ≥ 997.5 ÷ 0.01004 = 99,352.589…: at 99,300 not yet, at 99,400 yes; bankruptcy (950 + 47.5) ÷ 0.01 = 99,750.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { longLiquidationPrice, shortLiquidationPrice } from '@gridrocket/trading/grid';
import { PaperExchangeProvider, PaperVenue } from './paper.exchange';
import { CsvReplayFeed } from './paper-price-feed';
import { marginTiers } from './venues/margin-tiers';

const T0 = 1_700_000_000_000;
const csv = (prices: string[]) => ['ms,exchange,symbol,price', ...prices.map((p, k) => `${T0 + k * 1000},Binance,BTCUSDT,${p}`)].join('\n') + '\n';

async function world(prices: string[]) {
  const venue = new PaperVenue({ store: join(mkdtempSync(join(tmpdir(), 'gr-liq-')), 'paper.sqlite'), feed: new CsvReplayFeed(csv(prices)) });
  venue.advanceTo(T0);
  const port = await new PaperExchangeProvider(venue).for({ userId: 'u1', exchange: 'Binance', market: 'futures' });
  return { venue, port };
}

describe('paper exchange: liquidation of an isolated futures position', () => {
  it('long 0.01 BTC at 95,000 at 20×: kept at 90,700, liquidated at 90,600 (liquidation price 90,612.45), closed at the bankruptcy price 90,250 with the whole 47.5 USDT margin lost; the resting buy is cancelled', async () => {
    const { venue, port } = await world(['95000', '90700', '90600', '85000']);
    await port.setLeverage('BTCUSDT', 20, 'isolated');
    await port.createMarketOrder({ symbol: 'BTCUSDT', side: 'buy', amount: 0.01, clientOrderId: 'open-long' });
    await port.createLimitOrder({ symbol: 'BTCUSDT', side: 'buy', price: 80000, amount: 0.01, clientOrderId: 'rest-buy' });
    // the form's figure is the same price (liquidation.ts, the same tiers)
    expect(longLiquidationPrice(0.01, 95000, 47.5, marginTiers('Binance', 'BTCUSDT').tiers)).toBe(90612.44979920);
    const usdtBefore = (await port.balances()).find((b) => b.symbol === 'USDT')!.balance;
    expect(usdtBefore).toBe(10000 - 0.475);

    venue.advanceTo(T0 + 1000); // 90,700: margin balance 4.5 > maintenance 3.628
    expect(await port.positions('BTCUSDT')).toEqual([{ symbol: 'BTCUSDT', amount: 0.01, entryPrice: 95000, leverage: 20, marginMode: 'isolated' }]);

    venue.advanceTo(T0 + 2000); // 90,600: 3.5 ≤ 3.624
    expect(await port.positions('BTCUSDT')).toEqual([]);
    expect(await port.openOrders('BTCUSDT')).toEqual([]);
    expect((await port.orderByClientId('BTCUSDT', 'rest-buy'))?.status).toBe('cancelled');
    const fills = await port.recentFills('BTCUSDT', T0);
    const liq = fills[fills.length - 1];
    expect(liq.clientOrderId).toMatch(/^autoclose-/);
    expect([liq.side, liq.price, liq.amount, liq.fee]).toEqual(['sell', 90250, 0.01, 0]);
    const usdt = (await port.balances()).find((b) => b.symbol === 'USDT')!;
    expect(usdt.balance).toBeCloseTo(10000 - 0.475 - 47.5, 8);
    expect(usdt.available).toBeCloseTo(usdt.balance, 8); // nothing held any more

    venue.advanceTo(T0 + 3000); // nothing left to liquidate
    expect((await port.recentFills('BTCUSDT', T0)).length).toBe(fills.length);
    venue.close();
  });

  it('short 0.01 BTC at 95,000 at 20×: kept at 99,300, liquidated at 99,400 (liquidation price 99,352.59), bought back at 99,750', async () => {
    const { venue, port } = await world(['95000', '99300', '99400']);
    await port.setLeverage('BTCUSDT', 20, 'isolated');
    await port.createMarketOrder({ symbol: 'BTCUSDT', side: 'sell', amount: 0.01, clientOrderId: 'open-short' });
    expect(shortLiquidationPrice(0.01, 95000, 47.5, marginTiers('Binance', 'BTCUSDT').tiers)).toBe(99352.58964143);
    venue.advanceTo(T0 + 1000);
    expect((await port.positions('BTCUSDT')).map((p) => p.amount)).toEqual([-0.01]);
    venue.advanceTo(T0 + 2000);
    expect(await port.positions('BTCUSDT')).toEqual([]);
    const liq = (await port.recentFills('BTCUSDT', T0)).pop()!;
    expect([liq.clientOrderId.startsWith('autoclose-'), liq.side, liq.price, liq.amount]).toEqual([true, 'buy', 99750, 0.01]);
    expect((await port.balances()).find((b) => b.symbol === 'USDT')!.balance).toBeCloseTo(10000 - 0.475 - 47.5, 8);
    venue.close();
  });

  it('a cross position is not liquidated by its own margin (the whole wallet backs it: not simulated), and a safe leverage rides the fall', async () => {
    const { venue, port } = await world(['95000', '90600']);
    await port.setLeverage('BTCUSDT', 20, 'cross');
    await port.createMarketOrder({ symbol: 'BTCUSDT', side: 'buy', amount: 0.01, clientOrderId: 'open-cross' });
    venue.advanceTo(T0 + 1000);
    expect((await port.positions('BTCUSDT')).map((p) => p.amount)).toEqual([0.01]);
    venue.close();
  });
});
