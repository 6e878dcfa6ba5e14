/**
 * The Nest token of the one ExchangeProvider of the process (paper or ccxt, by EXCHANGE_MODE).
 * Provided by CredentialsModule (global); the routes and the grid runner inject it:
 * `@Inject(EXCHANGE_PROVIDER) exchanges: ExchangeProvider`.
 */
export const EXCHANGE_PROVIDER = Symbol('EXCHANGE_PROVIDER');
