import { lazy, Suspense } from 'react';
import type { Bot } from '../api/types';

const BotChart = lazy(() => import('./BotChart'));

/** The "Price and grid" card of the bot page and the auditor's bot page: the large chart, loaded when first shown. */
export function BotChartCard({ bot }: { bot: Bot }) {
  return (
    <section className="card botpage__chart" aria-labelledby="chart-title">
      <h2 id="chart-title">Price and grid</h2>
      <Suspense fallback={<div className="chart-empty">Loading chart…</div>}>
        <BotChart bot={bot} large />
      </Suspense>
    </section>
  );
}
