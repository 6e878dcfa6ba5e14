/** The quota error lives in the pure kernel (deciders raise it); re-exported here for the HTTP layer. */
export { QuotaExceededError } from '../quota/quota';
