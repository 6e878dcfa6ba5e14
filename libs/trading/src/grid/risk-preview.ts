/**
 * What the dashboard and the API show of a bot's risk settings (issue 14), pure: the ladder with the
 * settings' spacing and sizes, its cost, the stop-loss level and the trailing activation for a given
 * position (or, before anything is held, for the full ladder), and on futures the liquidation price of
 * the full ladder at the bot's leverage. The same functions as the engine and the start check
 * (spacing.ts, liquidation.ts), so the preview says what the server will do.
 */
import { ladderCost } from './cost';
import { ceilToStep, floorToStep, roundMoney } from './decimal';
import { ladderLiquidation, liquidationProblem, type MaintenanceTier } from './liquidation';
import { buildLadder } from './ladder';
import { takeProfitPrice } from './grid.engine';
import { directionOf } from './direction';
import type { GridConfig, LadderLevel, MarketRules } from './grid.types';

/** Rules for a preview when the market's are not at hand: cents and tiny amounts (display only). */
export const PREVIEW_RULES: MarketRules = { priceStep: 0.01, amountStep: 1e-8, minNotional: 0 };

export interface RiskPreview {
  ladder: LadderLevel[];
  cost: number;
  /** Average entry once every rung filled. */
  fullAverage: number;
  /** The stop-loss level for `position` (or the full ladder), null when none is set. */
  stopLoss: number | null;
  /** Trailing: where following starts (the take-profit level) and the deviation, null when off. */
  trailing: { activation: number; deviation: number } | null;
  /** Futures: the liquidation price once the full ladder filled, and the reason a start is refused. */
  liquidation: number | null;
  liquidationRefusal: string | null;
}

export function riskPreview(
  config: GridConfig,
  rules: MarketRules = PREVIEW_RULES,
  tiers?: readonly MaintenanceTier[],
  position?: { amount: number; averageEntry: number },
): RiskPreview {
  const ladder = buildLadder(config, rules).filter((l) => l.price > 0 && l.amount > 0);
  const amount = ladder.reduce((s, l) => s + l.amount, 0);
  const fullAverage = amount > 0 ? roundMoney(ladder.reduce((s, l) => s + l.amount * l.price, 0) / amount) : 0;
  const entry = position && position.amount > 0 ? position.averageEntry : fullAverage;
  const direction = directionOf(config);
  let stopLoss: number | null = null;
  if (config.stopLossPercent !== undefined && config.stopLossPercent > 0) {
    stopLoss = direction === 'short' ? ceilToStep(entry * (1 + config.stopLossPercent / 100), rules.priceStep) : floorToStep(entry * (1 - config.stopLossPercent / 100), rules.priceStep);
  }
  else if (config.stopLossPrice !== undefined && config.stopLossPrice > 0) stopLoss = config.stopLossPrice;
  const trailing =
    config.trailingDeviation !== undefined && config.trailingDeviation > 0 && entry > 0
      ? { activation: takeProfitPrice(position && position.amount > 0 ? position.averageEntry : ladder[0]?.price ?? entry, config.takeProfit, rules.priceStep, direction), deviation: config.trailingDeviation }
      : null;
  const futures = config.botType === 'Futures' && tiers !== undefined && ladder.length > 0;
  return {
    ladder,
    cost: ladderCost(ladder, config.leverage),
    fullAverage,
    stopLoss,
    trailing,
    liquidation: futures ? ladderLiquidation(ladder, config.leverage, tiers, direction).fullLadder : null,
    liquidationRefusal: futures ? liquidationProblem(ladder, config.leverage, tiers, direction) : null,
  };
}
