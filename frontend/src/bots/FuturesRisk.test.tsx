import { fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { FuturesRisk, liquidationStopErrors, type FuturesGrid, type FuturesValues } from './FuturesRisk';
import { LiquidationWarning } from './LiquidationWarning';
import type { Bot, BotSummary } from '../api/types';

/** Issue 40: the neutral grid (reference 137, 4 lines each side 1 apart, LTCUSDT, 1 each) at 25×. */
const neutral: FuturesGrid = { exchange: 'Binance', symbol: 'LTCUSDT', direction: 'neutral', numOfOrders: '4', orderSize: '1', interval: '1', entryPrice: '137', takeProfit: '1', stopLossPrice: '120', stopLossPriceAbove: '155' };

function Harness({ grid }: { grid: FuturesGrid }) {
  const [v, setV] = useState<FuturesValues>({ leverage: '25', marginMode: 'isolated' });
  return <FuturesRisk values={v} onChange={setV} grid={grid} />;
}

describe('the futures risk panel of the bot form', () => {
  it('shows both liquidation prices of a neutral grid before create and follows the leverage typed', () => {
    render(<Harness grid={neutral} />);
    // long 4 at 134.5 (margin 21.52): 516.48 ÷ 3.96; short 4 at 139.5 (margin 22.32): 580.32 ÷ 4.04
    expect(screen.getByTestId('liquidation-long').textContent).toBe('130.4242');
    expect(screen.getByTestId('liquidation-short').textContent).toBe('143.6436');
    fireEvent.change(screen.getByLabelText('Leverage'), { target: { value: '10' } });
    // 10×: (538 − 53.8) ÷ 3.96 = 122.27…, (558 + 55.8) ÷ 4.04 = 151.93…
    expect(screen.getByTestId('liquidation-long').textContent).toBe('122.2727');
    expect(screen.getByTestId('liquidation-short').textContent).toBe('151.9307');
    fireEvent.change(screen.getByLabelText('Margin mode'), { target: { value: 'cross' } });
    expect(screen.getByTestId('futures-risk').textContent).toMatch(/Cross margin: the whole futures balance backs the position/);
  });

  it('long and short grids show their one liquidation price', () => {
    const long = { ...neutral, direction: 'long' as const, entryPrice: '100', numOfOrders: '3', stopLossPrice: '', stopLossPriceAbove: '' };
    const { unmount } = render(<FuturesRisk values={{ leverage: '20', marginMode: 'isolated' }} onChange={() => undefined} grid={long} />);
    expect(screen.getByTestId('liquidation-long').textContent).toBe('95'); // 3 at 99, margin 14.85: 282.15 ÷ 2.97
    expect(screen.queryByTestId('liquidation-short')).toBeNull();
    unmount();
    render(<FuturesRisk values={{ leverage: '20', marginMode: 'isolated' }} onChange={() => undefined} grid={{ ...long, direction: 'short' }} />);
    expect(screen.getByTestId('liquidation-short').textContent).toBe('105'); // 3 at 101, margin 15.15: 318.15 ÷ 3.03
  });

  it('the stops beyond liquidation carry the server\'s refusal with both prices; on cross margin none', () => {
    const e = liquidationStopErrors(neutral, { leverage: '25', marginMode: 'isolated' });
    expect(e.stopLossPrice).toMatch(/^stopLossPrice 120 is at or below the liquidation price 130.43/);
    expect(e.stopLossPriceAbove).toMatch(/^stopLossPriceAbove 155 is at or above the liquidation price 143.64/);
    expect(liquidationStopErrors({ ...neutral, stopLossPrice: '131', stopLossPriceAbove: '143' }, { leverage: '25', marginMode: 'isolated' })).toEqual({});
    expect(liquidationStopErrors(neutral, { leverage: '25', marginMode: 'cross' })).toEqual({});
  });
});

describe('the bot page: a futures position near its liquidation price', () => {
  const bot = { id: 'b1', bottype: 'Futures', exchange: 'Binance', symbol: 'BTCUSDT', leverage: 20, direction: 'long' } as unknown as Bot;
  const summary = (lastPrice: number) => ({ position: 0.01, averageEntry: 95000, lastPrice }) as unknown as BotSummary;
  it('says the liquidation price, and warns within 10 % of it (0.01 at 95,000, 20×: 90,612.45)', () => {
    const { rerender } = render(<LiquidationWarning bot={bot} summary={summary(101000)} />);
    expect(screen.getByTestId('liquidation-price').textContent).toMatch(/liquidated at 90,612.45 USDT \(isolated, 20×\); the last price 101,000.00 USDT is 10.28 % away\./);
    rerender(<LiquidationWarning bot={bot} summary={summary(95000)} />);
    expect(screen.getByRole('alert').textContent).toMatch(/^Near liquidation: the long position would be liquidated at 90,612.45 USDT .* is 4.62 % away, within 10 %/);
  });
});
