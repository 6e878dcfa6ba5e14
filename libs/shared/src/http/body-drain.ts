import type { Request } from 'express';

/** How much of a refused body is read and thrown away before the connection is closed instead. */
export const DRAIN_MAX_BYTES = 16 * 1024 * 1024;
export const DRAIN_MAX_MS = 10_000;

/**
 * The chunks of a request body, read without tearing the request down when the reader stops early.
 * A plain `for await (… of req)` destroys the request (and with it the socket) when the loop breaks or
 * throws, so an upload refused half-way (413, a bad line) had its socket gone before its answer was
 * logged (issue 38: the request logger then read `req.ip`, threw, and ended the process).
 */
export function bodyChunks(req: Request): AsyncIterable<Buffer> {
  return req.iterator({ destroyOnReturn: false }) as AsyncIterable<Buffer>;
}

/**
 * After a refusal, reads and discards what is left of the body so the answer reaches a client that is
 * still sending (a client that gets no answer retries), and asks the client to close the connection.
 * Bounded: past `maxBytes` more or `maxMs`, the connection is closed once the answer has been written.
 * Never throws.
 */
export function drainRefusedBody(req: Request, options: { maxBytes?: number; maxMs?: number } = {}): void {
  const maxBytes = options.maxBytes ?? DRAIN_MAX_BYTES;
  const maxMs = options.maxMs ?? DRAIN_MAX_MS;
  try {
    const res = req.res;
    if (res && !res.headersSent) res.setHeader('connection', 'close');
    if (req.readableEnded || req.destroyed) return;
    let seen = 0;
    const cut = () => {
      cleanup();
      const close = () => req.socket?.destroy();
      if (!res || res.writableFinished || res.destroyed) close();
      else res.once('finish', close).once('close', close);
    };
    const onData = (chunk: Buffer) => {
      seen += chunk.length;
      if (seen > maxBytes) cut();
    };
    const timer = setTimeout(cut, maxMs);
    timer.unref();
    const cleanup = () => {
      clearTimeout(timer);
      req.off('data', onData);
      req.off('end', cleanup);
      req.off('error', cleanup);
      req.off('close', cleanup);
    };
    req.on('data', onData);
    req.once('end', cleanup);
    req.once('error', cleanup);
    req.once('close', cleanup);
    req.resume();
  } catch {
    // the request is already gone: nothing to drain
  }
}
