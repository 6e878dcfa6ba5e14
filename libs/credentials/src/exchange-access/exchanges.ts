/**
 * What this context uses from the exchanges library (libs/exchanges), in one place. It imports the
 * library's files by path while the library has no index.ts yet; once it has one, this becomes
 * `export ... from '@gridrocket/exchanges'`.
 */
export type {
  BalanceRecord,
  ExchangeCredential,
  ExchangeName as PortExchangeName,
  ExchangePort,
  ExchangeProvider,
  MarketType,
  PositionRisk,
  ResolveCredential,
} from '@gridrocket/exchanges/exchange.port';
export { parseExchangeName } from '@gridrocket/exchanges/exchange.port';
export {
  BadApiKeyError,
  ExchangeDownError,
  ExchangeError,
  ExchangeNotSupportedError,
  InsufficientFundsError,
  InvalidOrderError,
  MissingCredentialError,
  OrderNotFoundError,
  RateLimitedError,
  UnknownSymbolError,
} from '@gridrocket/exchanges/exchange.errors';
export { PaperExchangeProvider, PaperFeedDriver, PaperVenue } from '@gridrocket/exchanges/paper.exchange';
export { CcxtExchangeProvider } from '@gridrocket/exchanges/ccxt.exchange';
