import { useGetExchangeModeQuery, type ExchangeMode, type PaperFeed } from '../api/api';

const TEXT: Record<ExchangeMode, { label: string; title: string }> = {
  paper: { label: 'Paper', title: 'Paper trading: simulated balances and orders, no real money' },
  testnet: { label: 'Testnet', title: "The exchange's test network: no real money" },
  live: { label: 'Live', title: 'Live trading: real money on the exchange' },
};

/**
 * Issue 39: which prices a paper account trades on: the venue's own (its public stream, live or down
 * with the last prices kept), or simulated ones (a random walk, a replayed price file). `exchange`: the
 * account's exchange (its stream's state); without it, the venue feed's streams together.
 */
export function paperFeedText(feed: PaperFeed, exchange?: string): string {
  if (feed.kind === 'walk') return 'simulated prices (random walk)';
  if (feed.kind === 'csv') return 'replayed prices (a price file)';
  const streams = exchange ? feed.streams.filter((s) => s.exchange === exchange) : feed.streams;
  if (streams.length === 0) return exchange ? `${exchange} prices not followed (they stay where they are)` : "the venues' prices";
  const names = streams.map((s) => `${s.exchange} ${s.market}`).join(', ');
  const down = streams.filter((s) => !s.live);
  if (down.length === 0) return `live prices from ${names}`;
  const since = down.map((s) => s.since).filter((t): t is number => t !== null);
  if (since.length === 0) return `prices from ${names}: connecting to the stream…`;
  const at = new Date(Math.min(...since)).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
  return `prices from ${names}: stream down since ${at}, last prices kept`;
}

/**
 * Whether the balances and orders next to it are simulated, on a test network or real (issue 29,
 * Found 4): a text badge, nothing while the mode is unknown. A paper badge says in its title which
 * prices it trades on (issue 39); with `showFeed`, also in words beside it.
 */
export function ModeBadge({ exchange, showFeed = false }: { exchange?: string; showFeed?: boolean } = {}) {
  const { data } = useGetExchangeModeQuery();
  if (!data) return null;
  const { mode, feed } = data;
  const t = TEXT[mode];
  const feedText = mode === 'paper' && feed ? paperFeedText(feed, exchange) : null;
  const down = feed?.kind === 'venue' && feed.streams.some((s) => (!exchange || s.exchange === exchange) && !s.live);
  return (
    <>
      <span className={`badge mode-badge mode-badge--${mode}`} data-testid="mode-badge" title={feedText ? `${t.title}; ${feedText}` : t.title}>
        {t.label}
      </span>
      {showFeed && feedText ? (
        <span className={`paper-feed${down ? ' paper-feed--down' : ''}`} data-testid="paper-feed">
          {' '}
          on {feedText}
        </span>
      ) : null}
    </>
  );
}
