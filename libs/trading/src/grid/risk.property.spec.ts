/**
 * Property tests of the risk settings (issue 14, fast-check): whatever the price path, with spacing,
 * sizeScale, stop-loss (percent or price), trailing take-profit and follow, the bot never holds more
 * than its ladder, never sells more than it holds, and whenever it is flat its realised profit equals
 * Σ sells − Σ buys − Σ fees. A small market executes the engine's orders along the path: resting
 * limits fill when the price crosses them, the market sells of a stop-loss and a trailing take-profit
 * fill at the path's price.
 */
import fc from 'fast-check';
import { floorToStep, fromSteps, roundMoney } from './decimal';
import { initialState, processFill } from './grid.engine';
import { buildLadder, validateGrid } from './ladder';
import { activeOrders, beginStopLoss, decidePrice, reanchorBook, stopLossDoneReason, stopLossSell } from './risk';
import { rungPrice, rungSize } from './spacing';
import type { DesiredOrder, Fill, GridConfig, GridState, MarketRules } from './grid.types';

const FEE = 0.001;
const rules: MarketRules = { priceStep: 0.01, amountStep: 0.001, minNotional: 0 };

const configArb: fc.Arbitrary<GridConfig> = fc
  .record({
    futures: fc.boolean(),
    numOfOrders: fc.integer({ min: 1, max: 6 }),
    entry: fc.integer({ min: 50, max: 200 }),
    percent: fc.boolean(),
    interval: fc.integer({ min: 1, max: 8 }),
    sizeUnits: fc.integer({ min: 1, max: 50 }),
    sizeScale: fc.constantFrom(undefined, 1, 1.25, 1.5, 2),
    takeProfit: fc.constantFrom(0.5, 1, 2, 5),
    stop: fc.constantFrom('none', 'percent', 'price'),
    stopLossPercent: fc.integer({ min: 1, max: 30 }),
    trailingDeviation: fc.constantFrom(undefined, 0, 0.5, 1, 3),
    follow: fc.boolean(),
    limit: fc.option(fc.integer({ min: 0, max: 60 }), { nil: undefined }),
  })
  .map((g) => {
    const c: GridConfig = {
      botType: g.futures ? 'Futures' : 'Spot',
      numOfOrders: g.numOfOrders,
      orderSize: fromSteps(g.sizeUnits, rules.amountStep),
      interval: g.interval,
      entryPrice: g.entry,
      takeProfit: g.takeProfit,
      leverage: g.futures ? 3 : 1,
    };
    if (g.percent) c.spacing = 'percent';
    if (g.sizeScale !== undefined) c.sizeScale = g.sizeScale;
    if (g.stop === 'percent') c.stopLossPercent = g.stopLossPercent;
    if (g.stop === 'price') c.stopLossPrice = roundMoney(g.entry * (1 - g.stopLossPercent / 100));
    if (g.trailingDeviation !== undefined) c.trailingDeviation = g.trailingDeviation;
    if (g.follow) {
      c.reanchor = 'follow';
      if (g.limit !== undefined) c.reanchorLimit = g.entry + g.limit;
    }
    return c;
  })
  .filter((c) => validateGrid(c, rules).ok);

/** A price path: relative moves from the entry, kept above 1. */
const pathArb = fc.array(fc.integer({ min: -80, max: 80 }), { minLength: 1, maxLength: 60 });

/** How often each risk step happened over all runs (the properties must reach every setting). */
const seen = { 'stop-loss': 0, 'trail-sell': 0, reanchor: 0, percent: 0, scaled: 0 };

function run(config: GridConfig, moves: number[]) {
  if (config.spacing === 'percent') seen.percent++;
  if ((config.sizeScale ?? 1) > 1) seen.scaled++;
  let state: GridState = initialState(config, rules, 'risk-prop');
  let price = config.entryPrice;
  let peak: number | null = null;
  let seq = 0;
  const flows = { buys: 0, sells: 0, fees: 0 };
  const ladderTotal = () => state.levels.reduce((sum, l) => sum + l.amount, 0);

  const fill = (order: DesiredOrder, at: number) => {
    const before = state.position.amount;
    const f: Fill = { clientOrderId: order.clientOrderId, fillId: `f${++seq}`, price: at, amount: order.amount, fee: roundMoney(at * order.amount * FEE) };
    const r = processFill(state, f);
    for (const e of r.effects) {
      if (e.type === 'BuyFilled') {
        flows.buys += e.price * e.amount;
        flows.fees += e.fee;
      }
      if (e.type === 'TakeProfitFilled' || e.type === 'StopLossFilled') {
        expect(e.amount).toBeLessThanOrEqual(before + 1e-12); // never sells more than it holds
        flows.sells += e.price * e.amount;
        flows.fees += e.fee;
      }
    }
    state = r.state;
    expect(state.position.amount).toBeLessThanOrEqual(ladderTotal() + 1e-9); // never holds more than its ladder
    if (state.position.amount === 0) expect(Math.abs(state.profit - (flows.sells - flows.buys - flows.fees))).toBeLessThan(1e-6);
  };

  for (const move of moves) {
    price = Math.max(1, roundMoney(price + move / 10));
    // resting limits cross first (a buy at or above the price, the take-profit at or below it)
    for (let i = 0; i < 20; i++) {
      const crossing = activeOrders(config, rules, state).find((o) => (o.side === 'buy' ? price <= o.price : price >= o.price));
      if (!crossing) break;
      fill(crossing, crossing.price);
    }
    const d = decidePrice(config, rules, state, price, peak);
    if (d.type === 'stop-loss' || d.type === 'trail-sell' || d.type === 'reanchor') seen[d.type]++;
    if (d.type === 'stop-loss') {
      expect(price).toBeLessThanOrEqual(d.level);
      state = beginStopLoss(state, price, d.level);
      const sell = stopLossSell(config, rules, state);
      if (sell) fill(sell, price);
      expect(stopLossDoneReason(rules, state)).not.toBeNull();
      expect(activeOrders(config, rules, state)).toEqual([]); // nothing rests after a stop-loss
      break; // the bot stops
    }
    if (d.type === 'trail' || d.type === 'none') peak = d.peak;
    if (d.type === 'trail-sell') {
      expect(price).toBeLessThanOrEqual(floorToStep(d.peak * (1 - (config.trailingDeviation ?? 0) / 100), rules.priceStep));
      fill(d.order, price);
      peak = null;
    }
    if (d.type === 'reanchor') {
      expect(state.position.amount).toBe(0);
      expect(d.to).toBeGreaterThan(d.from);
      if (config.reanchorLimit !== undefined) expect(d.to).toBeLessThanOrEqual(config.reanchorLimit);
      state = reanchorBook(state, config, rules, d.to);
      expect(state.levels[0].price).toBe(d.to);
    }
    if (!positive(config.trailingDeviation)) {
      // without trailing the take-profit rests as the spec's
      expect(activeOrders(config, rules, state).filter((o) => o.role === 'take-profit').length).toBe(state.tp && state.position.amount > 0 ? 1 : 0);
    } else {
      expect(activeOrders(config, rules, state).some((o) => o.role === 'take-profit')).toBe(false);
    }
  }
  return state;
}

const positive = (x: number | undefined) => x !== undefined && x > 0;

describe('risk settings: properties along any price path', () => {
  it('never holds more than the ladder, never oversells, profit = sells − buys − fees when flat', () => {
    fc.assert(fc.property(configArb, pathArb, (config, moves) => void run(config, moves)), { numRuns: 400 });
    for (const [what, n] of Object.entries(seen)) expect([what, n > 10]).toEqual([what, true]);
  });

  it('the ladder, the cost and the preview use the same rungs: every rung is rungPrice/rungSize rounded down', () => {
    fc.assert(
      fc.property(configArb, (config) => {
        const ladder = buildLadder(config, rules);
        ladder.forEach((l, i) => {
          expect(l.price).toBe(floorToStep(rungPrice(config, i), rules.priceStep));
          expect(l.amount).toBe(floorToStep(rungSize(config, i), rules.amountStep));
          if (i > 0) {
            expect(l.price).toBeLessThan(ladder[i - 1].price);
            expect(l.amount).toBeGreaterThanOrEqual(ladder[i - 1].amount);
          }
        });
      }),
      { numRuns: 300 },
    );
  });
});
