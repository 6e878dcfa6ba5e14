/** Errors the domain and the application raise; the HTTP layer maps them to status codes. */
export interface FieldError {
  field: string;
  message: string;
}

export abstract class AppError extends Error {
  abstract readonly status: number;
}

export class ValidationError extends AppError {
  readonly status = 400;
  constructor(readonly errors: FieldError[], message = 'Invalid input') {
    super(message);
    this.name = 'ValidationError';
  }
}

export class NotFoundError extends AppError {
  readonly status = 404;
  constructor(message = 'Not found') {
    super(message);
    this.name = 'NotFoundError';
  }
}

export class ConflictError extends AppError {
  readonly status = 409;
  constructor(message: string) {
    super(message);
    this.name = 'ConflictError';
  }
}

export class ForbiddenError extends AppError {
  readonly status = 403;
  constructor(message = 'Forbidden') {
    super(message);
    this.name = 'ForbiddenError';
  }
}

export class UnauthorizedError extends AppError {
  readonly status = 401;
  constructor(message = 'Not signed in') {
    super(message);
    this.name = 'UnauthorizedError';
  }
}

export class TooManyRequestsError extends AppError {
  readonly status = 429;
  constructor(readonly retryAfterSeconds: number, message = 'Too many requests, try again later') {
    super(message);
    this.name = 'TooManyRequestsError';
  }
}
