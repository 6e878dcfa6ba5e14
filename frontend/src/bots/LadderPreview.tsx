import { gridHalves, ladderCostOf, ladderPreview, maxAffordableGrid, takeProfitAfterFirstFill, type GridNumbers } from '@gridrocket/bots/domain/bot-market.rules';
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

/**
 * A neutral grid's orders (issue 32, libs/trading grid/neutral.ts): its sells above the reference (highest
 * first), the reference itself without an order, its buys below; each fill is answered one line away.
 */
export function NeutralPreview({ grid, available }: { grid: GridNumbers | null; available: number | null }) {
  if (!grid) {
    return (
      <section className="preview" aria-labelledby="preview-title">
        <h3 id="preview-title">Grid preview</h3>
        <p className="muted">Fill in the entry price, grid size, order size and interval to see every order.</p>
      </section>
    );
  }
  const [buys, sells] = gridHalves({ ...grid, direction: 'neutral' as const });
  const buyRungs = ladderPreview(buys, SHOWN);
  const sellRungs = ladderPreview(sells, SHOWN).reverse();
  const cost = ladderCostOf(buys) + ladderCostOf(sells);
  const row = (side: 'Sell' | 'Buy', r: { price: number; size: number }, key: string) => (
    <tr key={key} className={r.price <= 0 ? 'preview__bad' : undefined}>
      <td>{side}</td>
      <td className="num">{price(r.price)}</td>
      <td className="num">{compact(r.size)}</td>
      <td className="num">{usdt(r.price * r.size)}</td>
    </tr>
  );
  const more = Math.floor(grid.numOfOrders) - SHOWN;
  return (
    <section className="preview" aria-labelledby="preview-title" data-testid="neutral-preview">
      <h3 id="preview-title">Grid preview</h3>
      <div className="preview__scroll">
        <table className="preview__table" aria-label="Sell and buy orders of the neutral grid">
          <thead>
            <tr>
              <th scope="col">Side</th>
              <th scope="col">Price</th>
              <th scope="col">Size</th>
              <th scope="col">Value</th>
            </tr>
          </thead>
          <tbody>
            {more > 0 ? (
              <tr>
                <td colSpan={4} className="muted">… {more} more sells above</td>
              </tr>
            ) : null}
            {sellRungs.map((r, i) => row('Sell', r, `s${i}`))}
            <tr className="preview__reference">
              <td colSpan={4}>Reference {price(grid.entryPrice)}: no order</td>
            </tr>
            {buyRungs.map((r, i) => row('Buy', r, `b${i}`))}
            {more > 0 ? (
              <tr>
                <td colSpan={4} className="muted">… {more} more buys below</td>
              </tr>
            ) : null}
          </tbody>
        </table>
      </div>
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
    </section>
  );
}
