export * from './exchange.port';
export { ccxtExchangeId, parseExchangeName } from './venues/registry';
export * from './exchange.errors';
export * from './exchange.provider';
export { PriceHub, type PriceSourceFactory } from './price-hub';
export {
  PaperVenue,
  PaperExchange,
  PaperExchangeProvider,
  PaperFeedDriver,
  type PaperVenueOptions,
  type PaperFeedDriverOptions,
} from './paper.exchange';
export { RandomWalkFeed, CsvReplayFeed, parseCsvPrices, type PaperPriceFeed, type FeedTick, type CsvRow } from './paper-price-feed';
export { VenueStreamFeed, priceToUnits, type PaperFeedKind, type PaperFeedStatus, type VenueFeedStream } from './paper-venue-feed';
export { startVenueFeedStreams } from './paper-venue-feed.streams';
export { lockPaperExchange, PaperExchangeInUseError } from './paper-lock';
export { openPaperExchange, paperFeedKind, paperFeedVenues, paperFeedOrigin, type PaperExchangeSetup, type PaperFeedConfig } from './paper-feed.setup';
export { PaperStore, type FillRow, type OrderRow } from './paper.store';
export * from './paper.constants';
export { CcxtExchange, mapCcxtError, DEFAULT_RETRY, type CcxtExchangeOptions, type RetryPolicy } from './ccxt.exchange';
export { CcxtExchangeProvider, type CcxtExchangeProviderOptions } from './ccxt-provider';
export { mergeOrderCounts, orderCountsOf, placedIn, type AccountOrderCounts, type OrderCountWindow } from './order-counts';
export { VenueBudget, VENUE_LIMITS, countSeen, pauseSeen, reserveBudget, rollBudget, sharedBudgets, type BudgetState, type VenueBudgetStore, type VenueFigures, type VenuePause } from './venue-budget';
export { binanceKeyPermissions, kucoinKeyPermissions } from './venues/key-permissions';
export { PAPER_KEY_PERMISSIONS } from './paper-venue';
