/**
 * The futures bot's risk rules (issue 40 point 3, docs/risk.md), pure and shared with the form:
 * - `futuresRiskErrors`: a stop-loss beyond the liquidation price is refused at create and edit, for
 *   long, short and neutral grids, with both prices named (libs/trading grid/liquidation-stops.ts; the
 *   venue's maintenance margin tiers, @gridrocket/exchanges/venues marginTiers). Checked on isolated
 *   margin; on cross the liquidation price depends on the whole futures wallet (docs/risk.md).
 * - `marginMode` (isolated, the default, or cross): chosen per futures bot, set on the venue before the
 *   bot's first order (the runner, bot-setup.ts prepareFutures).
 */
import type { BotType, FieldError } from '@gridrocket/shared';
import { marginTiers } from '@gridrocket/exchanges/venues';
import { PREVIEW_RULES, stopsBeyondLiquidation, type GridConfig, type MarketRules } from '@gridrocket/trading/grid';
import type { BotConfig } from './bot.events';
import { botStyleOf } from '../styles/registry';

export const MARGIN_MODES = ['isolated', 'cross'] as const;
export type BotMarginMode = (typeof MARGIN_MODES)[number];
export const MARGIN_MODE_SPOT_MESSAGE = 'marginMode applies to futures bots only';

/** The stops of a futures bot that lie beyond its liquidation price, as field messages (the market's rules when known). */
export function futuresRiskErrors(botType: BotType, config: Omit<BotConfig, 'leverage'> & { leverage?: number }, rules?: Pick<MarketRules, 'priceStep' | 'amountStep' | 'minNotional'> | null): FieldError[] {
  // a style that trades spot only (BotStyle.onlyBotType: the infinity grid) has no futures stops to check
  if (botType !== 'Futures' || botStyleOf({ style: config.style })?.onlyBotType?.botType === 'Spot' || config.marginMode === 'cross') return [];
  const grid = { ...config, botType: 'Futures', leverage: config.leverage ?? 1 } as unknown as GridConfig & { stopLossPriceAbove?: number };
  const r = rules && rules.priceStep > 0 && rules.amountStep > 0 ? { priceStep: rules.priceStep, amountStep: rules.amountStep, minNotional: rules.minNotional } : PREVIEW_RULES;
  try {
    return stopsBeyondLiquidation(grid, r, marginTiers(config.exchange, config.symbol).tiers).map((f) => ({ field: f.field, message: f.message }));
  } catch {
    return []; // a grid the other checks refuse (their messages say why)
  }
}
