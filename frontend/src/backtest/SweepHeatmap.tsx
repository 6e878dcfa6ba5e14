/**
 * Profit of a sweep over two parameters: interval (columns) × number of orders (rows); each cell shows
 * the best take-profit's profit (realised + unrealised) of that pair. A click hands the cell's
 * parameters back to the form.
 *
 * Issue 40, point 12: readable at any width. The table scrolls inside its own box (the page and the form
 * never sideways), no number or label wraps, and the axis labels stay in view while it scrolls: the
 * grid-size column on the left and the interval row on top are sticky (at 375 px digits wrapped mid-number,
 * and a 20-column sweep ran past the form at 1280).
 */
import { useId } from 'react';
import type { SweepPoint } from './backtestApi';

interface Props {
  points: SweepPoint[];
  best: SweepPoint | null;
  /** `takeProfit` null: a style without one (neutral, infinity). */
  onPick: (p: { interval: number; numOfOrders: number; takeProfit: number | null }) => void;
}

const value = (p: SweepPoint) => (p.profit === null ? null : p.profit + (p.unrealised ?? 0));

export function SweepHeatmap({ points, best, onPick }: Props) {
  const intervals = [...new Set(points.map((p) => p.interval))].sort((a, b) => a - b);
  const orders = [...new Set(points.map((p) => p.numOfOrders))].sort((a, b) => a - b);
  const cell = new Map<string, SweepPoint>();
  for (const p of points) {
    const k = `${p.interval}|${p.numOfOrders}`;
    const cur = cell.get(k);
    const v = value(p);
    if (v !== null && (!cur || v > (value(cur) ?? -Infinity))) cell.set(k, p);
  }
  const values = [...cell.values()].map((p) => value(p)!);
  const max = Math.max(0, ...values);
  const min = Math.min(0, ...values);
  const color = (v: number) => {
    const a = v >= 0 ? (max ? v / max : 0) : min ? v / min : 0;
    return v >= 0 ? `rgba(34, 197, 94, ${0.15 + 0.75 * a})` : `rgba(239, 68, 68, ${0.15 + 0.75 * a})`;
  };
  const captionId = useId();
  return (
    <figure className="sweep-heatmap" data-testid="sweep-heatmap">
      <figcaption id={captionId}>Profit (USDT) by price interval and grid size, best take-profit per cell</figcaption>
      {/* a keyboard can scroll the box too (a focusable region; its name does not repeat the form's field
          names, which a label lookup of "Price interval" would also find in the caption) */}
      <div className="sweep-heatmap__scroll" role="region" aria-label="Sweep heatmap, scrolls sideways" aria-describedby={captionId} tabIndex={0}>
        <table>
          <thead>
            <tr>
              <th scope="col" className="sweep-heatmap__corner">
                <span>interval →</span>
                <span>orders ↓</span>
              </th>
              {intervals.map((i) => (
                <th scope="col" key={i}>
                  {i}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {orders.map((n) => (
              <tr key={n}>
                <th scope="row">{n}</th>
                {intervals.map((i) => {
                  const p = cell.get(`${i}|${n}`);
                  const v = p ? value(p) : null;
                  const isBest = p && best && p.interval === best.interval && p.numOfOrders === best.numOfOrders && p.takeProfit === best.takeProfit;
                  return (
                    <td key={i}>
                      {p && v !== null ? (
                        <button
                          type="button"
                          className={isBest ? 'sweep-heatmap__cell sweep-heatmap__cell--best' : 'sweep-heatmap__cell'}
                          style={{ background: color(v) }}
                          title={`interval ${i}, ${n} orders, take-profit ${p.takeProfit} %: ${v.toFixed(2)} USDT`}
                          aria-label={`Use interval ${i}, ${n} orders, take-profit ${p.takeProfit} %`}
                          onClick={() => onPick({ interval: p.interval, numOfOrders: p.numOfOrders, takeProfit: p.takeProfit })}
                        >
                          {v.toFixed(2)}
                        </button>
                      ) : (
                        <span className="sweep-heatmap__none" title="cannot trade">
                          —
                        </span>
                      )}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}
