/**
 * A finished backtest as the panel shows it: the equity curve, the figures, the candles and fees, and
 * (issue 40) where the candles came from: the venue's own, with the period, or the simulated history with
 * a "Simulated" badge and why (a trader must never read a random walk as the market's last 30 days).
 */
import { EquityCurve } from './EquityCurve';
import type { BacktestDoc, BacktestHistoryView } from './backtestApi';

const pct = (x: number) => `${(x * 100).toFixed(2)} %`;
const usd = (x: number) => `${x.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })} USDT`;

const DATE_TIME = /(\d{4}-\d\d-\d\d \d\d:\d\d(?: UTC)?)/;

/** The server's words, its dates kept whole on one line (a line never breaks inside "2026-11-02 00:00"). */
function withWholeDates(text: string) {
  return text.split(DATE_TIME).map((part, i) => (i % 2 ? <span key={i} className="backtest__nowrap">{part}</span> : part));
}

/** The history of a backtest or sweep: the server's words, and a badge when it is simulated. */
export function HistoryNote({ history }: { history?: BacktestHistoryView | null }) {
  if (!history) return null;
  return (
    <p className={history.simulated ? 'backtest__history backtest__history--simulated' : 'backtest__history'} data-testid="backtest-history" data-source={history.source}>
      <span className="backtest__history-title">History</span>{' '}
      {history.simulated ? (
        <>
          <span className="backtest__badge">Simulated</span>{' '}
        </>
      ) : null}
      <span className="backtest__history-label">{withWholeDates(history.label)}</span>
    </p>
  );
}

export function BacktestResult({ doc }: { doc: BacktestDoc }) {
  const result = doc.result;
  if (!result) return null;
  return (
    <div className="backtest__result" data-testid="backtest-result">
      <HistoryNote history={doc.history} />
      <EquityCurve time={result.curve.time} equity={result.curve.equity} capital={result.capital} title="Equity over the backtest" capitalLabel="capital" />
      <dl className="backtest__figures">
        <div><dt>Realised profit</dt><dd data-testid="backtest-profit">{usd(result.profit)}</dd></div>
        <div><dt>Unrealised P&amp;L</dt><dd>{usd(result.unrealised)}</dd></div>
        <div><dt>Fees</dt><dd>{usd(result.fees)}</dd></div>
        <div><dt>Cycles / fills</dt><dd>{result.cycles} / {result.fills}</dd></div>
        <div><dt>Max drawdown</dt><dd>{usd(result.maxDrawdown)} ({pct(result.maxDrawdownPct)})</dd></div>
        <div><dt>Time in market</dt><dd>{pct(result.timeInMarket)}</dd></div>
        <div><dt>Return (annualised)</dt><dd>{pct(result.totalReturn)} ({pct(result.annualisedReturn)})</dd></div>
        <div><dt>Buy and hold</dt><dd>{usd(result.buyAndHold.profit)} ({pct(result.buyAndHold.totalReturn)})</dd></div>
      </dl>
      <p className="backtest__note">
        {`${(doc.candles ?? 0).toLocaleString('en-US')} candles, capital ${usd(result.capital)}${doc.terms?.feeSource ? `; fees: ${doc.terms.feeSource}` : ''}`}
      </p>
    </div>
  );
}
