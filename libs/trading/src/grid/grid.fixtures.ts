/**
 * Test helpers for the grid engine specs (not exported from index.ts).
 * `fillOf` builds a fill of a desired order; `TestExchange` is a tiny model of an exchange's book
 * that executes desired orders, so specs read as market stories.
 */
import { fromSteps, roundMoney } from './decimal';
import { applyFill, desiredOrders, processFill } from './grid.engine';
import type { DesiredOrder, Fill, FillEffect, GridConfig, GridState, MarketRules } from './grid.types';

export const FEE_RATE = 0.001; // 0.1 % of notional, in quote

export const spotConfig: GridConfig = {
  botType: 'Spot',
  numOfOrders: 5,
  orderSize: 1,
  interval: 1,
  entryPrice: 100,
  takeProfit: 1,
  leverage: 1,
};

export const rules: MarketRules = { priceStep: 0.01, amountStep: 0.001, minNotional: 5 };

export function feeOf(price: number, amount: number, rate = FEE_RATE): number {
  return roundMoney(price * amount * rate);
}

let fillCounter = 0;
/** A fill of `order` (all of what rests, unless `amount` is given) at its limit price. */
export function fillOf(order: DesiredOrder, opts: { amount?: number; fillId?: string; rate?: number } = {}): Fill {
  const amount = opts.amount ?? order.amount;
  return {
    clientOrderId: order.clientOrderId,
    fillId: opts.fillId ?? `t${++fillCounter}`,
    price: order.price,
    amount,
    fee: feeOf(order.price, amount, opts.rate),
  };
}

export function buyAt(config: GridConfig, r: MarketRules, state: GridState, level: number): DesiredOrder {
  const order = desiredOrders(config, r, state).find((o) => o.role === 'buy' && o.level === level);
  if (!order) throw new Error(`no desired buy at level ${level}`);
  return order;
}

export function takeProfitOf(config: GridConfig, r: MarketRules, state: GridState): DesiredOrder {
  const order = desiredOrders(config, r, state).find((o) => o.role === 'take-profit');
  if (!order) throw new Error('no desired take-profit');
  return order;
}

/** Fills the buys of the given levels one after another (price falling through them). */
export function priceFallsThrough(config: GridConfig, r: MarketRules, state: GridState, levels: number[]): { state: GridState; fills: Fill[] } {
  const fills: Fill[] = [];
  for (const level of levels) {
    const fill = fillOf(buyAt(config, r, state, level));
    fills.push(fill);
    state = applyFill(state, fill);
  }
  return { state, fills };
}

/** Applies fills through processFill and collects the effects. */
export function run(state: GridState, fills: Fill[]): { state: GridState; effects: FillEffect[] } {
  const effects: FillEffect[] = [];
  for (const fill of fills) {
    const r = processFill(state, fill);
    state = r.state;
    effects.push(...r.effects);
  }
  return { state, effects };
}

export function units(amount: number, step: number): number {
  return Math.round(amount / step);
}

export { fromSteps };
