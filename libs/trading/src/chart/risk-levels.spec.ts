/** The chart's risk levels of a neutral grid (issue 32): those of the side it holds, not a long ladder's. */
import { marginTiers } from '@gridrocket/exchanges/venues';
import { neutralLiquidation, type NeutralGridConfig } from '../styles/neutral/neutral.engine';
import { chartRisk } from './risk-levels';
import { neutralChartRisk } from '../styles/neutral/neutral.risk-levels';
import type { GridConfig } from '../grid/grid.types';

// reference 90, interval 2.7, 2 lines each side, 1 LTC, 20x: buys 87.3, 84.6 | sells 92.7, 95.4
const NEUTRAL: NeutralGridConfig = { botType: 'Futures', numOfOrders: 2, orderSize: 1, interval: 2.7, entryPrice: 90, takeProfit: 1, leverage: 20, direction: 'neutral', stopLossPrice: 81, stopLossPriceAbove: 99 };
const AS_LADDER: GridConfig = { botType: 'Futures', numOfOrders: 2, orderSize: 1, interval: 2.7, entryPrice: 90, takeProfit: 1, leverage: 20, stopLossPrice: 81 };
const tiers = marginTiers('Binance', 'LTCUSDT').tiers;
const fill = (side: 'buy' | 'sell', type = 'OrderFilled') => ({ type, data: { run: 3, side, amount: 1, price: side === 'buy' ? 87.3 : 92.7 } });

describe('chart risk of a neutral grid', () => {
  const liq = neutralLiquidation(NEUTRAL, { priceStep: 0.01, amountStep: 1e-8, minNotional: 0 }, tiers);

  it('flat or long: the lower stop and the long side liquidation (after both buys), below its lowest buy, not the long ladder from the entry', () => {
    const flat = neutralChartRisk([], NEUTRAL, tiers);
    expect(flat).toEqual({ stopLoss: 81, trailing: null, liquidation: Math.round(liq.long * 100) / 100 });
    expect(flat.liquidation!).toBeLessThan(84.6);
    // a long ladder from the entry 90 (90 and 87.3) would put it higher, above the lowest buy
    expect(chartRisk([], AS_LADDER, tiers).liquidation!).toBeGreaterThan(flat.liquidation!);
    expect(neutralChartRisk([fill('buy')], NEUTRAL, tiers)).toEqual(flat);
  });

  it('short: the upper stop and the short side liquidation, above its highest sell', () => {
    const short = neutralChartRisk([fill('sell')], NEUTRAL, tiers);
    expect(short).toEqual({ stopLoss: 99, trailing: null, liquidation: Math.round(liq.short * 100) / 100 });
    expect(short.liquidation!).toBeGreaterThan(95.4);
  });
});
