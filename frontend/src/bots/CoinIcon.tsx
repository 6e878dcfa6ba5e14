import { baseAsset, coinIcon, exchangeIcon } from './icons';

export function CoinIcon({ symbol, size = 28 }: { symbol: string; size?: number }) {
  const { src, known } = coinIcon(symbol);
  const ticker = baseAsset(symbol);
  return (
    <span className="coin" style={{ width: size, height: size }}>
      <img src={src} alt="" width={size} height={size} />
      {known ? null : (
        <span className="coin__ticker" aria-hidden="true">
          {ticker.slice(0, 3)}
        </span>
      )}
    </span>
  );
}

export function ExchangeIcon({ exchange, size = 24 }: { exchange: string; size?: number }) {
  return <img src={exchangeIcon(exchange)} alt="" width={size} height={size} className="exchange-icon" />;
}
