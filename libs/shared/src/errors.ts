/** Errors the domain and the application raise; the HTTP layer maps them to status codes. */
export interface FieldError {
  field: string;
  message: string;
}

export abstract class AppError extends Error {
  abstract readonly status: number;
}

/**
 * An AppError with its HTTP status, name and default message, for the errors that carry nothing else:
 * `class NotFoundError extends statusError(404, 'NotFoundError', 'Not found') {}`.
 */
export function statusError(status: number, name: string, defaultMessage?: string) {
  return class extends AppError {
    readonly status = status;
    constructor(message: string | undefined = defaultMessage) {
      super(message);
      this.name = name;
    }
  };
}

export class ValidationError extends statusError(400, 'ValidationError', 'Invalid input') {
  constructor(readonly errors: FieldError[], message?: string) {
    super(message);
  }
}

export class NotFoundError extends statusError(404, 'NotFoundError', 'Not found') {}
export class ConflictError extends statusError(409, 'ConflictError') {}
export class ForbiddenError extends statusError(403, 'ForbiddenError', 'Forbidden') {}
export class UnauthorizedError extends statusError(401, 'UnauthorizedError', 'Not signed in') {}

export class TooManyRequestsError extends statusError(429, 'TooManyRequestsError', 'Too many requests, try again later') {
  constructor(readonly retryAfterSeconds: number, message?: string) {
    super(message);
  }
}
