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
}

export type AppRequest = Request & { user?: SessionUser; correlationId?: string };

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
