/**
 * Our own exchange errors. Messages are fixed, safe texts: they never contain an exchange's raw
 * response, a URL, a signature, an API key or a secret. `reason` (when set) is text we wrote ourselves
 * or the name of the upstream error class, never upstream payload.
 */
export type ExchangeErrorCode =
  | 'BAD_API_KEY'
  | 'INSUFFICIENT_FUNDS'
  | 'RATE_LIMITED'
  | 'EXCHANGE_DOWN'
  | 'ORDER_NOT_FOUND'
  | 'INVALID_ORDER'
  | 'DUPLICATE_ORDER'
  | 'UNKNOWN_SYMBOL'
  | 'MISSING_CREDENTIAL'
  | 'NOT_SUPPORTED';

export abstract class ExchangeError extends Error {
  abstract readonly code: ExchangeErrorCode;
  /** Worth retrying later (rate limit, outage). */
  readonly retryable: boolean = false;
  constructor(message: string, readonly reason?: string) {
    super(message);
    this.name = new.target.name;
  }
}

export class BadApiKeyError extends ExchangeError {
  readonly code = 'BAD_API_KEY' as const;
  constructor(reason?: string) {
    super('The exchange rejected the API key (invalid key, secret, passphrase, IP or permissions).', reason);
  }
}

/**
 * Binance's -2015 "Invalid API-key, IP, or permissions for action." on a key that worked before. ccxt
 * reads it as a temporary ban (binance.js handleErrors throws DDoSProtection once the key has
 * authenticated), but it is also what a key deleted on the venue or an IP whitelist that no longer
 * matches answers. So it is retried like a rate limit, and a caller that keeps getting it treats the
 * key as refused (issue 29: a bot must not retry for ever behind "Running").
 */
export class KeyRefusedError extends BadApiKeyError {
  override readonly retryable = true;
}

export class InsufficientFundsError extends ExchangeError {
  readonly code = 'INSUFFICIENT_FUNDS' as const;
  constructor(reason?: string) {
    super('Insufficient funds on the exchange account for this order.', reason);
  }
}

export class RateLimitedError extends ExchangeError {
  readonly code = 'RATE_LIMITED' as const;
  override readonly retryable = true;
  /** How long the venue asked to wait (its Retry-After header), when it said so. */
  retryAfterMs?: number;
  constructor(reason?: string, retryAfterMs?: number) {
    super('The exchange rate limit was reached; try again later.', reason);
    if (retryAfterMs !== undefined) this.retryAfterMs = retryAfterMs;
  }
}

export class ExchangeDownError extends ExchangeError {
  readonly code = 'EXCHANGE_DOWN' as const;
  override readonly retryable = true;
  constructor(reason?: string) {
    super('The exchange is unreachable or not available right now.', reason);
  }
}

export class OrderNotFoundError extends ExchangeError {
  readonly code = 'ORDER_NOT_FOUND' as const;
  constructor(readonly clientOrderId?: string) {
    super(clientOrderId ? `Order ${clientOrderId} was not found on the exchange.` : 'Order not found on the exchange.');
  }
}

export class InvalidOrderError extends ExchangeError {
  readonly code: ExchangeErrorCode = 'INVALID_ORDER';
  constructor(reason?: string) {
    super(reason ? `The order was rejected: ${reason}.` : 'The order was rejected by the exchange.', reason);
  }
}

/**
 * The venue refused a futures symbol's leverage or margin mode (issue 40): `setting` names the venue's
 * answer (venue rules `answers.futuresSettings`), `venueText` is the venue's documented message for it (our
 * copy of its documentation, never the upstream payload), `code` its answer code.
 */
export class FuturesSettingRefusedError extends InvalidOrderError {
  constructor(
    readonly setting: 'marginModeUnchanged' | 'marginModeWithOpenOrders' | 'marginModeWithPosition' | 'leverageInvalid' | 'leverageReductionWithPosition',
    readonly venueText: string,
    readonly venueCode: string | number,
  ) {
    super(`${venueText.replace(/\.$/, '')} (${venueCode})`);
  }
}

/** An open order with the same client order id exists already. */
export class DuplicateOrderError extends InvalidOrderError {
  override readonly code = 'DUPLICATE_ORDER' as const;
  constructor(readonly clientOrderId: string) {
    super(`an open order with client order id ${clientOrderId} already exists`);
  }
}

export class UnknownSymbolError extends ExchangeError {
  readonly code = 'UNKNOWN_SYMBOL' as const;
  constructor(readonly symbol: string) {
    super(`Unknown or unsupported symbol ${JSON.stringify(String(symbol).slice(0, 20))}.`);
  }
}

export class MissingCredentialError extends ExchangeError {
  readonly code = 'MISSING_CREDENTIAL' as const;
  constructor(readonly exchange: string) {
    super(`No API key is registered for ${exchange}. Add one on the security page first.`);
  }
}

export class ExchangeNotSupportedError extends ExchangeError {
  readonly code = 'NOT_SUPPORTED' as const;
  constructor(reason: string) {
    super(`Not supported: ${reason}.`, reason);
  }
}

export function isExchangeError(e: unknown): e is ExchangeError {
  return e instanceof ExchangeError;
}

/** An error as it crosses a thread or process boundary (paper venue thread, crash-test RPC). */
export interface WireError {
  /** The ExchangeErrorCode, or 'INTERNAL' for an error that is not an exchange error. */
  code: string;
  message: string;
  reason?: string;
  clientOrderId?: string;
  symbol?: string;
  exchange?: string;
  retryAfterMs?: number;
}

export function errorToWire(err: unknown): WireError {
  const e = err as Partial<ExchangeError> & { clientOrderId?: string; symbol?: string; exchange?: string; retryAfterMs?: number; message?: string };
  if (!isExchangeError(err)) return { code: 'INTERNAL', message: String(e?.message ?? err) };
  return { code: err.code, message: err.message, reason: err.reason, clientOrderId: e.clientOrderId, symbol: e.symbol, exchange: e.exchange, retryAfterMs: e.retryAfterMs };
}

/** The exchange error a WireError stands for (same class, so `instanceof` and `retryable` hold); a plain Error otherwise. */
export function errorFromWire(w: WireError): Error {
  switch (w.code) {
    case 'BAD_API_KEY':
      return new BadApiKeyError(w.reason);
    case 'INSUFFICIENT_FUNDS':
      return new InsufficientFundsError(w.reason);
    case 'RATE_LIMITED':
      return new RateLimitedError(w.reason, w.retryAfterMs);
    case 'EXCHANGE_DOWN':
      return new ExchangeDownError(w.reason);
    case 'ORDER_NOT_FOUND':
      return new OrderNotFoundError(w.clientOrderId);
    case 'INVALID_ORDER':
      return new InvalidOrderError(w.reason);
    case 'DUPLICATE_ORDER':
      return new DuplicateOrderError(w.clientOrderId ?? '');
    case 'UNKNOWN_SYMBOL':
      return new UnknownSymbolError(w.symbol ?? '');
    case 'MISSING_CREDENTIAL':
      return new MissingCredentialError(w.exchange ?? '');
    case 'NOT_SUPPORTED':
      return new ExchangeNotSupportedError(w.reason ?? w.message);
    default:
      return new Error(w.message);
  }
}
