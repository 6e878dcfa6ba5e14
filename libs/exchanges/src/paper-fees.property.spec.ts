/**
 * Property of the paper exchange's fee and rounding model (issue 10 "Done when"): for any sequence
 * of fills on any venue, what a holder computes from the fills alone — amounts received net of a fee
 * charged in the coin, amounts sold, quote paid and received with fees — equals, to the unit, what
 * the exchange says the account holds.
 */
import fc from 'fast-check';
import type { ExchangeName } from './exchange.port';
import { PaperExchangeProvider, PaperVenue } from './paper.exchange';
import { CsvReplayFeed } from './paper-price-feed';

const T0 = 1_700_000_000_000;
const step = (n: number) => Math.round(n * 1e5) / 1e5; // the BTC amount step
const units = (n: number) => Math.round(n * 1e8);

describe('paper exchange fee model (property)', () => {
  it('the fills explain the balances exactly, whatever the venue and the sequence', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom<ExchangeName>('Binance', 'Kucoin'),
        fc.array(fc.record({ price: fc.integer({ min: 95_000, max: 110_000 }), amount: fc.integer({ min: 10, max: 500 }), sellShare: fc.double({ min: 0, max: 1, noNaN: true }) }), { minLength: 1, maxLength: 12 }),
        async (exchange, steps) => {
          const venue = new PaperVenue({ store: ':memory:', feed: new CsvReplayFeed(`ms,exchange,symbol,price\n${T0},${exchange},BTCUSDT,95000\n`), startingUsdt: '1000000' });
          venue.advanceTo(T0);
          const port = await new PaperExchangeProvider(venue).for({ userId: 'p', exchange, market: 'spot' });
          let n = 0;
          for (const s of steps) {
            // a crossing buy (taker, at the market) then a sell of a share of what is held
            await port.createLimitOrder({ symbol: 'BTCUSDT', side: 'buy', price: s.price, amount: s.amount / 1e5, clientOrderId: `b${n++}` });
            const held = (await port.balances()).find((b) => b.symbol === 'BTC')?.available ?? 0;
            const sell = step(Math.floor(held * s.sellShare * 1e5) / 1e5);
            if (sell * 95000 >= 5) await port.createLimitOrder({ symbol: 'BTCUSDT', side: 'sell', price: 90000, amount: sell, clientOrderId: `s${n++}` });
          }
          const fills = await port.recentFills('BTCUSDT', T0);
          expect(fills.filter((f) => f.side === 'buy')).toHaveLength(steps.length);
          let btc = 0;
          let usdt = units(1_000_000);
          for (const f of fills) {
            const notional = Math.round(units(f.price) * units(f.amount) / 1e8);
            if (f.side === 'buy') {
              btc += units(f.amount) - (f.feeAsset === 'BTC' ? units(f.feeCost) : 0);
              usdt -= notional + (f.feeAsset === 'USDT' ? units(f.feeCost) : 0);
            } else {
              btc -= units(f.amount);
              usdt += notional - units(f.feeCost);
            }
            // the fee in quote is the fee as charged, at the fill's price
            expect(f.fee).toBeCloseTo(f.feeAsset === 'BTC' ? f.feeCost * f.price : f.feeCost, 6);
          }
          const balances = await port.balances();
          expect(units(balances.find((b) => b.symbol === 'USDT')!.balance)).toBe(usdt);
          expect(units(balances.find((b) => b.symbol === 'BTC')?.balance ?? 0)).toBe(btc);
          venue.close();
        },
      ),
      { numRuns: 40 },
    );
  });
});
