/** The infinity spot grid's backtest walk (infinity.backtest.ts; figures: styles.ts's comment). */
import { parseInfinityBot } from '@gridrocket/bots';
import { floorToStep, roundMoney, type MarketRules } from '@gridrocket/trading/grid';
import type { InfinityConfig } from '@gridrocket/trading/styles/infinity';
import { EquityWalk } from '../equity-walk';
import { runInfinityBacktest } from './infinity.backtest';
import type { StyledGrid } from '../styled.types';
import { feeTerms, type BacktestWalk } from './backtest-walk';

/**
 * The infinity grid's capital: its initial buy plus one step's value for each step down from the entry
 * (each a step below the last, rounded down to the price step, as stepOrders prices them) that is not
 * below the lower price. Gaps that fill at the market can buy a step more; this is the plan's figure.
 */
export function infinityCapital(config: InfinityConfig, rules: MarketRules): number {
  let price = floorToStep(config.entryPrice, rules.priceStep);
  let steps = 0;
  for (let k = 0; k < 100_000; k++) {
    const next = floorToStep(price * (1 - config.stepPercent / 100), rules.priceStep);
    if (!(next >= config.lowerPrice) || next >= price) break;
    steps++;
    price = next;
  }
  return roundMoney(config.initialQuote + steps * config.quoteValue);
}

export const infinityWalk: BacktestWalk<InfinityConfig> = {
  styles: ['infinity'],
  owns: (g: StyledGrid): g is InfinityConfig => (g as InfinityConfig).style === 'infinity',
  styleOf: () => 'infinity',
  marketProblem: (style, market) => (market === 'futures' ? `style ${style} applies to spot only: an infinity grid sells and buys the coin itself` : null),
  rungs: () => 2,
  hasTakeProfit: () => false,
  // a backtest body with `style: 'infinity'` has the infinity bot's fields, rules and messages (libs/bots' infinity rules), for backtests only
  body: {
    style: 'infinity',
    parse(body) {
      const bot = parseInfinityBot(body);
      const config: InfinityConfig = {
        style: 'infinity',
        botType: 'Spot',
        entryPrice: bot.entryPrice,
        stepPercent: bot.stepPercent,
        quoteValue: bot.quoteValue,
        lowerPrice: bot.lowerPrice,
        initialQuote: bot.initialQuote,
      };
      return { exchange: bot.exchange, market: 'spot', symbol: bot.symbol, config };
    },
    // a sweep tries the ladder's settings: its base body is the ladder's
    sweepProblem: "A sweep tries the ladder's settings (interval, numOfOrders, takeProfit): send the ladder's fields and compare the infinity grid with styles, e.g. ['long', 'infinity']",
  },
  // the ladder's settings of the cell: the same entry, a step of one interval (as a percent of the entry),
  // one order's value a step, and no buy below the ladder's lowest rung (sweep.ts's comment)
  sweepGrid(base, _style, interval, numOfOrders) {
    const quoteValue = roundMoney(base.orderSize * base.entryPrice);
    return {
      style: 'infinity',
      botType: 'Spot',
      entryPrice: base.entryPrice,
      stepPercent: roundMoney((interval / base.entryPrice) * 100),
      quoteValue,
      lowerPrice: roundMoney(base.entryPrice - (numOfOrders - 0.5) * interval),
      initialQuote: quoteValue,
    };
  },
  run(series, params) {
    const { config, rules } = params;
    const n = series.length;
    const capital = infinityCapital(config, rules);
    const walk = new EquityWalk(capital, series, params.curvePoints);
    const r = runInfinityBacktest(series, { ...feeTerms(params), config, rules, observer: walk, recordFills: params.recordFills });
    return {
      style: 'infinity',
      candles: n, from: series.time[0], to: series.time[n - 1], capital,
      profit: r.profit, unrealised: r.unrealised, fees: r.fees, cycles: r.stepsUp, stepsUp: r.stepsUp, stepsDown: r.stepsDown, fills: r.fills, trails: 0,
      ...walk.figures(roundMoney(capital + r.profit + r.unrealised), params.feeBps),
      position: r.position,
      ...(r.fillLog ? { fillLog: r.fillLog } : {}),
    };
  },
};
