import { useEffect, useState } from 'react';
import { useGetCapacityQuery } from '../api/api';
import type { CapacityData, CapacityQuery } from '../api/types';

/** How long the form's values rest before the answer is asked again (typing "99" asks once). */
const SETTLE_MS = 300;

const n = (x: number) => x.toLocaleString('en-US', { maximumFractionDigits: 0 });
const pct = (x: number) => `${(x * 100).toLocaleString('en-US', { maximumFractionDigits: x < 0.1 ? 2 : 1 })} %`;

/**
 * What the key can carry (issue 39, docs/runner.md "Capacity before a start"), beside the grid preview:
 * the orders the start places against the venue's order-count windows, the open orders on the symbol
 * against the venue's maximum, and the account's share of this install's weight budget; a warning with the
 * numbers when a start would be refused. The figures are the server's (GET /api/bot-capacity).
 */
export function CapacityPanel({ query }: { query: CapacityQuery | null }) {
  const [settled, setSettled] = useState(query);
  const key = JSON.stringify(query);
  useEffect(() => {
    const t = setTimeout(() => setSettled(query), SETTLE_MS);
    return () => clearTimeout(t);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);
  const { data, isError } = useGetCapacityQuery(settled ?? ({} as CapacityQuery), { skip: !settled });
  return (
    <section className="preview capacity" aria-labelledby="capacity-title" data-testid="capacity">
      <h3 id="capacity-title">Venue capacity</h3>
      {!query ? (
        <p className="muted">Choose the exchange, the pair and the grid size to see what your key can carry.</p>
      ) : isError ? (
        <p className="muted">The capacity answer is unavailable just now; the start checks it again.</p>
      ) : !data ? (
        <p className="muted">…</p>
      ) : (
        <CapacityFigures data={data} />
      )}
    </section>
  );
}

export function CapacityFigures({ data }: { data: CapacityData }) {
  const o = data.openOrders;
  const w = data.weight;
  // the window a start would pass, else the shortest: what the runner's pace meets first
  const firstWindow = data.orderWindows.find((x) => x.exceeded) ?? data.orderWindows[0];
  return (
    <>
      <dl className="capacity__list">
        <div className={data.orderWindows.some((x) => x.exceeded) ? 'capacity__row capacity__row--over' : 'capacity__row'}>
          <dt>Orders at start</dt>
          <dd data-testid="capacity-orders">
            <strong>{n(data.ordersAtStart)}</strong>
            <span className="capacity__sub">
              {data.placingSeconds > 0 ? `placed over about ${n(data.placingSeconds)} s` : 'placed at once'}
              {firstWindow
                ? `; at most ${n(firstWindow.atMost)} in ${firstWindow.label}${firstWindow.placed > 0 ? ` after the ${n(firstWindow.placed)} your key has placed` : ''}, ${data.venue} allows ${n(firstWindow.limit)} (${firstWindow.rule})`
                : `; ${data.venue} counts them in its resource pool`}
            </span>
          </dd>
        </div>
        <div className={o.exceeded ? 'capacity__row capacity__row--over' : 'capacity__row'}>
          <dt>Open orders on {data.symbol}</dt>
          <dd data-testid="capacity-open">
            <strong>
              {n(o.total)} of {n(o.limit)}
            </strong>
            <Meter value={o.total} max={o.limit} label={`Open orders on ${data.symbol}`} />
            <span className="capacity__sub">
              your other bots up to {n(o.others)}, this bot up to {n(o.thisBot)} ({o.rule})
            </span>
          </dd>
        </div>
        <div className={w.exceeded ? 'capacity__row capacity__row--over' : 'capacity__row'}>
          <dt>Weight budget</dt>
          <dd data-testid="capacity-weight">
            <strong>{pct(w.budgetShareUsed)}</strong>
            <Meter value={w.account} max={w.budget} label="Your bots' share of the weight budget" />
            <span className="capacity__sub">
              your bots {n(w.account)} per {w.label} of this install's {n(w.budget)} ({pct(w.share)} of {n(w.limit)}, {w.rule})
            </span>
          </dd>
        </div>
      </dl>
      {data.refusal ? (
        <div className="form-warning" role="alert" data-testid="capacity-warning">
          <p>A start would be refused: {data.refusal}</p>
        </div>
      ) : null}
      <details className="capacity__sources">
        <summary>Sources</summary>
        <ul>
          <li>{o.rule}: {o.source}</li>
          {data.orderWindows.map((x) => (
            <li key={x.label}>
              {x.rule} {x.label}: {x.source}
            </li>
          ))}
          <li>{w.rule}: {w.source}</li>
        </ul>
      </details>
    </>
  );
}

function Meter({ value, max, label }: { value: number; max: number; label: string }) {
  const ratio = max > 0 ? Math.min(1, value / max) : 0;
  return (
    <span className={value > max ? 'capacity__meter capacity__meter--over' : 'capacity__meter'} role="meter" aria-label={label} aria-valuemin={0} aria-valuemax={max} aria-valuenow={value}>
      <span style={{ width: `${Math.max(ratio * 100, value > 0 ? 2 : 0)}%` }} />
    </span>
  );
}
