import { useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import { ArrowLeft, Download } from 'lucide-react';
import { BotTabs } from '../bots/BotTabs';
import { EquityCurve } from '../backtest/EquityCurve';
import { percent, signedUsdt, usdt } from '../bots/format';
import { tradesCsvUrl, useGetBotPerformanceQuery, useGetBotTradesQuery } from '../money/moneyApi';
import '../money/money.css';

const PAGE = 20;
const ROLE: Record<string, string> = { buy: 'Buy', 'take-profit': 'Take-profit', 'stop-loss': 'Stop-loss' };
const when = (ms: number) => new Date(ms).toLocaleString();

/** A bot's money (issue 29): total P&L, returns, the equity curve, and its fills a page at a time. */
export default function PerformancePage() {
  const { id = '' } = useParams();
  const [offset, setOffset] = useState(0);
  const perf = useGetBotPerformanceQuery(id).data;
  const trades = useGetBotTradesQuery({ id, limit: PAGE, offset }).data;
  const total = trades?.total ?? 0;
  return (
    <div className="page page--wide money">
      <div className="page__head">
        <div>
          <Link to="/bots" className="back-link" aria-label="Back to bots">
            <ArrowLeft size={16} aria-hidden="true" /> Bots
          </Link>
          <h1>Performance</h1>
        </div>
        <a className="btn btn--ghost btn--small" href={tradesCsvUrl(id)} download aria-label="Export the trades as CSV (FIFO lots)">
          <Download size={16} aria-hidden="true" /> Export CSV
        </a>
      </div>
      <BotTabs id={id} current="performance" />
      {perf && (
        <section aria-label="Performance" className="money__figures">
          <dl className="money__grid">
            <div><dt>Total P&amp;L</dt><dd data-testid="total-pnl">{signedUsdt(perf.totalPnl)}</dd></div>
            <div><dt>Realised</dt><dd>{signedUsdt(perf.realisedPnl)}</dd></div>
            <div><dt>Unrealised</dt><dd>{signedUsdt(perf.unrealisedPnl)}</dd></div>
            <div><dt>Return on {usdt(perf.capitalCommitted)} USDT</dt><dd>{perf.returnPercent === null ? '—' : `${percent(perf.returnPercent)}`}</dd></div>
            <div><dt>Annualised</dt><dd>{perf.annualisedPercent === null ? '—' : `${percent(perf.annualisedPercent)}`}</dd></div>
            <div><dt>Cycles</dt><dd>{perf.cyclesCompleted}</dd></div>
          </dl>
          {perf.equity.length >= 2 ? (
            <EquityCurve time={perf.equity.map((p) => p.time)} equity={perf.equity.map((p) => perf.capitalCommitted + p.pnl)} capital={perf.capitalCommitted} />
          ) : (
            <p className="muted">The equity curve starts with the first fills.</p>
          )}
        </section>
      )}
      <section aria-label="Trades">
        <h2>Trades</h2>
        {trades && trades.items.length === 0 && <p className="muted">No fills yet.</p>}
        {trades && trades.items.length > 0 && (
          <div className="money__table-wrap">
            <table className="money__table">
              <thead>
                <tr><th>Time</th><th>Fill</th><th>Price</th><th>Amount</th><th>Fee</th><th>Cycle profit</th></tr>
              </thead>
              <tbody>
                {trades.items.map((t) => (
                  <tr key={t.fillId}>
                    <td data-label="Time">{when(t.at)}</td>
                    <td data-label="Fill">{ROLE[t.role] ?? t.role}</td>
                    <td data-label="Price">{t.price}</td>
                    <td data-label="Amount">{t.netAmount !== t.amount ? `${t.amount} (${t.netAmount} held)` : t.amount}</td>
                    <td data-label="Fee">{usdt(t.fee)}</td>
                    <td data-label="Cycle profit">{t.cycleProfit === null ? 'open' : signedUsdt(t.cycleProfit)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {total > PAGE && (
          <nav className="money__pages" aria-label="Trades pages">
            <button type="button" className="btn btn--ghost btn--small" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - PAGE))}>Newer</button>
            <span>{offset + 1}–{Math.min(total, offset + PAGE)} of {total}</span>
            <button type="button" className="btn btn--ghost btn--small" disabled={offset + PAGE >= total} onClick={() => setOffset(offset + PAGE)}>Older</button>
          </nav>
        )}
      </section>
    </div>
  );
}
