/**
 * The venue streams of the ccxt adapter (issue 39), through ccxt pro:
 *
 * - `AccountStream`: one user-data stream per account and market (the adapter instance), shared by
 *   every bot on it. Two watch loops on ccxt's unified calls: `watchMyTrades` gives the fills (the same
 *   trade ids as the REST history, so a fill seen by both is one fill), `watchOrders` the orders that
 *   leave the book without a fill (cancelled, expired). What each venue uses under ccxt is its folder's
 *   `streams` (venues/<venue>/venue.ts: how its user data arrives, when its subscription is up, what to
 *   renew after a failure) and docs/exchanges.md "Streams".
 * - `watchPrices`: one public ticker stream per symbol.
 *
 * A loop that fails (a cut, the 24-hour end, an expired listenKey, a refused key) reports the stream
 * down, waits a back-off (1 s doubling to 60 s, with jitter) and subscribes again; the first message
 * after that reports it live. While it is down, the caller polls (the runner's fallback). The next
 * watch is asked for before a batch is handled, so that nothing arriving meanwhile waits for a later
 * message (ccxt resolves a watch with every update since the last one).
 */
import type { StreamState } from './exchange.port';
import type { CcxtExchangeInstance } from './ccxt-module';

export const STREAM_BACKOFF = { firstMs: 1000, maxMs: 60_000 } as const;

/** Back-off before the n-th resubscription (n ≥ 1): doubling, capped, ±20 % jitter. */
export function streamBackoffMs(attempt: number, random: () => number = Math.random): number {
  const base = Math.min(STREAM_BACKOFF.maxMs, STREAM_BACKOFF.firstMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(base * (0.8 + 0.4 * random()));
}

const sleep = (ms: number, signal: { stopped: boolean }) =>
  new Promise<void>((resolve) => {
    const t = setTimeout(resolve, ms);
    t.unref?.();
    if (signal.stopped) {
      clearTimeout(t);
      resolve();
    }
  });

/** A short, key-free reason (ccxt messages may carry a url with a listenKey or token). */
export function streamReason(e: unknown): string {
  const name = (e as { constructor?: { name?: string } })?.constructor?.name ?? 'Error';
  return name === 'Error' ? 'the stream ended' : `${name}`;
}

/** How long a subscription must stand, its connection open, before an idle stream counts as live. */
export const STREAM_SETTLE_MS = 500;

/** Any websocket of this ccxt instance is open (its streams are its own: one instance per account). */
export function anyStreamOpen(ex: CcxtExchangeInstance): boolean {
  const clients = ((ex as any).clients ?? {}) as Record<string, { isOpen?: () => boolean }>;
  return Object.values(clients).some((c) => {
    try {
      return c?.isOpen?.() === true;
    } catch {
      return false; // a client ccxt never dialed (its single-flight parking client) has no connection
    }
  });
}

/** How often a waiting loop checks that its stream is still there (a venue may end a subscription in words ccxt does not pass on to the watch). */
export const STREAM_CHECK_MS = 1000;

class StreamLost extends Error {
  constructor() {
    super('the stream was lost');
  }
}

/**
 * Runs `watch` again and again while not stopped: `onBatch` gets each batch (synchronously called;
 * it may start async work of its own), `onState` hears down/live changes. A stream is live once a
 * batch came or its subscription stood STREAM_SETTLE_MS with `healthy()` true, or `healthy()` is true
 * at a later check (a reconnecting socket may open after the settle time; an idle account's stream
 * carries nothing, and is still live); `healthy()` false at a check while waiting counts as a
 * loss (Binance's eventStreamTerminated, for one, rejects none of ccxt's pending watches).
 */
export function watchLoop<T>(
  /** Before each subscription; `again`: after a failure (a stream credential may need renewing). */
  prepare: (again: boolean) => Promise<void>,
  watch: () => Promise<T[]>,
  onBatch: (batch: T[]) => void,
  onState: (state: StreamState) => void,
  healthy: () => boolean,
  now: () => number = Date.now,
): () => void {
  const signal = { stopped: false };
  let live: boolean | null = null;
  const report = (next: boolean, reason?: string) => {
    if (live === next || signal.stopped) return;
    live = next;
    onState({ live: next, at: now(), ...(reason ? { reason } : {}) });
  };
  /** The batch, or StreamLost when a check finds the stream gone first. */
  const awaitBatch = (pending: Promise<T[]>) =>
    new Promise<T[]>((resolve, reject) => {
      const check = setInterval(() => {
        if (signal.stopped || !healthy()) {
          clearInterval(check);
          reject(new StreamLost());
        } else report(true); // a socket still opening when the subscription settled is open now
      }, STREAM_CHECK_MS);
      check.unref?.();
      pending.then(
        (b) => {
          clearInterval(check);
          resolve(b);
        },
        (e) => {
          clearInterval(check);
          reject(e);
        },
      );
    });
  void (async () => {
    let failures = 0;
    while (!signal.stopped) {
      try {
        await prepare(failures > 0);
        let pending = watch();
        pending.catch(() => undefined);
        const settled = await Promise.race([pending.then(() => false), sleep(STREAM_SETTLE_MS, signal).then(() => true)]);
        if (settled && healthy()) {
          failures = 0;
          report(true);
        }
        for (;;) {
          const batch = await awaitBatch(pending);
          if (signal.stopped) return;
          pending = watch();
          pending.catch(() => undefined);
          failures = 0;
          report(true);
          onBatch([...batch]);
        }
      } catch (e) {
        if (signal.stopped) return;
        failures++;
        report(false, e instanceof StreamLost ? 'the venue ended the stream' : streamReason(e));
        await sleep(streamBackoffMs(failures), signal);
      }
    }
  })();
  return () => {
    signal.stopped = true;
  };
}

/** ccxt needs an http agent for plain ws:// urls (a local stand-in); real venues are wss://. */
export async function prepareStreams(ex: CcxtExchangeInstance): Promise<void> {
  const anyEx = ex as any;
  if (anyEx.httpAgent === undefined && typeof anyEx.loadHttpProxyAgent === 'function') {
    const urls = JSON.stringify(ex.urls?.api ?? {});
    if (urls.includes('"ws://')) await anyEx.loadHttpProxyAgent();
  }
}
