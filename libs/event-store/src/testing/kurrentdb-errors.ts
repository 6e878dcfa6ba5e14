import { dirname } from 'node:path';
import type * as Kurrent from '@kurrent/kurrentdb-client';

/**
 * The KurrentDB client's own errors, made the way the client makes them (test-only): a gRPC status
 * error through the client's `convertToCommandError` (appends, subscriptions), or a bridge error of
 * its native reader (readStream, readAll) through the class `convertBridgeError` picks. The client and
 * its gRPC library are loaded on first use, never when this module is imported.
 */
let loaded: typeof Kurrent | null = null;
export const kurrentClient = (): typeof Kurrent => (loaded ??= require('@kurrent/kurrentdb-client') as typeof Kurrent);

type Grpc = typeof import('@grpc/grpc-js');
let grpcLoaded: Grpc | null = null;
/** The @grpc/grpc-js that the client itself uses (resolved from the client's folder). */
const grpc = (): Grpc =>
  (grpcLoaded ??= require(require.resolve('@grpc/grpc-js', { paths: [dirname(require.resolve('@kurrent/kurrentdb-client'))] })) as Grpc);

/** A gRPC ServiceError as @grpc/grpc-js reports it (`<code> <NAME>: <details>`). */
export function serviceError(code: number, details: string): Error & { code: number; details: string; metadata: unknown } {
  const { Metadata, status } = grpc();
  const err = new Error(`${code} ${status[code]}: ${details}`) as Error & { code: number; details: string; metadata: unknown };
  err.code = code;
  err.details = details;
  err.metadata = new Metadata();
  return err;
}

/** What an append or a subscription fails with when the server is away (gRPC UNAVAILABLE): UnavailableError. */
export function unavailable(details: string): Kurrent.UnavailableError {
  return kurrentClient().convertToCommandError(serviceError(grpc().status.UNAVAILABLE, details)) as Kurrent.UnavailableError;
}

/** What an append fails with when its deadline passed before the answer came: DeadlineExceededError. */
export function deadlineExceeded(details: string): Kurrent.DeadlineExceededError {
  return kurrentClient().convertToCommandError(serviceError(grpc().status.DEADLINE_EXCEEDED, details)) as Kurrent.DeadlineExceededError;
}

/** What the native reader (readStream, readAll) fails with when the server is away: UnavailableError. */
export function readUnavailable(message: string): Kurrent.UnavailableError {
  const bridge = Object.assign(new Error(message), { name: 'UnavailableError', metadata: {} });
  return new (kurrentClient().UnavailableError)(bridge as never);
}
