/** Binance USDⓈ-M's markets as the venue reports them (issue 32; sources: ../market-spec.ts MARKET_SOURCES, docs/exchanges.md "Markets"). */
import type { CatalogueSpec, MarketSpec, Row } from '../market-spec';

/** USDⓈ-M maximums of the BF-SNAP rows: MAX_NUM_ORDERS limit 200, PERCENT_PRICE 1.05 / 0.95 of the mark price (a buy at most, a sell at least). */
const BF_MAX = { maxNumOrders: 200, percentPrice: { bidUp: 1.05, askDown: 0.95 } } as const;

/** Binance USDⓈ-M perpetuals (MARKET_LOT_SIZE equals LOT_SIZE's step and minimum on these symbols in BF-SNAP). */
export const BINANCE_USDM_MARKETS: Readonly<Record<string, Row>> = {
  BTCUSDT: { priceStep: '0.1', amountStep: '0.001', minAmount: '0.001', minNotional: '100', source: 'BF-NOTIONAL-2023', maxAmount: '1000', ...BF_MAX }, // steps and maximums: BF-SNAP
  ETHUSDT: { priceStep: '0.01', amountStep: '0.001', minAmount: '0.001', minNotional: '20', source: 'BF-NOTIONAL-2023', maxAmount: '10000', ...BF_MAX }, // steps and maximums: BF-SNAP
  LTCUSDT: { priceStep: '0.01', amountStep: '0.001', minAmount: '0.001', minNotional: '5', source: 'BF-SNAP', maxAmount: '10000', ...BF_MAX },
  XRPUSDT: { priceStep: '0.0001', amountStep: '0.1', minAmount: '0.1', minNotional: '5', source: 'BF-SNAP' },
  // tick size not in ISSUE-32: the catalogue's 0.01; minimum value the default of BF-MIN5
  SOLUSDT: { priceStep: '0.01', amountStep: '1', minAmount: '1', minNotional: '5', source: 'ISSUE-32' },
};

/** A symbol without a row: the catalogue's steps with the 5 USDT default minimum value (BF-MIN5). */
export const binanceUsdmFromCatalogue = (c: CatalogueSpec): MarketSpec => ({ priceStep: c.priceStep, amountStep: c.amountStep, minAmount: c.amountStep, minNotional: '5', source: 'catalogue' });
