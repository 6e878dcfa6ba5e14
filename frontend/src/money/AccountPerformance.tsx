import { EquityCurve } from '../backtest/EquityCurve';
import { signedUsdt, usdt } from '../bots/format';
import { useGetAccountPerformanceQuery } from './moneyApi';
import { percent2, tone } from './format';
import './money.css';

/**
 * The account's money (issue 29, docs/money.md `GET /api/performance`): total P&L (realised + unrealised)
 * over all the user's bots, the return on the capital they commit, annualised, and the account's equity curve.
 */
export function AccountPerformance() {
  const { data: perf, isError } = useGetAccountPerformanceQuery(undefined, { pollingInterval: 30_000 });
  if (isError || !perf) return null;
  return (
    <section aria-labelledby="account-perf-title" className="money__figures money__account" data-testid="account-performance">
      <h2 id="account-perf-title">Performance</h2>
      {perf.bots === 0 ? (
        <p className="muted" data-testid="account-performance-empty">
          No bots yet: your profit and loss, returns and equity curve appear here once a bot has traded.
        </p>
      ) : (
        <>
          <dl className="money__grid">
            <div>
              <dt>Total P&amp;L</dt>
              <dd data-testid="account-total-pnl" className={tone(perf.totalPnl)}>{signedUsdt(perf.totalPnl)} USDT</dd>
            </div>
            <div>
              <dt>Realised</dt>
              <dd data-testid="account-realised">{signedUsdt(perf.realisedPnl)} USDT</dd>
            </div>
            <div>
              <dt>Unrealised</dt>
              <dd data-testid="account-unrealised">{signedUsdt(perf.unrealisedPnl)} USDT</dd>
            </div>
            <div>
              <dt>Capital committed</dt>
              <dd data-testid="account-capital">{usdt(perf.capitalCommitted)} USDT</dd>
            </div>
            <div>
              <dt>Return on capital</dt>
              <dd data-testid="account-return" className={tone(perf.returnPercent)}>{percent2(perf.returnPercent)}</dd>
            </div>
            <div>
              <dt>Annualised</dt>
              <dd data-testid="account-annualised" title={perf.annualisedPercent === null ? 'Shown after 10 minutes of running' : undefined}>
                {perf.annualisedPercent === null ? '— (after 10 min)' : percent2(perf.annualisedPercent)}
              </dd>
            </div>
            <div>
              <dt>Fees paid</dt>
              <dd data-testid="account-fees">{usdt(perf.feesPaid)} USDT</dd>
            </div>
          </dl>
          {perf.equity.length >= 2 ? (
            <EquityCurve
              time={perf.equity.map((p) => p.time)}
              equity={perf.equity.map((p) => perf.capitalCommitted + p.pnl)}
              capital={perf.capitalCommitted}
              currency="USDT"
              title="Equity of all your bots"
            />
          ) : (
            <p className="muted">The equity curve starts with your bots' first fills.</p>
          )}
          <p className="muted money__note">
            Over {perf.bots} {perf.bots === 1 ? 'bot' : 'bots'}; each bot's figures and trades are on its page, under Performance.
          </p>
        </>
      )}
    </section>
  );
}
