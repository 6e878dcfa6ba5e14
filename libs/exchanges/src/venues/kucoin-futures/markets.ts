/** KuCoin futures' markets as the venue reports them (issue 32; sources: ../market-spec.ts MARKET_SOURCES, docs/exchanges.md "Markets"). */
import { lots, type CatalogueSpec, type MarketSpec, type Row } from '../market-spec';

/** Kucoin futures (USDT-margined perpetuals, lotSize 1 on all of these); no minimum order value (KF). */
export const KUCOIN_FUTURES_MARKETS: Readonly<Record<string, Row>> = {
  BTCUSDT: lots('0.001', '0.1', 'KF-SNAP'),
  ETHUSDT: lots('0.01', '0.01', 'KF-SNAP'),
  SOLUSDT: lots('0.1', '0.001', 'KF-SOL'),
};

/** A symbol without a row: lots of the catalogue's amount step as the multiplier, no minimum value. */
export const kucoinFuturesFromCatalogue = (c: CatalogueSpec): MarketSpec => ({ ...lots(c.amountStep, c.priceStep, 'KF-SNAP'), source: 'catalogue' });
