import { ladderPreview, maxAffordableGrid, takeProfitAfterFirstFill, type GridNumbers } from '@gridrocket/bots/domain/bot-market.rules';
import { price, usdt } from './format';
import { NoteRow, OrderRow, PreviewHint, PreviewSection, PreviewTable } from './PreviewTable';

/** Rungs listed before the table is cut (the rest is summed up in one line). */
export const SHOWN = 12;

/**
 * What the settings will place: every rung's price and size, the take-profit price after the first
 * fill, and how many rungs the available balance pays for.
 */
export function LadderPreview({ grid, available }: { grid: GridNumbers | null; available: number | null }) {
  if (!grid) return <PreviewHint title="Ladder preview" hint="Fill in the entry price, grid size, order size, interval and take profit to see every order." />;
  const rungs = ladderPreview(grid, 99);
  // a short grid (issue 32) sells from its entry up
  const short = grid.direction === 'short';
  const tp = takeProfitAfterFirstFill(grid);
  const max = available !== null ? maxAffordableGrid(grid, available) : null;
  return (
    <PreviewSection title="Ladder preview">
      <PreviewTable label={`${short ? 'Sell' : 'Buy'} orders of the ladder`} first="#">
        {rungs.slice(0, SHOWN).map((r, i) => (
          <OrderRow key={i} name={i + 1} order={r} />
        ))}
        {rungs.length > SHOWN ? (
          <NoteRow>
            … {rungs.length - SHOWN} more, {short ? 'up' : 'down'} to {price(rungs[rungs.length - 1].price)}
          </NoteRow>
        ) : null}
      </PreviewTable>
      <p className="preview__tp" data-testid="tp-after-first-fill">
        Take profit after the first fill: <strong>{usdt(tp)} USDT</strong>
      </p>
      {max !== null ? (
        <p className="preview__help" data-testid="max-affordable">
          {max === 0
            ? `Your available ${usdt(available)} USDT does not pay for one order of this size.`
            : `Your available ${usdt(available)} USDT pays for at most ${max} order${max === 1 ? '' : 's'} of this size and interval (max affordable grid).`}
        </p>
      ) : null}
    </PreviewSection>
  );
}
