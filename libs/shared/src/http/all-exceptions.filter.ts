import { ArgumentsHost, Catch, ExceptionFilter, HttpException, HttpStatus, Logger } from '@nestjs/common';
import type { Response } from 'express';
import { WrongExpectedVersionError } from '@gridrocket/event-store';
import { correlated } from '../command-context';
import { AppError, TooManyRequestsError, ValidationError } from '../errors';
import { AppRequest, correlationIdOf } from './request-context';

/**
 * One error shape for every route: `{statusCode, message, errors?: [{field, message}]}`.
 * Domain errors map to their status; body-parser failures to 400/413; anything
 * unexpected is logged and answered with a generic 500 that leaks nothing.
 */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  private readonly logger = new Logger('HTTP');

  catch(exception: unknown, host: ArgumentsHost): void {
    const res = host.switchToHttp().getResponse<Response>();
    const { status, body, headers } = toHttpError(exception);
    if (status >= 500) {
      const req = host.switchToHttp().getRequest<AppRequest>();
      this.logger.error(correlated((exception instanceof Error ? exception.stack : undefined) ?? String(exception), req ? correlationIdOf(req) : undefined));
    }
    if (res.headersSent) return;
    for (const [k, v] of Object.entries(headers)) res.setHeader(k, v);
    res.status(status).json(body);
  }
}

export function toHttpError(exception: unknown): { status: number; body: Record<string, unknown>; headers: Record<string, string> } {
  const headers: Record<string, string> = {};
  if (exception instanceof ValidationError) {
    return { status: 400, headers, body: { statusCode: 400, message: exception.message, errors: exception.errors } };
  }
  if (exception instanceof TooManyRequestsError) {
    headers['Retry-After'] = String(exception.retryAfterSeconds);
  }
  if (exception instanceof AppError) {
    // an AppError may name the fields it is about (e.g. a two-factor code: issue 30)
    const errors = (exception as { errors?: unknown }).errors;
    return { status: exception.status, headers, body: { statusCode: exception.status, message: exception.message, ...(Array.isArray(errors) ? { errors } : {}) } };
  }
  if (exception instanceof WrongExpectedVersionError) {
    return { status: 409, headers, body: { statusCode: 409, message: 'The resource changed meanwhile; try again' } };
  }
  const e = exception as { type?: string; status?: number; statusCode?: number; expose?: boolean; message?: string; code?: string };
  // the client hung up before its body was complete (Node's 'aborted' stream error, e.g. while an upload is
  // read): its fault, not the server's, answered as body-parser answers it (issue 38: it was logged as a 500)
  if (e?.type === 'request.aborted' || (e?.code === 'ECONNRESET' && e?.message === 'aborted')) {
    return { status: 400, headers, body: { statusCode: 400, message: 'The request was aborted before its body was complete', errors: [{ field: 'body', message: 'The body was cut off' }] } };
  }
  // body-parser (express.json) errors
  if (e?.type === 'entity.parse.failed') {
    return { status: 400, headers, body: { statusCode: 400, message: 'Malformed JSON body', errors: [{ field: 'body', message: 'The body is not valid JSON' }] } };
  }
  if (e?.type === 'entity.too.large') {
    return { status: 413, headers, body: { statusCode: 413, message: 'The request body is too large', errors: [{ field: 'body', message: 'The body is too large' }] } };
  }
  if (e?.type && typeof e.status === 'number' && e.status >= 400 && e.status < 500) {
    return { status: e.status, headers, body: { statusCode: e.status, message: e.message ?? 'Bad request' } };
  }
  if (exception instanceof HttpException) {
    const status = exception.getStatus();
    const r = exception.getResponse();
    const message = typeof r === 'string' ? r : ((r as { message?: unknown }).message ?? exception.message);
    return { status, headers, body: { statusCode: status, message: Array.isArray(message) ? message.join('; ') : message } };
  }
  return { status: HttpStatus.INTERNAL_SERVER_ERROR, headers, body: { statusCode: 500, message: 'Internal server error' } };
}
