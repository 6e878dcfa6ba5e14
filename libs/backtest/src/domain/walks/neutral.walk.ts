/** The neutral futures grid's backtest walk (neutral.backtest.ts; figures: styles.ts's comment). */
import { floorToStep, roundMoney, type MarketRules } from '@gridrocket/trading/grid';
import { neutralLinePrices, type NeutralGridConfig, type NeutralState } from '@gridrocket/trading/styles/neutral';
import { candleAt } from '../candle';
import { EquityWalk } from '../equity-walk';
import { runNeutralBacktest } from './neutral.backtest';
import type { StyledGrid } from '../styled.types';
import { feeTerms, type BacktestWalk } from './backtest-walk';

/** The neutral grid's capital: the margin of its larger side at the full position, max(Σ buys, Σ sells) × size ÷ leverage. */
export function neutralCapital(config: NeutralGridConfig, rules: MarketRules): number {
  const n = config.numOfOrders;
  const prices = neutralLinePrices(config, rules);
  const size = floorToStep(config.orderSize, rules.amountStep);
  let buys = 0;
  let sells = 0;
  for (let l = 0; l < n; l++) buys += prices[l];
  for (let l = n + 1; l <= 2 * n; l++) sells += prices[l];
  return roundMoney((Math.max(buys, sells) * size) / config.leverage);
}

/** Unrealised result of the neutral grid's open lots at `price`, less their unpaid opening fees. */
export function neutralUnrealised(state: NeutralState, price: number): number {
  let u = 0;
  for (const lot of state.lots) u += (lot.side === 'long' ? price - lot.price : lot.price - price) * lot.amount - lot.fee;
  return roundMoney(u);
}

export function neutralAverage(state: NeutralState): number {
  let amount = 0;
  let cost = 0;
  for (const lot of state.lots) {
    amount += lot.amount;
    cost += lot.price * lot.amount;
  }
  return amount > 0 ? roundMoney(cost / amount) : 0;
}

export const neutralWalk: BacktestWalk<NeutralGridConfig> = {
  styles: ['neutral'],
  owns: (g: StyledGrid): g is NeutralGridConfig => (g as { style?: string }).style === undefined && (g as NeutralGridConfig).direction === 'neutral',
  styleOf: () => 'neutral',
  marketProblem: (style, market) => (market === 'spot' ? `style ${style} applies to futures only: a spot grid buys the coin it sells` : null),
  rungs: (g) => 2 * (Number.isFinite(g.numOfOrders) ? Math.max(0, g.numOfOrders) : 0),
  hasTakeProfit: () => false,
  sweepGrid: (base, _style, interval, numOfOrders, takeProfit) => ({ botType: base.botType, numOfOrders, orderSize: base.orderSize, interval, entryPrice: base.entryPrice, takeProfit, leverage: base.leverage, direction: 'neutral' }),
  // issue 32: a ladder body with `direction: 'neutral'` is the neutral grid's own backtest (its rules refused what it has not: parseCreateBot's neutralProblems)
  fromLadderBot: (bot, core) => (bot.direction === 'neutral' ? { ...core, direction: 'neutral' } : null),
  run(series, params) {
    const { config, rules } = params;
    const n = series.length;
    const last = series.close[n - 1];
    const capital = neutralCapital(config, rules);
    const walk = new EquityWalk(capital, series, params.curvePoints);
    const candles = Array.from({ length: n }, (_, i) => candleAt(series, i));
    const r = runNeutralBacktest(candles, { ...feeTerms(params), config, rules, observer: walk });
    const unrealised = neutralUnrealised(r.state, last);
    return {
      style: 'neutral',
      candles: n, from: series.time[0], to: series.time[n - 1], capital,
      profit: r.profit, unrealised, fees: r.fees, cycles: r.pairs, pairs: r.pairs, fills: r.fills.length, trails: 0,
      ...walk.figures(roundMoney(capital + r.profit + unrealised), params.feeBps),
      position: { amount: r.position, averageEntry: neutralAverage(r.state) },
      ...(params.recordFills ? { fillLog: r.fills } : {}),
    };
  },
};
