import { gridHalves, ladderCostOf, ladderPreview, type GridNumbers } from '@gridrocket/bots/domain/bot-market.rules';
import { price, usdt } from '../../bots/format';
import { SHOWN } from '../../bots/LadderPreview';
import { NoteRow, OrderRow, PreviewHint, PreviewSection, PreviewTable } from '../../bots/PreviewTable';

/**
 * A neutral grid's orders (issue 32, libs/trading grid/neutral.ts): its sells above the reference (highest
 * first), the reference itself without an order, its buys below; each fill is answered one line away.
 */
export function NeutralPreview({ grid, available }: { grid: GridNumbers | null; available: number | null }) {
  if (!grid) return <PreviewHint title="Grid preview" hint="Fill in the entry price, grid size, order size and interval to see every order." />;
  const [buys, sells] = gridHalves({ ...grid, direction: 'neutral' as const });
  const buyRungs = ladderPreview(buys, SHOWN);
  const sellRungs = ladderPreview(sells, SHOWN).reverse();
  const cost = ladderCostOf(buys) + ladderCostOf(sells);
  const row = (side: 'Sell' | 'Buy', r: { price: number; size: number }, key: string) => <OrderRow key={key} name={side} order={r} />;
  const more = Math.floor(grid.numOfOrders) - SHOWN;
  return (
    <PreviewSection title="Grid preview" testId="neutral-preview">
      <PreviewTable label="Sell and buy orders of the neutral grid" first="Side">
        {more > 0 ? <NoteRow>… {more} more sells above</NoteRow> : null}
        {sellRungs.map((r, i) => row('Sell', r, `s${i}`))}
        <NoteRow rowClassName="preview__reference">Reference {price(grid.entryPrice)}: no order</NoteRow>
        {buyRungs.map((r, i) => row('Buy', r, `b${i}`))}
        {more > 0 ? <NoteRow>… {more} more buys below</NoteRow> : null}
      </PreviewTable>
      <p className="preview__tp" data-testid="neutral-answer">
        Each buy that fills is answered by a sell one interval ({price(grid.interval)}) above it, each sell by a buy one interval below: every pair earns one interval.
      </p>
      {available !== null ? (
        <p className="preview__help" data-testid="neutral-cost">
          {cost > available
            ? `All of its orders need ${usdt(cost)} USDT of margin, more than your available ${usdt(available)} USDT.`
            : `All of its orders need ${usdt(cost)} USDT of margin; ${usdt(available)} USDT is available.`}
        </p>
      ) : null}
    </PreviewSection>
  );
}
