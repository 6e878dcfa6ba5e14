import express from 'express';
import type { NextFunction, Request, Response } from 'express';
import { SIGNAL_BODY_LIMIT } from './signal.rules';

/** The signal route's path as routing matches it (exact: the app routes case-sensitively and strictly). */
const SIGNAL_PATH = /^\/api\/signals\/[^/]+$/;

/**
 * Keeps the signal route's body as the bytes that were sent (req.body is a Buffer there), whatever
 * its content type: the signature covers the raw body, and TradingView sends text/plain unless the
 * message is JSON. Installed before the JSON parser, which then leaves the request alone. Bodies over
 * SIGNAL_BODY_LIMIT are 413.
 */
export function signalRawBody() {
  const raw = express.raw({ type: () => true, limit: SIGNAL_BODY_LIMIT });
  return (req: Request, res: Response, next: NextFunction) => (req.method === 'POST' && SIGNAL_PATH.test(req.path) ? raw(req, res, next) : next());
}

/** The raw body the middleware kept (empty when none was sent). */
export function rawBodyOf(req: Request): Buffer {
  return Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
}
