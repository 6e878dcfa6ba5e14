import { marginTiers } from '@gridrocket/exchanges/venues';
import { liquidationDistance, LIQUIDATION_WARNING_PERCENT } from '@gridrocket/trading/grid';
import type { Bot, BotSummary } from '../api/types';
import { usdt } from './format';

/**
 * Issue 40 (docs/risk.md "Futures risk"): a futures bot's page says where its held position would be
 * liquidated (isolated margin, the venue's tiers: the runner's own function, liquidation-stops.ts) and
 * warns when the last price is within LIQUIDATION_WARNING_PERCENT of it (the runner records LiquidationNear
 * and the `liquidationNear` alert then). Cross margin: the whole futures balance backs it, not computed here.
 */
export function LiquidationWarning({ bot, summary }: { bot: Bot; summary: BotSummary | undefined }) {
  if (bot.bottype !== 'Futures' || !summary || !summary.position || summary.averageEntry == null || summary.lastPrice == null) return null;
  if ((bot as { marginmode?: string }).marginmode === 'cross') return null;
  const signed = bot.direction === 'short' && summary.position > 0 ? -summary.position : summary.position;
  const d = liquidationDistance(signed, summary.averageEntry, bot.leverage ?? 1, summary.lastPrice, marginTiers(bot.exchange, bot.symbol).tiers);
  if (!d) return null;
  const near = d.distancePercent <= LIQUIDATION_WARNING_PERCENT;
  return (
    <p className={near ? 'form-warning' : 'muted'} role={near ? 'alert' : undefined} data-testid={near ? 'liquidation-warning' : 'liquidation-price'}>
      {near ? 'Near liquidation: ' : ''}the {d.side} position would be liquidated at <strong>{usdt(d.liquidation)} USDT</strong> (isolated, {bot.leverage ?? 1}×); the last price {usdt(summary.lastPrice)} USDT is {d.distancePercent} % away
      {near ? `, within ${LIQUIDATION_WARNING_PERCENT} %. Lower the position or stop the bot with a close before the exchange liquidates it.` : '.'}
    </p>
  );
}
