/** The credentials context's Nest entry (`@gridrocket/credentials/nest`): module and Nest providers. */
export * from './credentials.module';
export * from './application/credential-resolver';
export * from './application/key-use.ledger';
export * from './application/key-permission-checks';
export { ExchangeAccess, type VenueBudgetView } from './exchange-access/exchange-access';
export { registerVenueBudgetMetrics } from './exchange-access/venue-budget.metrics';
