import { Link } from 'react-router-dom';
import { RefreshCw, Wallet } from 'lucide-react';
import { describeError } from '../api/http';
import { useGetBalancesQuery, type AccountBalances } from '../balances/balancesApi';
import { ExchangeIcon } from '../bots/CoinIcon';
import { compact } from '../bots/format';
import { ModeBadge } from '../components/ModeBadge';
import '../balances/balances.css';
import { PageLoading, IconTitle } from '../components/PageKit';

const MARKET = { spot: 'Spot', futures: 'Futures' } as const;
const MODE_TEXT = { paper: 'Paper: simulated balances of the paper exchange', testnet: "Testnet: the venues' test networks", live: 'Live: your accounts on the venues' } as const;

function Account({ a }: { a: AccountBalances }) {
  const title = `${a.exchange} ${MARKET[a.market]}`;
  const id = `bal-${a.exchange}-${a.market}`;
  return (
    <section className="card balances__card" aria-labelledby={id} data-testid={id} data-state={a.state}>
      <h2 id={id}>
        <ExchangeIcon exchange={a.exchange} /> {title}
      </h2>
      {a.state === 'ok' ? (
        <div className="table-scroll">
          <table className="balances__table" aria-label={`${title} balances`}>
            <thead>
              <tr>
                <th scope="col">Asset</th>
                <th scope="col" className="num">Free</th>
                <th scope="col" className="num" title={a.market === 'futures' ? 'held as margin or by open orders' : 'held by open orders'}>Locked</th>
                <th scope="col" className="num">Total</th>
              </tr>
            </thead>
            <tbody>
              {a.assets.map((b) => (
                <tr key={b.asset} data-asset={b.asset}>
                  <th scope="row">{b.asset}</th>
                  <td className="num" data-testid={`${id}-${b.asset}-free`}>{compact(b.free)}</td>
                  <td className="num" data-testid={`${id}-${b.asset}-locked`}>{compact(b.locked)}</td>
                  <td className="num">{compact(b.total)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : a.state === 'no-key' ? (
        <p className="muted balances__state">
          {a.message} <Link to="/security">API keys</Link>
        </p>
      ) : (
        <p className="error-text balances__state" role="alert">
          {a.message ?? 'The exchange did not answer.'}
        </p>
      )}
      <p className="balances__meta">
        {a.readAt ? `Read ${new Date(a.readAt).toLocaleTimeString()}${a.cached ? ' (kept from the last read)' : ''}` : 'Not read'}
        {a.read ? ` · one read: ${a.read.call}, weight ${a.read.weight} of ${a.read.pool}` : ''}
      </p>
    </section>
  );
}

/**
 * /balances (issue 40): the user's balances per venue, market and asset, free and locked, paper or live,
 * as the exchanges hold them. Each account is read at most once per 10 s however often the page is
 * opened (the server keeps the read: the venue's budget is shared by every trader of the install).
 */
export default function BalancesPage() {
  const { data, error, isLoading, isFetching, refetch } = useGetBalancesQuery();
  return (
    <div className="page page--wide balances" data-testid="balances-page">
      <div className="page__head">
        <div>
          <IconTitle icon={Wallet} title="Balances" />
          <p className="muted">
            {data ? MODE_TEXT[data.mode] : 'Your accounts on each exchange'} <ModeBadge />
          </p>
        </div>
        <button type="button" className="btn btn--ghost btn--small" onClick={() => void refetch()} disabled={isFetching} aria-label="Read the balances again">
          <RefreshCw size={16} aria-hidden="true" /> Refresh
        </button>
      </div>
      {isLoading ? (
        <PageLoading label="Loading the balances…" />
      ) : error ? (
        <p className="error-text" role="alert">
          {describeError(error)}
        </p>
      ) : data ? (
        <>
          <div className="balances__grid">
            {data.accounts.map((a) => (
              <Account key={`${a.exchange}-${a.market}`} a={a} />
            ))}
          </div>
          <p className="muted balances__meta">Free: can be used for new orders. Locked: held by open orders (futures: and as margin). Each account is read from the exchange at most once every {data.cacheSeconds} seconds.</p>
        </>
      ) : null}
    </div>
  );
}
