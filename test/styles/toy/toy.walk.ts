/** The toy grid's backtest walk: the same engine (toy.engine.ts) over each candle's prints, fills at the limit (maker). */
import { candlePath, EquityWalk, feeOf, type BacktestFill, type StyledBacktestResult } from '@gridrocket/backtest';
import type { BacktestWalk } from '@gridrocket/backtest';
import { roundMoney, type GridConfig } from '@gridrocket/trading/grid';
import { processToyFill, toyDesiredOrders, toyInitialState, type ToyConfig } from './toy.engine';
import { toToyConfig } from './toy.style';

export const toyWalk: BacktestWalk<ToyConfig> = {
  styles: ['toy'],
  owns: (g) => (g as unknown as ToyConfig).style === 'toy',
  styleOf: () => 'toy',
  marketProblem: () => null,
  rungs: () => 1,
  hasTakeProfit: () => false,
  sweepGrid: (base, _style, interval, _n, _tp) => ({ style: 'toy', botType: base.botType, entryPrice: base.entryPrice, interval, orderSize: base.orderSize, leverage: base.leverage }),
  fromBot: (c, botType) => toToyConfig(c, botType),
  run(series, params): StyledBacktestResult {
    const { config, rules } = params;
    const n = series.length;
    let s = toyInitialState('backtest');
    const capital = roundMoney((config.entryPrice * config.orderSize) / config.leverage);
    const walk = new EquityWalk(capital, series, params.curvePoints);
    const log: BacktestFill[] = [];
    let profit = 0;
    let fees = 0;
    let cycles = 0;
    for (let i = 0; i < n; i++) {
      for (const price of candlePath({ open: series.open[i], high: series.high[i], low: series.low[i], close: series.close[i] })) {
        const [d] = toyDesiredOrders(config, rules, s);
        if (d && (d.side === 'buy' ? price <= d.price : price >= d.price)) {
          const fee = feeOf(d.price, d.amount, params.feeBps);
          const fill: BacktestFill = { time: series.time[i], side: d.side, clientOrderId: d.clientOrderId, price: d.price, amount: d.amount, fee };
          const r = processToyFill(config, rules, s, { clientOrderId: d.clientOrderId, fillId: `f${log.length + 1}`, price: d.price, amount: d.amount, fee });
          s = r.state;
          for (const e of r.effects) if (e.profit !== 0) (profit = roundMoney(profit + e.profit)), cycles++;
          fees = roundMoney(fees + fee);
          log.push(fill);
          walk.fill(fill);
        }
        walk.print(price);
      }
      walk.candle(i);
    }
    const last = series.close[n - 1];
    const held = roundMoney(s.held.amount - s.sold);
    const unrealised = held > 0 ? roundMoney((last - s.held.cost / s.held.amount) * held - s.held.buyFees) : 0;
    return {
      style: 'toy',
      candles: n, from: series.time[0], to: series.time[n - 1], capital,
      profit, unrealised, fees, cycles, fills: log.length, trails: 0,
      ...walk.figures(roundMoney(capital + profit + unrealised), params.feeBps),
      position: { amount: held, averageEntry: held > 0 ? roundMoney(s.held.cost / s.held.amount) : 0 },
      ...(params.recordFills ? { fillLog: log } : {}),
    };
  },
};

export type { GridConfig };
