import type { InfinityPreviewData } from './infinity';
import { compact, price, usdt } from './format';

/**
 * An infinity grid's first orders (issue 32, docs/infinity.md): the initial buy at the entry, then the
 * sell one step up and the buy one step down around it, and the floor below which it buys no more.
 */
export function InfinityPreview({ preview }: { preview: InfinityPreviewData | null }) {
  if (!preview) {
    return (
      <section className="preview" aria-labelledby="preview-title">
        <h3 id="preview-title">Infinity grid preview</h3>
        <p className="muted">Fill in the entry price, step, value per step and lower price to see its first orders.</p>
      </section>
    );
  }
  const row = (label: string, o: { price: number; amount: number }) => (
    <tr key={label}>
      <td>{label}</td>
      <td className="num">{price(o.price)}</td>
      <td className="num">{compact(o.amount)}</td>
      <td className="num">{usdt(o.price * o.amount)}</td>
    </tr>
  );
  return (
    <section className="preview" aria-labelledby="preview-title" data-testid="infinity-preview">
      <h3 id="preview-title">Infinity grid preview</h3>
      <div className="preview__scroll">
        <table className="preview__table preview__table--named" aria-label="First orders of the infinity grid">
          <thead>
            <tr>
              <th scope="col">Order</th>
              <th scope="col">Price</th>
              <th scope="col">Size</th>
              <th scope="col">Value</th>
            </tr>
          </thead>
          <tbody>
            {preview.initial ? row('Initial buy', preview.initial) : (
              <tr>
                <td colSpan={4} className="muted">No initial buy: the first sell waits for a buy</td>
              </tr>
            )}
            {preview.sell ? row('Sell one step up', preview.sell) : null}
            {preview.buy ? row('Buy one step down', preview.buy) : null}
          </tbody>
        </table>
      </div>
      <p className="muted" data-testid="infinity-floor">No buy below {price(preview.lowerPrice)} USDT; sells go on above.</p>
      <p className="muted">Each step up sells, each step down buys, the same value; the steps start once the initial buy has filled.</p>
    </section>
  );
}
