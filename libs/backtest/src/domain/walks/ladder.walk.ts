/** The ladder's backtest walk (long and short, trailing down): backtest.engine.ts. The walk table's fallback. */
import type { BotConfig } from '@gridrocket/bots';
import type { GridConfig } from '@gridrocket/trading/grid';
import { runBacktest } from '../backtest.engine';
import type { BacktestWalk, LadderCore } from './backtest-walk';

/** The ladder's grid of a backtest body's bot: long, or short by its direction; with its trailing down (issue 32: the backtest trades it too). */
export function ladderGrid(bot: BotConfig, core: LadderCore): GridConfig {
  return {
    ...core,
    ...(bot.direction === 'short' ? { direction: 'short' as const } : {}),
    ...(bot.trailDownLimit !== undefined ? { trailDownLimit: bot.trailDownLimit } : {}),
  };
}

export const ladderWalk: BacktestWalk<GridConfig> = {
  styles: ['long', 'short'],
  owns: (g): g is GridConfig => true,
  styleOf: (g) => (g.direction === 'short' ? 'short' : 'long'),
  marketProblem: (style, market) => (market === 'spot' && style === 'short' ? `style ${style} applies to futures only: a spot grid buys the coin it sells` : null),
  rungs: (g) => (Number.isFinite(g.numOfOrders) ? Math.max(0, g.numOfOrders) : 0),
  hasTakeProfit: () => true,
  sweepGrid(base, style, interval, numOfOrders, takeProfit) {
    const core = { botType: base.botType, numOfOrders, orderSize: base.orderSize, interval, entryPrice: base.entryPrice, takeProfit, leverage: base.leverage };
    if (style === 'short') return { ...core, direction: 'short' };
    return { ...core, ...(base.trailDownLimit !== undefined && base.style === 'long' ? { trailDownLimit: base.trailDownLimit } : {}) };
  },
  fromLadderBot: ladderGrid,
  run: (series, params) => runBacktest(series, params),
};
