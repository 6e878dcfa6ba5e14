import { subscriptionOf, type EventStore, type RecordedEvent, type SubscriptionFilter, type Subscription } from './event-store.port';

export interface ResubscribeOptions {
  /** Exclusive start; 'end' is resolved to the head once, so a drop before the first event loses nothing. */
  fromPosition?: bigint | 'start' | 'end';
  filter?: SubscriptionFilter;
  /** Back-off before the n-th resubscription in a row (ms). Default: 100 ms doubling, at most 10 s, jittered. */
  retryDelay?(attempt: number): number;
  /** The subscription failed (server restart, leader change, keep-alive timeout) and will be resumed. */
  onDrop?(err: Error, attempt: number): void;
  /** Resubscribed after a drop. */
  onResume?(from: bigint): void;
  /** Passed on from the store (SubscribeOptions.onProgress); a resumed subscription starts after it. */
  onProgress?(position: bigint): void;
}

export function defaultBackoff(attempt: number): number {
  const ms = Math.min(10_000, 100 * 2 ** Math.min(attempt - 1, 10));
  return ms / 2 + Math.random() * (ms / 2);
}

/**
 * A catch-up subscription to $all that survives its server: when the underlying subscription
 * fails, it subscribes again from the last position it delivered (exclusive), after a back-off,
 * for as long as it is not closed. Events are delivered once each, in position order.
 */
export function resubscribing(store: EventStore, options: ResubscribeOptions = {}): Subscription {
  // A ResilientEventStore would resubscribe silently: subscribe below it, so that drops are seen here.
  const base: EventStore = (store as { direct?: EventStore }).direct ?? store;
  let closed = false;
  let inner: Subscription | null = null;
  let wake: (() => void) | null = null;

  async function* iterate(): AsyncGenerator<RecordedEvent> {
    let from: bigint | 'start' = options.fromPosition === 'end' ? await base.headPosition() : (options.fromPosition ?? 'start');
    let attempt = 0;
    let subscribedAt = 0;
    while (!closed) {
      try {
        subscribedAt = Date.now();
        inner = base.subscribeToAll({
          fromPosition: from,
          filter: options.filter,
          onProgress: (at) => {
            if (closed) return;
            if (from === 'start' || at > from) from = at;
            options.onProgress?.(at);
          },
        });
        if (attempt > 0) options.onResume?.(from === 'start' ? 0n : from);
        for await (const event of inner) {
          if (closed) return;
          if (from !== 'start' && event.position <= from) continue; // a resumed stream may repeat its edge
          from = event.position;
          attempt = 0;
          yield event;
        }
        if (closed) return;
        throw new Error('subscription ended');
      } catch (err) {
        if (closed) return;
        // a subscription that stayed up a while was healthy: the back-off starts again from the bottom
        // (a quiet, filtered subscription receives no event that would reset it)
        if (Date.now() - subscribedAt > 1_000) attempt = 0;
        attempt++;
        options.onDrop?.(err as Error, attempt);
        await inner?.close().catch(() => undefined);
        const delay = (options.retryDelay ?? defaultBackoff)(attempt);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(done, delay);
          function done() {
            clearTimeout(timer);
            wake = null;
            resolve();
          }
          wake = done;
        });
      }
    }
  }
  return subscriptionOf(iterate(), async () => {
    closed = true;
    wake?.();
    await inner?.close().catch(() => undefined);
  });
}
