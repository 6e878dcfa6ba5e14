/**
 * Profit of a sweep over two parameters: interval (columns) × number of orders (rows); each cell shows
 * the best take-profit's profit (realised + unrealised) of that pair. A click hands the cell's
 * parameters back to the form.
 */
import type { SweepPoint } from './backtestApi';

interface Props {
  points: SweepPoint[];
  best: SweepPoint | null;
  onPick: (p: { interval: number; numOfOrders: number; takeProfit: number }) => void;
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
  return (
    <div className="sweep-heatmap" data-testid="sweep-heatmap">
      <table>
        <caption>Profit (USDT) by price interval and grid size, best take-profit per cell</caption>
        <thead>
          <tr>
            <th scope="col">orders \ interval</th>
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
  );
}
