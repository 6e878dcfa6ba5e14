import { AppError, ConflictError, TooManyRequestsError, ValidationError, statusError } from '@gridrocket/shared';
import {
  BadApiKeyError,
  ExchangeError,
  ExchangeNotSupportedError,
  InsufficientFundsError,
  InvalidOrderError,
  MissingCredentialError,
  OrderNotFoundError,
  RateLimitedError,
  UnknownSymbolError,
} from '@gridrocket/exchanges';

export class ExchangeUnavailableError extends statusError(503, 'ExchangeUnavailableError', 'The exchange is unreachable or not available right now.') {}
export class BadGatewayError extends statusError(502, 'BadGatewayError', 'The exchange call failed.') {}

/**
 * Our exchange errors → HTTP. Their messages are fixed texts written by us (never an exchange's
 * payload); anything else becomes a generic 502 without its message, which could quote a request.
 */
export function toHttpAppError(err: unknown): Error {
  if (err instanceof AppError) return err;
  if (err instanceof MissingCredentialError) return new ConflictError(err.message);
  if (err instanceof BadApiKeyError) return new ConflictError(err.message);
  if (err instanceof RateLimitedError) return new TooManyRequestsError(30, err.message);
  if (err instanceof UnknownSymbolError) return new ValidationError([{ field: 'symbol', message: err.message }], err.message);
  if (err instanceof InsufficientFundsError || err instanceof OrderNotFoundError) return new ConflictError(err.message);
  if (err instanceof InvalidOrderError || err instanceof ExchangeNotSupportedError) return new ValidationError([{ field: 'exchange', message: err.message }], err.message);
  if (err instanceof ExchangeError && err.retryable) return new ExchangeUnavailableError(err.message);
  if (err instanceof ExchangeError) return new BadGatewayError(err.message);
  return new BadGatewayError();
}
