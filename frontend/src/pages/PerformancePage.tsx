import { useState, type ReactNode } from 'react';
import { useParams } from 'react-router-dom';
import { Download } from 'lucide-react';
import { BotTabs } from '../bots/BotTabs';
import { EquityCurve } from '../backtest/EquityCurve';
import { signedUsdt, usdt } from '../bots/format';
import { percent2, quantity, tone } from '../money/format';
import { annualisedText, fillLabel } from '../money/words';
import { compact } from '../bots/format';
import { tradesCsvUrl, useGetBotPerformanceQuery, useGetBotTradesQuery } from '../money/moneyApi';
import '../money/money.css';
import { BotSubpageHead } from '../components/PageKit';

const PAGE = 20;
const when = (ms: number) => new Date(ms).toLocaleString();

/**
 * A cell of the trades table. Its label is shown only on narrow screens (money.css), where each trade
 * becomes a card of label/value lines so nothing needs sideways scrolling at 375 px; wide screens read
 * the column header. Hidden from screen readers, which announce the header anyway.
 */
function Cell({ label, children }: { label: string; children: ReactNode }) {
  return (
    <td data-label={label}>
      <span className="money__label" aria-hidden="true">{label}</span>
      <span className="money__value">{children}</span>
    </td>
  );
}

/** A bot's money (issue 29): total P&L, returns, the equity curve, and its fills a page at a time. */
export default function PerformancePage() {
  const { id = '' } = useParams();
  const [offset, setOffset] = useState(0);
  const perf = useGetBotPerformanceQuery(id).data;
  const trades = useGetBotTradesQuery({ id, limit: PAGE, offset }).data;
  const total = trades?.total ?? 0;
  const cur = perf?.currency || 'USDT';
  const coin = perf?.symbol ? perf.symbol.replace(/(USDT|USDC)$/, '') : '';
  const direction = perf?.direction ?? 'long';
  const annual = annualisedText(perf?.annualisedPercent, perf?.runtimeMs);
  return (
    <div className="page page--wide money">
      <BotSubpageHead
        title="Performance"
        actions={
          <a className="btn btn--ghost btn--small" href={tradesCsvUrl(id)} download aria-label="Export the trades as CSV (FIFO lots)">
            <Download size={16} aria-hidden="true" /> Export CSV
          </a>
        }
      />
      <BotTabs id={id} current="performance" />
      {perf && (
        <section aria-label="Performance" className="money__figures">
          <dl className="money__grid">
            <div><dt>Total P&amp;L</dt><dd data-testid="total-pnl" className={tone(perf.totalPnl)}>{signedUsdt(perf.totalPnl)} {cur}</dd></div>
            <div><dt>Realised</dt><dd data-testid="realised-pnl">{signedUsdt(perf.realisedPnl)} {cur}</dd></div>
            <div><dt>Unrealised</dt><dd data-testid="unrealised-pnl">{signedUsdt(perf.unrealisedPnl)} {cur}</dd></div>
            <div title="What the bot's full ladder takes when every order rests"><dt>Capital committed</dt><dd data-testid="capital-committed">{usdt(perf.capitalCommitted)} {cur}</dd></div>
            <div title="What the bot's orders and position hold on the exchange now"><dt>Capital in use</dt><dd data-testid="capital-in-use">{usdt(perf.capitalInUse)} {cur}</dd></div>
            <div><dt>Return on capital</dt><dd data-testid="return" className={tone(perf.returnPercent)}>{percent2(perf.returnPercent)}</dd></div>
            <div title={annual.hint}>
              <dt>Annualised</dt>
              <dd data-testid="annualised">{annual.value}{annual.note ? <> <small className="money__sub">{annual.note}</small></> : null}</dd>
            </div>
            <div><dt>Fees paid</dt><dd data-testid="fees">{usdt(perf.feesPaid)} {cur}</dd></div>
            <div><dt>Position</dt><dd data-testid="position">{compact(perf.position)} {coin}{perf.position < 0 ? ' (short)' : ''}</dd></div>
            {perf.dust > 0 ? <div title="Left after a cycle, below the market's minimum order: not counted as a position"><dt>Dust</dt><dd data-testid="dust">{compact(perf.dust)} {coin}</dd></div> : null}
            <div><dt>Fills</dt><dd data-testid="fills">{perf.fills}</dd></div>
            <div><dt>Cycles</dt><dd>{perf.cyclesCompleted}</dd></div>
          </dl>
          {perf.equity.length >= 2 ? (
            <EquityCurve time={perf.equity.map((p) => p.time)} equity={perf.equity.map((p) => perf.capitalCommitted + p.pnl)} capital={perf.capitalCommitted} currency={cur} title="Equity of this bot" />
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
                    <Cell label="Time">{when(t.at)}</Cell>
                    <Cell label="Fill">{fillLabel(t.role, t.side, direction)}</Cell>
                    <Cell label="Price">{quantity(t.price)} {cur}</Cell>
                    <Cell label="Amount">{t.netAmount !== t.amount ? `${quantity(t.amount)} ${coin} (${quantity(t.netAmount)} held)` : `${quantity(t.amount)} ${coin}`}</Cell>
                    <Cell label="Fee">{usdt(t.fee)} {cur}</Cell>
                    <Cell label="Cycle profit">{t.role === 'liquidation' ? '—' : t.cycleProfit === null ? 'open' : `${signedUsdt(t.cycleProfit)} ${cur}`}</Cell>
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
