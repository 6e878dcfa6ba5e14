import { EquityCurve } from '../backtest/EquityCurve';
import { signedUsdt, usdt } from '../bots/format';
import { useGetAccountPerformanceQuery } from './moneyApi';
import { percent2, tone } from './format';
import { annualisedText } from './words';
import './money.css';

/** How often the account's figures are read again (the bots page's strip reads the same answer). */
export const ACCOUNT_POLL_MS = 5000;

/**
 * The account's money (issue 29, docs/money.md `GET /api/performance`): total P&L (realised + unrealised)
 * over all the user's bots, the capital their orders hold and the capital the running ones commit (issue 40,
 * point 6: not the bots never started or stopped), the return, annualised from 7 days, the equity curve; in
 * the bots' quote currency, a second currency's bots on a line of their own.
 */
export function AccountPerformance() {
  const { data: perf, isError } = useGetAccountPerformanceQuery(undefined, { pollingInterval: ACCOUNT_POLL_MS });
  if (isError || !perf) return null;
  const cur = perf.currency || 'USDT';
  const annual = annualisedText(perf.annualisedPercent, perf.runtimeMs);
  const running = perf.botsRunning ?? 0;
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
              <dd data-testid="account-total-pnl" className={tone(perf.totalPnl)}>{signedUsdt(perf.totalPnl)} {cur}</dd>
            </div>
            <div>
              <dt>Realised</dt>
              <dd data-testid="account-realised">{signedUsdt(perf.realisedPnl)} {cur}</dd>
            </div>
            <div>
              <dt>Unrealised</dt>
              <dd data-testid="account-unrealised">{signedUsdt(perf.unrealisedPnl)} {cur}</dd>
            </div>
            <div title="What your bots' orders and positions hold on the exchanges now (the strip's figure)">
              <dt>Capital in use</dt>
              <dd data-testid="account-capital-in-use">{usdt(perf.capitalInUse)} {cur}</dd>
            </div>
            <div title="What the full ladders of the bots running now take; bots not started or stopped commit nothing">
              <dt>Capital committed</dt>
              <dd data-testid="account-capital">
                {usdt(perf.capitalCommitted)} {cur}
                <span className="money__sub" data-testid="account-capital-bots">
                  {running === 0 ? 'no bot running' : `by ${running} running ${running === 1 ? 'bot' : 'bots'}`}
                </span>
              </dd>
            </div>
            <div title="Total P&L over the capital committed by the bots that have run">
              <dt>Return on capital</dt>
              <dd data-testid="account-return" className={tone(perf.returnPercent)}>{percent2(perf.returnPercent)}</dd>
            </div>
            <div title={annual.hint}>
              <dt>Annualised</dt>
              <dd data-testid="account-annualised">{annual.value}{annual.note ? <> <small className="money__sub">{annual.note}</small></> : null}</dd>
            </div>
            <div>
              <dt>Fees paid</dt>
              <dd data-testid="account-fees">{usdt(perf.feesPaid)} {cur}</dd>
            </div>
          </dl>
          {perf.equity.length >= 2 ? (
            <EquityCurve
              time={perf.equity.map((p) => p.time)}
              equity={perf.equity.map((p) => perf.capitalCommitted + p.pnl)}
              capital={perf.capitalCommitted}
              currency={cur}
              title="Equity of all your bots"
            />
          ) : (
            <p className="muted">The equity curve starts with your bots' first fills.</p>
          )}
          {(perf.others ?? []).map((o) => (
            <p key={o.currency} className="muted money__note" data-testid={`account-other-${o.currency}`}>
              And {o.bots} {o.bots === 1 ? 'bot' : 'bots'} quoted in {o.currency} (not added to the figures above): total P&amp;L {signedUsdt(o.totalPnl)} {o.currency}, capital in use {usdt(o.capitalInUse)} {o.currency}, committed {usdt(o.capitalCommitted)} {o.currency}.
            </p>
          ))}
          <p className="muted money__note">
            Over {perf.bots} {perf.bots === 1 ? 'bot' : 'bots'}; each bot's figures and trades are on its page, under Performance.
          </p>
        </>
      )}
    </section>
  );
}
