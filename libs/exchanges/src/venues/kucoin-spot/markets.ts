/** KuCoin spot's markets as the venue reports them (issue 32; sources: ../market-spec.ts MARKET_SOURCES, docs/exchanges.md "Markets"). */
import type { CatalogueSpec, MarketSpec, Row } from '../market-spec';

/** Kucoin spot. */
export const KUCOIN_SPOT_MARKETS: Readonly<Record<string, Row>> = {
  BTCUSDT: { priceStep: '0.1', amountStep: '0.00000001', minAmount: '0.00001', minNotional: '0.1', source: 'KS-SNAP' },
  ETHUSDT: { priceStep: '0.01', amountStep: '0.0000001', minAmount: '0.0001', minNotional: '0.1', source: 'KS-SNAP' },
};

/** A symbol without a row: the catalogue's values. */
export const kucoinSpotFromCatalogue = (c: CatalogueSpec): MarketSpec => ({ priceStep: c.priceStep, amountStep: c.amountStep, minAmount: c.amountStep, minNotional: c.minNotional, source: 'catalogue' });
