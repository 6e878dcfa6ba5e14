import type { Bot, ChartData } from '../api/types';
import { gridHalves, rungPrice } from '@gridrocket/trading/grid';
import { takeProfitPrice } from './format';
import { directionOf, wordsOf } from '../styles/registry';

/**
 * The ladder and take-profit of a bot, from its own settings, for when the runner has no levels yet. The
 * runner sells the whole filled position at averageEntry × (1 + takeProfit/100); before any fill the best
 * guess of the average entry is the entry price, so that is where TP is drawn. A short's rungs are sells
 * rising from the entry and its take-profit buys back below (issue 32, 40); a neutral grid has its buys
 * below the reference and its sells above, and no take-profit (its answers come with the fills).
 */
export function ladderFromBot(bot: Bot): ChartData['levels'] {
  const n = Math.max(0, Math.min(99, Math.floor(Number(bot.numoforders))));
  const direction = directionOf(bot);
  const spacing = (bot as { spacing?: 'absolute' | 'percent' }).spacing;
  const levels: ChartData['levels'] = [];
  for (const half of gridHalves({ entryPrice: Number(bot.entryprice), interval: Number(bot.interval), spacing, direction })) {
    for (let i = 0; i < n; i++) {
      // the engine's own rungs (issue 14: percent spacing when the bot has it)
      const price = rungPrice(half, i);
      if (price > 0) levels.push({ price, kind: 'buy', status: 'open', side: half.direction === 'short' ? 'sell' : 'buy' });
    }
  }
  if (!wordsOf(direction).takeProfit) return levels.sort((a, b) => b.price - a.price);
  const tp = takeProfitPrice(bot.entryprice, bot.takeprofit, direction === 'short' ? 'short' : 'long');
  if (levels.length > 0 && tp !== null) levels.push({ price: tp, kind: 'take-profit', status: 'open', side: direction === 'short' ? 'buy' : 'sell' });
  return levels;
}
