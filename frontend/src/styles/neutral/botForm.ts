/**
 * The neutral grid in the bot form (issue 32, 40): a futures Direction, set by its reference, lines and
 * interval (no price range), checked as its two halves (the buys below and the sells above the reference,
 * as the server does), with its stops in place of the advanced settings and no take profit of its own.
 */
import { gridHalves, ladderCostOf, marketFieldErrors, type BotFieldErrors, type GridNumbers } from '@gridrocket/bots/domain/bot-market.rules';
import type { Bot } from '../../api/types';
import { plain, usdt } from '../../bots/format';
import type { StyleForm } from '../form';
import { NeutralPreview } from './Preview';
import { NEUTRAL_STOPS } from './Stops';

const halves = (g: GridNumbers): GridNumbers[] => gridHalves({ ...g, direction: 'neutral' as const });

export const NEUTRAL_FORM: StyleForm = {
  offer: { futures: { label: 'Neutral (buys and sells)' } },
  // its stops: below its lowest buy, above its highest sell (an edited bot's; a template's or copy's)
  values: {
    of: (bot?: Bot) => ({ below: bot?.stoplossprice !== undefined ? String(bot.stoplossprice) : '', above: bot?.stoplosspriceabove !== undefined ? String(bot.stoplosspriceabove) : '' }),
    fromTemplate: (t) => ({ below: t.direction === 'neutral' && t.stopLossPrice !== undefined ? plain(t.stopLossPrice) : '', above: t.stopLossPriceAbove !== undefined ? plain(t.stopLossPriceAbove) : '' }),
  },
  entryHint: 'The reference: buys below it, sells above it',
  ladder: {
    range: false,
    hints: { numOfOrders: 'Orders on each side: that many buys below and sells above', interval: 'USDT between lines: a fill is answered one line away' },
    marketErrors(grid, rules, available, context) {
      // (its take profit is not its own: not held to the fees, issue 40, as the server's market check; the
      // halves' cost is checked together, against the balance)
      const limits = { ...rules, makerFee: undefined };
      const both = halves(grid);
      const market = both.map((h) => marketFieldErrors(h, limits, null, context)).reduceRight((a, b) => ({ ...a, ...b }), {} as BotFieldErrors);
      if (!market.entryPrice) {
        const step = limits.priceStep;
        const k = step > 0 ? grid.entryPrice / step : 0;
        if (step > 0 && Math.abs(k - Math.round(k)) > 1e-9 * Math.max(1, k)) market.entryPrice = `Entry Price must be a multiple of ${step} (the market's price step)`;
      }
      if (available !== null && both.length === 2 && !market.numOfOrders) {
        const cost = both.reduce((t, h) => t + ladderCostOf(h), 0);
        if (cost > available) market.numOfOrders = `The grid's buys and sells cost ${Number(cost.toPrecision(12))} USDT, more than the ${usdt(available)} USDT available`;
      }
      return market;
    },
    // its buys above or its sells below the market would fill at once; it costs both halves
    ladders: halves,
    Preview: NeutralPreview,
    stops: NEUTRAL_STOPS,
  },
};
