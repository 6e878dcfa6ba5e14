/**
 * The ladder of buys: `entryPrice − i·interval` for i = 0 … numOfOrders−1, each a limit buy of
 * `orderSize` (or, with the optional spacing/sizeScale of issue 14, the rungs of spacing.ts), the price rounded DOWN to the market's price step (never pay more than configured) and
 * the amount rounded DOWN to its amount step (never spend more than configured).
 * A short grid (issue 32, direction.ts) is a ladder of sells `entryPrice + i·interval`, the price
 * rounded UP (never sell for less than configured), the amount rounded down as well.
 * validateGrid says in words why a configuration cannot trade on a market.
 */
import { ladderCost } from './cost';
import { ceilToStep, floorToStep, roundMoney } from './decimal';
import { directionOf, directionProblem } from './direction';
import { rungPrice, rungSize, spacingProblem } from './spacing';
import { riskProblem } from './risk-settings';
import type { GridConfig, GridValidation, LadderLevel, MarketRules } from './grid.types';

/** Upper bound on ladder length the engine accepts (the dashboard allows 2 digits). */
export const MAX_GRID_ORDERS = 1000;

/** Prices and amounts of the ladder, without validation (levels may be ≤ 0 or below minimums). */
export function buildLadder(config: GridConfig, rules: MarketRules): LadderLevel[] {
  const ladder: LadderLevel[] = [];
  const round = directionOf(config) === 'short' ? ceilToStep : floorToStep;
  for (let i = 0; i < config.numOfOrders; i++) {
    ladder.push({ index: i, price: round(rungPrice(config, i), rules.priceStep), amount: floorToStep(rungSize(config, i), rules.amountStep) });
  }
  return ladder;
}

/** Shortest readable form of a number for messages (no float noise). */
function fmt(x: number): string {
  return String(Number(x.toPrecision(12)));
}

function positive(x: unknown): x is number {
  return typeof x === 'number' && Number.isFinite(x) && x > 0;
}

function configProblem(config: GridConfig): string | null {
  if (config.botType !== 'Spot' && config.botType !== 'Futures') {
    return `Bot type must be Spot or Futures (got ${String(config.botType)})`;
  }
  const direction = directionProblem(config);
  if (direction) return direction;
  const n = config.numOfOrders;
  if (!Number.isInteger(n) || n < 1 || n > MAX_GRID_ORDERS) {
    return `The number of orders must be a whole number from 1 to ${MAX_GRID_ORDERS} (got ${String(n)})`;
  }
  const fields: [keyof GridConfig, string][] = [
    ['orderSize', 'Order size'],
    ['interval', 'Price interval'],
    ['entryPrice', 'Entry price'],
    ['takeProfit', 'Take profit'],
  ];
  for (const [key, label] of fields) {
    if (!positive(config[key])) return `${label} must be a number greater than 0 (got ${String(config[key])})`;
  }
  if (config.botType === 'Spot' && config.leverage !== 1) {
    return `A spot bot trades without leverage: leverage must be 1 (got ${String(config.leverage)})`;
  }
  if (!positive(config.leverage) || config.leverage < 1) {
    return `Leverage must be a number of at least 1 (got ${String(config.leverage)})`;
  }
  return spacingProblem(config) ?? riskProblem(config);
}

function rulesProblem(rules: MarketRules): string | null {
  if (!positive(rules.priceStep)) return `The market's price step must be greater than 0 (got ${String(rules.priceStep)})`;
  if (!positive(rules.amountStep)) return `The market's amount step must be greater than 0 (got ${String(rules.amountStep)})`;
  if (!(Number.isFinite(rules.minNotional) && rules.minNotional >= 0)) {
    return `The market's minimum order value must be 0 or more (got ${String(rules.minNotional)})`;
  }
  if (rules.minAmount !== undefined && !(Number.isFinite(rules.minAmount) && rules.minAmount >= 0)) {
    return `The market's minimum amount must be 0 or more (got ${String(rules.minAmount)})`;
  }
  return null;
}

/**
 * Checks a configuration against a market and returns the ladder and its cost
 * (Σ amount·price ÷ leverage on the rounded ladder), or the first reason it cannot trade.
 */
export function validateGrid(config: GridConfig, rules: MarketRules): GridValidation {
  const problem = configProblem(config) ?? rulesProblem(rules);
  if (problem) return { ok: false, reason: problem };

  const n = config.numOfOrders;
  const amount = floorToStep(config.orderSize, rules.amountStep);
  if (amount <= 0) {
    return {
      ok: false,
      reason: `Order size ${fmt(config.orderSize)} rounds down to 0 at the market's amount step of ${fmt(rules.amountStep)}`,
    };
  }
  if (rules.minAmount !== undefined && amount < rules.minAmount) {
    return {
      ok: false,
      reason: `Order size ${fmt(amount)} is below the market's minimum amount of ${fmt(rules.minAmount)}`,
    };
  }

  const ladder = buildLadder(config, rules);
  const short = directionOf(config) === 'short';
  const verb = short ? 'sell' : 'buy';
  for (const level of ladder) {
    const k = level.index + 1;
    const raw = rungPrice(config, level.index);
    const inputs = `(entry ${fmt(config.entryPrice)}, interval ${fmt(config.interval)}${config.spacing === 'percent' ? ' %' : ''}${short ? ', short' : ''})`;
    if (level.amount <= 0 || (rules.minAmount !== undefined && level.amount < rules.minAmount)) {
      return { ok: false, reason: `Order ${k} of ${n} would ${verb} ${fmt(level.amount)}, below the market's minimum amount` };
    }
    if (raw <= 0) {
      return {
        ok: false,
        reason: `Order ${k} of ${n} would be priced at or below zero: ${fmt(config.entryPrice)} − ${level.index} × ${fmt(config.interval)} = ${fmt(raw)} ${inputs}`,
      };
    }
    if (!Number.isFinite(level.price)) return { ok: false, reason: `Order ${k} of ${n} would be priced beyond any number ${inputs}` };
    if (level.price <= 0) {
      return {
        ok: false,
        reason: `Order ${k} of ${n} would be priced at 0 after rounding ${fmt(raw)} down to the market's price step of ${fmt(rules.priceStep)} ${inputs}`,
      };
    }
    if (level.index > 0 && level.price === ladder[level.index - 1].price) {
      return {
        ok: false,
        reason: `Orders ${k - 1} and ${k} would both be priced at ${fmt(level.price)}: the interval ${fmt(config.interval)} is too small for the market's price step of ${fmt(rules.priceStep)}`,
      };
    }
    const notional = roundMoney(level.price * level.amount);
    if (notional < rules.minNotional) {
      return {
        ok: false,
        reason: `Order ${k} of ${n} would be worth ${fmt(notional)} (${fmt(level.amount)} × ${fmt(level.price)}), below the market's minimum order value of ${fmt(rules.minNotional)}`,
      };
    }
  }
  return { ok: true, ladder, cost: ladderCost(ladder, config.leverage) };
}
