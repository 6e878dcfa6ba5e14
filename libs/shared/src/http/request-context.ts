import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { Request } from 'express';
import type { CommandContext } from '../command-context';
import { UnauthorizedError } from '../errors';

/** The signed-in user, as the session guard attached it. */
export interface SessionUser {
  uid: string;
  email: string;
  sessionId: string;
  /** Whether the address was verified, as of this request (roles that need it re-check it every time). */
  emailVerified: boolean;
  /** When this session signed in (ms), when known: "a sign-in within the last few minutes" (issue 38). */
  signedInAt?: number;
}

export type AppRequest = Request & { user?: SessionUser; correlationId?: string; clientIp?: string };

/**
 * The client's address (`req.ip`: TRUST_PROXY decides whose X-Forwarded-For counts), read once while
 * the socket is there and kept on the request. Express computes `req.ip` from `req.socket` on every
 * read, and throws once the socket is gone (issue 38: a `finish` listener read it after a 413 upload had
 * torn the socket down, and the TypeError killed the process). Never throws; '' when it cannot be known.
 */
export function clientIpOf(req: Request): string {
  const r = req as AppRequest;
  if (r.clientIp === undefined) {
    try {
      r.clientIp = req.ip ?? req.socket?.remoteAddress ?? '';
    } catch {
      return '';
    }
  }
  return r.clientIp;
}

const CORRELATION = /^[A-Za-z0-9._:-]{1,100}$/;

export function correlationIdOf(req: AppRequest): string {
  if (!req.correlationId) {
    const given = req.header('x-correlation-id');
    req.correlationId = given && CORRELATION.test(given) ? given : randomUUID();
  }
  return req.correlationId;
}

/** `@Ctx()`: the command context (user from the session, correlation id from the request). */
export const Ctx = createParamDecorator((_: unknown, host: ExecutionContext): CommandContext => {
  const req = host.switchToHttp().getRequest<AppRequest>();
  if (!req.user) throw new UnauthorizedError();
  return { userId: req.user.uid, correlationId: correlationIdOf(req), causationId: null };
});

/** `@CurrentUser()`: the session user. */
export const CurrentUser = createParamDecorator((_: unknown, host: ExecutionContext): SessionUser => {
  const req = host.switchToHttp().getRequest<AppRequest>();
  if (!req.user) throw new UnauthorizedError();
  return req.user;
});
