import { ladderPreview, maxAffordableGrid, takeProfitAfterFirstFill, type GridNumbers } from '@gridrocket/bots/domain/bot-market.rules';
import { compact, price, usdt } from './format';

/** Rungs listed before the table is cut (the rest is summed up in one line). */
const SHOWN = 12;

/**
 * What the settings will place: every rung's price and size, the take-profit price after the first
 * fill, and how many rungs the available balance pays for.
 */
export function LadderPreview({ grid, available }: { grid: GridNumbers | null; available: number | null }) {
  if (!grid) {
    return (
      <section className="preview" aria-labelledby="preview-title">
        <h3 id="preview-title">Ladder preview</h3>
        <p className="muted">Fill in the entry price, grid size, order size, interval and take profit to see every order.</p>
      </section>
    );
  }
  const rungs = ladderPreview(grid, 99);
  // a short grid (issue 32) sells from its entry up
  const short = grid.direction === 'short';
  const tp = takeProfitAfterFirstFill(grid);
  const max = available !== null ? maxAffordableGrid(grid, available) : null;
  return (
    <section className="preview" aria-labelledby="preview-title">
      <h3 id="preview-title">Ladder preview</h3>
      <div className="preview__scroll">
        <table className="preview__table" aria-label={`${short ? 'Sell' : 'Buy'} orders of the ladder`}>
          <thead>
            <tr>
              <th scope="col">#</th>
              <th scope="col">Price</th>
              <th scope="col">Size</th>
              <th scope="col">Value</th>
            </tr>
          </thead>
          <tbody>
            {rungs.slice(0, SHOWN).map((r, i) => (
              <tr key={i} className={r.price <= 0 ? 'preview__bad' : undefined}>
                <td>{i + 1}</td>
                <td className="num">{price(r.price)}</td>
                <td className="num">{compact(r.size)}</td>
                <td className="num">{usdt(r.price * r.size)}</td>
              </tr>
            ))}
            {rungs.length > SHOWN ? (
              <tr>
                <td colSpan={4} className="muted">
                  … {rungs.length - SHOWN} more, {short ? 'up' : 'down'} to {price(rungs[rungs.length - 1].price)}
                </td>
              </tr>
            ) : null}
          </tbody>
        </table>
      </div>
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
    </section>
  );
}
