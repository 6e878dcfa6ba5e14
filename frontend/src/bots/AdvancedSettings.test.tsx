import { fireEvent, render, screen, within } from '@testing-library/react';
import { useState } from 'react';
import { AdvancedPreview, AdvancedSettings, EMPTY_ADVANCED, advancedBody, advancedErrors, advancedFromBot, type AdvancedValues } from './AdvancedSettings';
import { AdvancedSummary, riskLines } from './AdvancedLevels';

const grid = { botType: 'Spot' as const, exchange: 'Binance' as const, symbol: 'LTCUSDT', numOfOrders: '4', orderSize: '0.1', interval: '2', entryPrice: '100', takeProfit: '1' };

function Harness({ botType = 'Spot' as 'Spot' | 'Futures' }) {
  const [v, setV] = useState<AdvancedValues>(EMPTY_ADVANCED);
  const { botType: _t, ...base } = grid;
  return <AdvancedSettings values={v} onChange={setV} errors={advancedErrors(v, base, botType)} grid={{ ...grid, botType }} defaultOpen />;
}

describe('the Advanced section of the bot form (issue 14)', () => {
  it('the preview follows the settings live: geometric spacing and scaled sizes, rung by rung', () => {
    render(<Harness />);
    const rows = () => within(screen.getByTestId('advanced-preview')).getAllByRole('row').slice(1).map((r) => r.textContent);
    expect(rows()).toEqual(['11000.1', '2980.1', '3960.1', '4940.1']);
    fireEvent.change(screen.getByLabelText('Spacing'), { target: { value: 'percent' } });
    fireEvent.change(screen.getByLabelText('Size scale'), { target: { value: '1.5' } });
    // 100 × 0.98^i, 0.1 × 1.5^i (display rounding of the preview: cents, 8 decimals)
    expect(rows()).toEqual(['11000.1', '2980.15', '396.040.225', '494.110.3375']);
    fireEvent.change(screen.getByLabelText('Stop-loss'), { target: { value: '10' } });
    expect(screen.getByTestId('advanced-stop').textContent).not.toBe('');
  });

  it('a futures ladder that would be liquidated before its last order is flagged before the start', () => {
    const preview = render(
      <AdvancedPreview values={EMPTY_ADVANCED} grid={{ botType: 'Futures', exchange: 'Binance', symbol: 'BTCUSDT', numOfOrders: '3', orderSize: '0.01', interval: '2000', entryPrice: '60000', takeProfit: '1', leverage: 50 }} />,
    );
    expect(preview.getByTestId('advanced-refusal').textContent).toMatch(/liquidated at 59036.14457831, before order 2 of 3 at 58000/);
    expect(preview.getByTestId('advanced-liquidation').textContent).toBe('57,068.27');
  });

  it('a short futures ladder (issue 32): its stop-loss price lies above the entry, and the preview mirrors the liquidation refusal', () => {
    const base = { exchange: 'Binance', symbol: 'BTCUSDT', numOfOrders: '3', orderSize: '0.01', interval: '2000', entryPrice: '60000', takeProfit: '1', leverage: '50', direction: 'short' };
    expect(advancedErrors({ ...EMPTY_ADVANCED, stopLossPrice: '65000' }, base, 'Futures')).toEqual({});
    expect(advancedErrors({ ...EMPTY_ADVANCED, stopLossPrice: '59000' }, base, 'Futures')).toEqual({ stopLossPrice: 'Stop-loss price must be above the entry price of a short grid' });
    const preview = render(
      <AdvancedPreview values={EMPTY_ADVANCED} grid={{ botType: 'Futures', exchange: 'Binance', symbol: 'BTCUSDT', numOfOrders: '3', orderSize: '0.01', interval: '2000', entryPrice: '60000', takeProfit: '1', leverage: 50, direction: 'short' }} />,
    );
    // sells at 60000, 62000, 64000; after the first: (600 + 12) ÷ (0.01 × 1.004) = 60956.1752988 ≤ 62000 (libs/trading grid/short.spec.ts)
    expect(preview.getByTestId('advanced-refusal').textContent).toMatch(/liquidated at 60956.1752988, before order 2 of 3 at 62000/);
  });

  it('the request carries only what is set, and clears on edit what the bot had; the server\'s messages in the form\'s words (issue 29)', () => {
    const v = { ...EMPTY_ADVANCED, stopLossPercent: '5', reanchor: 'follow' as const };
    expect(advancedBody(v)).toEqual({ stopLossPercent: 5, reanchor: 'follow' });
    // an edit that clears the trailing the bot had sends it empty (off); untouched empty fields are not sent
    expect(advancedBody(v, { ...EMPTY_ADVANCED, trailingDeviation: '2' })).toEqual({ stopLossPercent: 5, reanchor: 'follow', trailingDeviation: '' });
    expect(advancedFromBot({ stoplosspercent: 5, reanchor: 'follow' })).toEqual(v);
    const { botType: _t, ...base } = grid;
    // the server's own parse: schema messages first, the cross-field ones once the schema passes
    expect(advancedErrors({ ...EMPTY_ADVANCED, sizeScale: '0.5', trailingDeviation: '-1' }, base)).toEqual({
      sizeScale: 'Size scale must be a number from 1 to 10',
      trailingDeviation: 'Trailing take-profit must be a percentage from 0 to below 100',
    });
    expect(advancedErrors({ ...EMPTY_ADVANCED, stopLossPrice: '120' }, base)).toEqual({ stopLossPrice: 'Stop-loss price must be below the entry price' });
    expect(advancedErrors({ ...EMPTY_ADVANCED, spacing: 'percent' }, { ...base, interval: '150' })).toEqual({ spacing: 'Price interval must be below 100 (%) with percent spacing' });
    expect(advancedErrors({ ...EMPTY_ADVANCED, stopLossPercent: '5' }, base)).toEqual({});
    expect(advancedErrors({ ...EMPTY_ADVANCED, reanchor: 'follow', reanchorLimit: '1' }, base)).toEqual({ reanchorLimit: '“Follow up to” must be above the entry price' });
    expect(advancedErrors({ ...EMPTY_ADVANCED, stopLossPercent: '150' }, base)).toEqual({ stopLossPercent: 'Stop-loss must be a percentage greater than 0 and below 100' });
    // trailing down (issue 32): the limit below the entry, above a stop-loss price; sent as a number, read back from the view
    expect(advancedErrors({ ...EMPTY_ADVANCED, trailDownLimit: '120' }, base)).toEqual({ trailDownLimit: '“Trail down to” must be below the entry price' });
    expect(advancedErrors({ ...EMPTY_ADVANCED, trailDownLimit: '80', stopLossPrice: '85' }, base)).toEqual({ trailDownLimit: '“Trail down to” must be above the stop-loss price' });
    expect(advancedBody({ ...EMPTY_ADVANCED, trailDownLimit: '80' })).toEqual({ trailDownLimit: 80 });
    expect(advancedFromBot({ traildownlimit: 80 })).toEqual({ ...EMPTY_ADVANCED, trailDownLimit: '80' });
  });

  it('the bot page: the levels become price lines and the settings are said in words; a spec bot shows nothing', () => {
    const risk = { stopLoss: 56050, trailing: { activation: 30.3, stop: 29.69, deviation: 2 }, liquidation: null };
    expect(riskLines(risk).map((l) => [l.title, l.price])).toEqual([['stop-loss', 56050], ['trailing from', 30.3], ['trail −2%', 29.69]]);
    const { container, rerender } = render(<AdvancedSummary bot={{ stoplosspercent: 5, trailingdeviation: 2, reanchor: 'follow', reanchorlimit: 70000 }} risk={risk} />);
    expect(screen.getByTestId('advanced-summary').textContent).toMatch(/Stop-loss 5 % below the average entry \(now 56,050\).*Trailing take-profit 2 %.*Follows the price up to 70,000/);
    rerender(<AdvancedSummary bot={{ traildownlimit: 80 }} risk={null} />);
    expect(screen.getByTestId('advanced-summary').textContent).toBe('Trails down, not below 80: the position is kept');
    rerender(<AdvancedSummary bot={{ stoplossprice: 11.38 }} risk={{ stopLoss: 11.38, trailing: null, liquidation: 0 }} />);
    expect(screen.getByTestId('advanced-summary').textContent).toBe('Stop-loss at 11.38Liquidation of the full ladder: none (its margin covers a fall to 0)');
    rerender(<AdvancedSummary bot={{}} risk={null} />);
    expect(container.textContent).toBe('');
  });
});
