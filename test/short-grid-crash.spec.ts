/**
 * Crash test of the SHORT futures grid (issue 32), the short variant of test/runner-crash.spec.ts's ccxt
 * case: the runner is its own OS process on the ccxt adapter, trading against the venue-faithful
 * stand-ins of Binance USDⓈ-M and Kucoin futures (their REST dialects over one venue core), and is
 * SIGKILLed at random moments while it applies fills, records them, cancels and places. After each
 * restart it must converge: the venue's open orders of each bot equal what the pure engine wants from
 * the venue's own fills (no duplicate, no orphan, nothing missing), every fill recorded once. At the end
 * the profits equal a crash-free run's, every take-profit order the venue filled was sent reduce-only
 * (a stand-in refuses a reduce-only order that would not reduce, docs/exchanges.md), none was refused,
 * and after the price falls through every buy-back and a stop with cancel-all and close-position,
 * nothing is open or locked, no position is left and the account moved by exactly the bot's profit.
 */
import { randomUUID } from 'node:crypto';
import type { SqliteEventStore } from '@gridrocket/event-store';
import { parseClientOrderId, roundMoney, type GridConfig } from '@gridrocket/trading';
import { CrashWorld, GRID_FILL_TYPES, crashDirs, crashPricePath, createAndStartBots, expectNothingLeft, expectRecordedOnce, laddersConverged, referenceProfits, sidesOf, restartThenLastRow, stopClosingAll, usdtOf, withCrashRun, type CrashScenario, type GridCrashBot } from './support/crash-harness';

jest.setTimeout(150_000);

const SEED = Number(process.env.CRASH_SEED ?? 32032);
const KILLS = 8;
const STEPS = 24;

/** LTCUSDT on both venues: oscillations through the short ladders (sells 90–93) and their buy-backs; the last row drops below every take-profit. */
const pricePath = () =>
  crashPricePath({ seed: 13, symbol: 'LTCUSDT', exchanges: ['Binance', 'Kucoin'], steps: STEPS, first: 88, step: (i, r) => 91 + 3 * Math.sin(i * 0.6 + 1) + (r() - 0.5) * 1.2, last: 84 }); // the last: after the restart, every buy-back fills

interface Bot extends GridCrashBot {
  market: 'futures';
}

const SHORT: GridConfig = { botType: 'Futures', numOfOrders: 4, orderSize: 0.5, interval: 1, entryPrice: 90, takeProfit: 1.2, leverage: 3, direction: 'short' };
const BOTS: Bot[] = [
  { id: randomUUID(), userId: 'alice', exchange: 'Binance', market: 'futures', symbol: 'LTCUSDT', config: SHORT },
  { id: randomUUID(), userId: 'bob', exchange: 'Kucoin', market: 'futures', symbol: 'LTCUSDT', config: { ...SHORT, numOfOrders: 3, interval: 1.5, takeProfit: 1 } },
];

const createAndStart = (events: SqliteEventStore) =>
  createAndStartBots(events, BOTS, ({ exchange, symbol, config: c }) => ({ botType: c.botType, config: { exchange, symbol, numOfOrders: c.numOfOrders, orderSize: c.orderSize, interval: c.interval, entryPrice: c.entryPrice, takeProfit: c.takeProfit, leverage: c.leverage, direction: 'short' as const } }));

class ShortWorld extends CrashWorld<Bot> {
  /** Each bot's open orders are what the engine wants from the venue's fills, and every fill is recorded. */
  converged(): Promise<boolean> {
    return laddersConverged(this);
  }
  scenario(): CrashScenario {
    return { steps: STEPS, createAndStart, converged: () => this.converged() };
  }
}

describe('short grid crash safety on the ccxt adapter against the Binance and Kucoin futures stand-ins', () => {
  const dirs = crashDirs('gr-short-crash-');
  afterAll(() => dirs.cleanup());

  it(`${KILLS} kills (kill -9) while trading: nothing doubled or lost, take-profits sent reduce-only, none refused, all closed at the end`, async () => {
    // 1. reference: the same short bots and path, in-process on the paper exchange, never crashed
    const expected = await referenceProfits(new ShortWorld(dirs.tmp(), pricePath(), BOTS));
    // the path really trades: both short bots bought back at a profit at least once
    expect(Object.values(expected).filter((p) => p > 0)).toHaveLength(BOTS.length);

    // 2. the crash run: runner child on ccxt → stand-ins (HTTP, each venue's dialect) → venue core
    const world = new ShortWorld(dirs.tmp(), pricePath(), BOTS);
    const afterStart = async () => {
      for (const b of BOTS) {
        const open = await (await world.provider.for(b)).openOrders(b.symbol);
        expect(open.length).toBeGreaterThan(0);
        expect(open.every((o) => o.side === 'sell' && o.price >= b.config.entryPrice && !o.reduceOnly)).toBe(true); // the short ladder, above the entry
      }
    };
    await withCrashRun(world, { name: 'short', venues: [{ exchange: 'Binance', market: 'futures' }, { exchange: 'Kucoin', market: 'futures' }], seed: SEED, kills: KILLS, afterStart }, async (startBalances) => {
      // every fill recorded once; profits equal the uncrashed run's
      const actual = await world.profits();
      for (const b of BOTS) {
        const stream = await expectRecordedOnce(world, b, b.exchange, { actual: actual[b.id], expected: expected[b.id] }, GRID_FILL_TYPES);
        // the recorded fills are the short's: rungs sold, take-profits bought
        expect([...sidesOf(stream, 'OrderFilled')]).toEqual(['sell']);
        expect(sidesOf(stream, 'TakeProfitFilled')).toEqual(new Set(['buy']));
        // every take-profit the venue filled was a reduce-only buy (looked up on the venue, through ccxt's stand-in)
        const port = await world.provider.for(b);
        const tpIds = [...new Set((await port.recentFills(b.symbol, 0)).filter((f) => parseClientOrderId(f.clientOrderId)?.kind === 'take-profit').map((f) => f.clientOrderId))];
        expect(tpIds.length).toBeGreaterThan(0);
        for (const id of tpIds) expect({ id, order: await port.orderByClientId(b.symbol, id) }).toMatchObject({ id, order: { side: 'buy', reduceOnly: true } });
      }

      // 3. stop without cancel-all, start again (it continues), the price falls through every buy-back, stop with cancel-all + close position
      await restartThenLastRow(world, () => world.converged(), STEPS, 'buy-backs filled and recorded');
      await stopClosingAll(world);

      for (const b of BOTS) {
        const label = b.exchange;
        const { port, lifetime } = await expectNothingLeft(world, b, label);
        expect({ label, positions: await port.positions(b.symbol) }).toEqual({ label, positions: [] });
        expect(lifetime).toBeGreaterThan(0);
        expect({ label, moved: roundMoney((await usdtOf(world, b)) - startBalances.get(b.id)!) }).toEqual({ label, moved: roundMoney(lifetime) });
      }
    });
  });
});
