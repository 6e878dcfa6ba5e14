/**
 * A toy grid (issue 42's test style): one order at a time. It buys `orderSize` at the entry; once that
 * buy has filled it sells what it bought `interval` above the entry; once that sell has filled it buys
 * again, a cycle later. Pure: the style (toy.style.ts) and its backtest walk (toy.walk.ts) both run it.
 * Its ids are `gr-<hash>-<cycle>-tb` (the buy) and `…-ts` (the sell).
 */
import { clientOrderIdPrefix, floorToStep, roundMoney, type DesiredOrder, type Fill, type MarketRules } from '@gridrocket/trading/grid';

export interface ToyConfig {
  style: 'toy';
  botType: 'Spot' | 'Futures';
  entryPrice: number;
  interval: number;
  orderSize: number;
  leverage: number;
}

export interface ToyState {
  botId: string;
  cycle: number;
  /** What the cycle's buy has bought (amount, its cost and fees). */
  held: { amount: number; cost: number; buyFees: number };
  /** What the cycle's sell has sold of it. */
  sold: number;
  sellValue: number;
  sellFees: number;
  processedFillIds: string[];
}

export type ToyEffect = { type: 'ToyBought' | 'ToySold'; fill: Fill; cycle: number; profit: number };

const ID = /^gr-([0-9a-z]{8})-([1-9]\d*)-(tb|ts)$/;
export const parseToyOrderId = (id: string) => {
  const m = ID.exec(id);
  return m ? { cycle: Number(m[2]), side: m[3] === 'tb' ? ('buy' as const) : ('sell' as const) } : null;
};

export const toyBuyAmount = (c: ToyConfig, rules: MarketRules) => floorToStep(c.orderSize, rules.amountStep);
export const toyBuyPrice = (c: ToyConfig, rules: MarketRules) => floorToStep(c.entryPrice, rules.priceStep);
export const toySellPrice = (c: ToyConfig, rules: MarketRules) => floorToStep(c.entryPrice + c.interval, rules.priceStep);

export function toyProblem(c: ToyConfig, rules: MarketRules): string | null {
  const amount = toyBuyAmount(c, rules);
  if (!(amount > 0) || amount * toyBuyPrice(c, rules) < rules.minNotional) return `A toy order of ${c.orderSize} at ${c.entryPrice} is below the market's minimum order`;
  return null;
}

export function toyInitialState(botId: string, cycle = 1): ToyState {
  return { botId, cycle, held: { amount: 0, cost: 0, buyFees: 0 }, sold: 0, sellValue: 0, sellFees: 0, processedFillIds: [] };
}

const buying = (c: ToyConfig, rules: MarketRules, s: ToyState) => s.held.amount < toyBuyAmount(c, rules) - 1e-12;

export function toyDesiredOrders(c: ToyConfig, rules: MarketRules, s: ToyState): DesiredOrder[] {
  const prefix = clientOrderIdPrefix(s.botId);
  const base = { type: 'limit' as const, reduceOnly: false, cycle: s.cycle, level: 0, tpSeq: s.cycle };
  if (buying(c, rules, s)) return [{ ...base, clientOrderId: `${prefix}${s.cycle}-tb`, role: 'buy', side: 'buy', price: toyBuyPrice(c, rules), amount: toyBuyAmount(c, rules) }];
  return [{ ...base, clientOrderId: `${prefix}${s.cycle}-ts`, role: 'take-profit', side: 'sell', price: toySellPrice(c, rules), amount: s.held.amount }];
}

/** One fill: a buy adds to what the cycle holds; a sell that sells all of it realises the cycle and starts the next. */
export function processToyFill(c: ToyConfig, rules: MarketRules, s: ToyState, f: Fill): { state: ToyState; effects: ToyEffect[] } {
  const id = parseToyOrderId(f.clientOrderId);
  if (!id || id.cycle !== s.cycle || s.processedFillIds.includes(f.fillId)) return { state: s, effects: [] };
  const processedFillIds = [...s.processedFillIds, f.fillId];
  if (id.side === 'buy') {
    const held = { amount: roundMoney(s.held.amount + (f.netAmount ?? f.amount)), cost: roundMoney(s.held.cost + f.price * f.amount), buyFees: roundMoney(s.held.buyFees + f.fee) };
    return { state: { ...s, held, processedFillIds }, effects: [{ type: 'ToyBought', fill: f, cycle: s.cycle, profit: 0 }] };
  }
  const sold = roundMoney(s.sold + f.amount);
  const sellValue = roundMoney(s.sellValue + f.price * f.amount);
  const sellFees = roundMoney(s.sellFees + f.fee);
  if (sold < s.held.amount - 1e-12) return { state: { ...s, sold, sellValue, sellFees, processedFillIds }, effects: [{ type: 'ToySold', fill: f, cycle: s.cycle, profit: 0 }] };
  const profit = roundMoney(sellValue - sellFees - s.held.cost - s.held.buyFees);
  const next = { ...toyInitialState(s.botId, s.cycle + 1), processedFillIds };
  void c;
  void rules;
  return { state: next, effects: [{ type: 'ToySold', fill: f, cycle: s.cycle, profit }] };
}
