import type { Bot, ChartData } from '../api/types';
import { rungPrice } from '@gridrocket/trading/grid';
import { takeProfitPrice } from './format';

/**
 * The buy ladder and take-profit of a bot, from its own settings, for when the runner has no levels
 * yet. The runner sells the whole filled position at averageEntry × (1 + takeProfit/100); before any
 * fill the best guess of the average entry is the entry price, so that is where TP is drawn.
 */
export function ladderFromBot(bot: Bot): ChartData['levels'] {
  const n = Math.max(0, Math.min(99, Math.floor(Number(bot.numoforders))));
  const levels: ChartData['levels'] = [];
  for (let i = 0; i < n; i++) {
    // the engine's own rungs (issue 14: percent spacing when the bot has it)
    const price = rungPrice({ entryPrice: Number(bot.entryprice), interval: Number(bot.interval), spacing: (bot as { spacing?: 'absolute' | 'percent' }).spacing }, i);
    if (price > 0) levels.push({ price, kind: 'buy', status: 'open' });
  }
  const tp = takeProfitPrice(bot.entryprice, bot.takeprofit);
  if (levels.length > 0 && tp !== null) levels.push({ price: tp, kind: 'take-profit', status: 'open' });
  return levels;
}
