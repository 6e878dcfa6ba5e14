import { useGetExchangeModeQuery, type ExchangeMode } from '../api/api';

const TEXT: Record<ExchangeMode, { label: string; title: string }> = {
  paper: { label: 'Paper', title: 'Paper trading: simulated balances and orders, no real money' },
  testnet: { label: 'Testnet', title: "The exchange's test network: no real money" },
  live: { label: 'Live', title: 'Live trading: real money on the exchange' },
};

/**
 * Whether the balances and orders next to it are simulated, on a test network or real (issue 29,
 * Found 4): a text badge, nothing while the mode is unknown.
 */
export function ModeBadge() {
  const { data: mode } = useGetExchangeModeQuery();
  if (!mode) return null;
  const t = TEXT[mode];
  return (
    <span className={`badge mode-badge mode-badge--${mode}`} data-testid="mode-badge" title={t.title}>
      {t.label}
    </span>
  );
}
