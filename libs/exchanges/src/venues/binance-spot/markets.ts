/** Binance spot's markets as the venue reports them (issue 32; sources: ../market-spec.ts MARKET_SOURCES, docs/exchanges.md "Markets"). */
import type { CatalogueSpec, MarketSpec, Row } from '../market-spec';

/** Binance spot's maximums shared by the BS-SNAP rows: NOTIONAL maxNotional, MAX_NUM_ORDERS, PERCENT_PRICE_BY_SIDE. */
const BS_MAX = { maxNotional: '9000000', maxNumOrders: 200, percentPrice: { bidUp: 5, bidDown: 0.2, askUp: 5, askDown: 0.2 } } as const;

/** Binance spot, LOT_SIZE minQty = stepSize on these symbols. */
export const BINANCE_SPOT_MARKETS: Readonly<Record<string, Row>> = {
  BTCUSDT: { priceStep: '0.01', amountStep: '0.00001', minAmount: '0.00001', minNotional: '5', source: 'BS-SNAP', maxAmount: '9000', ...BS_MAX },
  ETHUSDT: { priceStep: '0.01', amountStep: '0.0001', minAmount: '0.0001', minNotional: '5', source: 'BS-SNAP', maxAmount: '9000', ...BS_MAX },
  LTCUSDT: { priceStep: '0.01', amountStep: '0.001', minAmount: '0.001', minNotional: '5', source: 'BS-SNAP', maxAmount: '90000', ...BS_MAX },
  // issue 39: listed by the venue, not in the paper catalogue (paper.constants.ts VENUE_ONLY_SYMBOLS: the stand-ins list it)
  ADAUSDT: { priceStep: '0.0001', amountStep: '0.1', minAmount: '0.1', minNotional: '5', source: 'BS-SNAP', maxAmount: '900000', ...BS_MAX },
  XRPUSDT: { priceStep: '0.0001', amountStep: '1', minAmount: '1', minNotional: '5', source: 'BS-SNAP' },
};

/** A symbol without a row: the catalogue's values. */
export const binanceSpotFromCatalogue = (c: CatalogueSpec): MarketSpec => ({ priceStep: c.priceStep, amountStep: c.amountStep, minAmount: c.amountStep, minNotional: c.minNotional, source: 'catalogue' });
