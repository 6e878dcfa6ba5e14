/**
 * Crash test of the INFINITY spot grid (issue 32), as test/neutral-grid-crash.spec.ts does for the neutral
 * one: the runner is its own OS process on the ccxt adapter, trading against the venue-faithful stand-in of
 * Binance spot, and is SIGKILLed at random moments while it applies fills, records them, cancels and
 * places. After each restart it must converge: each bot's open orders on the venue are what the infinity
 * engine wants from the venue's own fills (no duplicate, no orphan, nothing missing), every fill recorded
 * once, the coin the engine holds what the account holds. At the end the profits equal a crash-free run's;
 * a stop without cancel-all and a start continue the grid; a stop with cancel-all and close-position leaves
 * nothing open or locked, sells the coin at market, and the account moved by the bot's profit less the cost
 * of the coin it still held plus what the close sold it for.
 */
import { randomUUID } from 'node:crypto';
import type { SqliteEventStore } from '@gridrocket/event-store';
import type { Fill } from '@gridrocket/exchanges';
import { engineBotId, toEngineFill, toGridRules, roundMoney } from '@gridrocket/trading';
import { botHash } from '@gridrocket/trading/grid';
import { infinityDesiredOrders, infinityInitialState, parseInfinityOrderId, processInfinityFill, type InfinityConfig, type InfinityState } from '@gridrocket/trading/styles/infinity';
import { CrashWorld, crashDirs, engineConverged, crashPricePath, createAndStartBots, expectNothingLeft, expectRecordedOnce, referenceProfits, sidesOf, restartThenLastRow, stopClosingAll, usdtOf, withCrashRun, type CrashBot, type CrashScenario } from './support/crash-harness';

jest.setTimeout(150_000);

const SEED = Number(process.env.CRASH_SEED ?? 32034);
const KILLS = 8;
const STEPS = 24;

/** LTCUSDT: oscillations of about ±3.5 % around 90, steps both ways; the last row falls to 86 (buys step by step down to the market, none below the lower price). */
const pricePath = () => crashPricePath({ seed: 19, symbol: 'LTCUSDT', exchanges: ['Binance'], steps: STEPS, first: 90.2, step: (i, r) => 90 + 3.2 * Math.sin(i * 0.7) + (r() - 0.5) * 1.2, last: 86 });

interface Bot extends CrashBot {
  exchange: 'Binance';
  market: 'spot';
  config: InfinityConfig;
}

// alice starts holding coin (50 USDT bought at 90); bob starts without (his first sell waits for a buy)
const BOTS: Bot[] = [
  { id: randomUUID(), userId: 'alice', exchange: 'Binance', market: 'spot', symbol: 'LTCUSDT', config: { style: 'infinity', botType: 'Spot', entryPrice: 90, stepPercent: 1, quoteValue: 10, lowerPrice: 87, initialQuote: 50 } },
  { id: randomUUID(), userId: 'bob', exchange: 'Binance', market: 'spot', symbol: 'LTCUSDT', config: { style: 'infinity', botType: 'Spot', entryPrice: 89, stepPercent: 1.5, quoteValue: 12, lowerPrice: 85, initialQuote: 0 } },
];

// as the create route stores it (bot-infinity.rules.ts infinityBotConfig): the ladder's fields 0
const createAndStart = (events: SqliteEventStore) =>
  createAndStartBots(events, BOTS, ({ exchange, symbol, config: c }) => ({ botType: 'Spot', config: { exchange, symbol, numOfOrders: 0, orderSize: 0, interval: 0, entryPrice: c.entryPrice, takeProfit: 0, leverage: 1, style: 'infinity' as const, stepPercent: c.stepPercent, quoteValue: c.quoteValue, lowerPrice: c.lowerPrice, initialQuote: c.initialQuote } }));

const FILL_TYPES = ['OrderFilled', 'TakeProfitFilled'];
const show = (o: { clientOrderId: string; side: string; price: number; amount: number }) => `${o.clientOrderId} ${o.side} ${o.price} ${o.amount}`;
const ownStep = (b: Bot, id: string) => parseInfinityOrderId(id)?.hash === botHash(engineBotId(b.id));

class InfinityWorld extends CrashWorld<Bot> {
  /** The venue's fills of the bot's grid orders (not its close). */
  async fills(b: Bot): Promise<Fill[]> {
    return (await (await this.provider.for(b)).recentFills(b.symbol, 0)).filter((f) => ownStep(b, f.clientOrderId));
  }
  /** The infinity engine after the venue's own fills of the bot. */
  async engine(b: Bot): Promise<{ rules: ReturnType<typeof toGridRules>; state: InfinityState }> {
    const rules = toGridRules(await (await this.provider.for(b)).marketRules(b.symbol));
    let state = infinityInitialState(b.config, rules, engineBotId(b.id));
    for (const f of await this.fills(b)) state = processInfinityFill(b.config, rules, state, toEngineFill(f, 'LTC')).state;
    return { rules, state };
  }
  async ltc(b: Bot): Promise<number> {
    return (await (await this.provider.for(b)).balances()).find((x) => x.symbol === 'LTC')?.balance ?? 0;
  }
  converged(): Promise<boolean> {
    const want = async (b: Bot) => {
      const { rules, state } = await this.engine(b);
      return infinityDesiredOrders(rules, state);
    };
    return engineConverged(this, { want, own: ownStep, show, fills: (b) => this.fills(b), fillTypes: FILL_TYPES });
  }
  scenario(): CrashScenario {
    return { steps: STEPS, createAndStart, converged: () => this.converged() };
  }
}

describe('infinity grid crash safety on the ccxt adapter against the Binance spot stand-in', () => {
  const dirs = crashDirs('gr-infinity-crash-');
  afterAll(() => dirs.cleanup());

  it(`${KILLS} kills (kill -9) while trading: nothing doubled or lost, the coin held is the account's, all sold at the end`, async () => {
    // 1. reference: the same infinity bots and path, in-process on the paper exchange, never crashed
    let refSteps: InfinityState[] = [];
    const expected = await referenceProfits(new InfinityWorld(dirs.tmp(), pricePath(), BOTS), async (ref) => {
      refSteps = await Promise.all(BOTS.map(async (b) => (await ref.engine(b)).state));
    });
    // the path really steps both ways: each bot sold on steps up and bought on steps down
    for (const s of refSteps) expect({ up: s.stepsUp > 1, down: s.stepsDown > 1 }).toEqual({ up: true, down: true });

    // 2. the crash run: runner child on ccxt → stand-in (HTTP, Binance spot's dialect) → venue core
    const world = new InfinityWorld(dirs.tmp(), pricePath(), BOTS);
    // the coin the engine holds is what the account holds (the buys' net amounts less the sells)
    const afterStep = async (i: number) => {
      for (const b of BOTS) expect({ bot: b.userId, step: i, diff: Math.abs((await world.engine(b)).state.position.amount - (await world.ltc(b))) < 1e-9 }).toEqual({ bot: b.userId, step: i, diff: true });
    };
    await withCrashRun(world, { name: 'infinity', venues: [{ exchange: 'Binance', market: 'spot' }], seed: SEED, kills: KILLS, afterStep }, async (startBalances) => {
      // every fill recorded once; profits equal the uncrashed run's
      const actual = await world.profits();
      for (const b of BOTS) {
        const stream = await expectRecordedOnce(world, b, b.userId, { actual: actual[b.id], expected: expected[b.id] }, FILL_TYPES);
        // buys recorded as OrderFilled, sells as TakeProfitFilled
        expect(sidesOf(stream, 'OrderFilled')).toEqual(new Set(['buy']));
        expect(sidesOf(stream, 'TakeProfitFilled')).toEqual(new Set(['sell']));
      }

      // 3. stop without cancel-all, start again (it continues), the price falls to 86, stop with cancel-all + close position
      await restartThenLastRow(world, () => world.converged(), STEPS, 'buys filled and recorded');
      const atStop = new Map<string, InfinityState>();
      for (const b of BOTS) {
        const { state } = await world.engine(b);
        // the fall to 86 bought step by step down to the market: no buy rests at or above 86 (it would have filled), none below the lower price
        const buys = (await (await world.provider.for(b)).openOrders(b.symbol)).filter((o) => o.side === 'buy');
        expect({ bot: b.userId, buys: buys.every((o) => o.price < 86 && o.price >= b.config.lowerPrice) }).toEqual({ bot: b.userId, buys: true });
        expect(state.position.amount).toBeGreaterThan(0);
        atStop.set(b.id, state);
      }
      await stopClosingAll(world);

      for (const b of BOTS) {
        const label = b.userId;
        const { port, stream, lifetime } = await expectNothingLeft(world, b, label);
        // the close: one market sell of the coin held, at the amount step (0.001), under the bot's own prefix
        const state = atStop.get(b.id)!;
        const closeFills = (await port.recentFills(b.symbol, 0)).filter((f) => f.clientOrderId === `gr-${botHash(engineBotId(b.id))}-${state.seq}-close`);
        expect(closeFills.map((f) => f.side)).toEqual(closeFills.map(() => 'sell'));
        const sold = closeFills.reduce((t, f) => t + f.amount, 0);
        expect(roundMoney(sold)).toBe(roundMoney(Math.floor(state.position.amount * 1000 + 1e-9) / 1000));
        // dust below one amount step stays
        expect(Math.abs((await world.ltc(b)) - (state.position.amount - sold))).toBeLessThan(1e-9);
        // the account: each buy paid price × amount (its fee taken in LTC: the engine's cost plus its buy fees), each
        // sell received its proceeds less its fee; the realised profit is proceeds − fees − the sold share of cost
        // and buy fees. The close's sale is realised like any sell (issue 40: PositionClosed, in the lifetime profit),
        // so the USDT moved by the profit − the cost and buy fees of the dust still held after it
        const closeValue = closeFills.reduce((t, f) => t + f.price * f.amount, 0);
        const heldCost = state.position.cost + state.position.buyFees;
        const closeProfit = stream.filter((e) => e.type === 'PositionClosed').reduce((t, e) => t + (e.data as { profit: number }).profit, 0);
        expect({ label, closeProfit: Math.abs(closeProfit - (closeValue - closeFills.reduce((t, f) => t + f.fee, 0) - (heldCost * sold) / state.position.amount)) < 1e-6 }).toEqual({ label, closeProfit: true });
        const expectedMove = lifetime - (heldCost * (state.position.amount - sold)) / state.position.amount;
        console.log(`infinity crash test, ${label}: profit ${roundMoney(lifetime)} USDT over ${state.stepsUp} steps up and ${state.stepsDown} down; held ${state.position.amount} LTC at the stop, ${roundMoney(sold)} sold at market`);
        expect({ label, moved: Math.abs((await usdtOf(world, b)) - startBalances.get(b.id)! - expectedMove) < 1e-6 }).toEqual({ label, moved: true });
      }
    });
  });
});
