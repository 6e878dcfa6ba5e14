/**
 * Shared price subscriptions: many listeners (bots, sockets) per (exchange, market, symbol), one
 * upstream source per key, opened on the first listener and closed after the last one leaves.
 */
import type {
  PriceListener,
  PriceSubscriptionKey,
  PriceSubscriptions,
  PriceTick,
  Unsubscribe,
} from './exchange.port';

/** Opens one upstream price source for a key; `emit` fans a tick out to the key's listeners. */
export type PriceSourceFactory = (key: PriceSubscriptionKey, emit: (tick: PriceTick) => void) => Unsubscribe;

interface Entry {
  listeners: Set<PriceListener>;
  close: Unsubscribe;
  /** The last tick: a listener that joins later hears it at once (a quiet market may not tick again soon). */
  last?: PriceTick;
}

export class PriceHub implements PriceSubscriptions {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly openSource: PriceSourceFactory,
    private readonly onListenerError: (error: unknown) => void = () => undefined,
  ) {}

  subscribe(key: PriceSubscriptionKey, listener: PriceListener): Unsubscribe {
    const k = `${key.exchange}|${key.market}|${key.symbol}`;
    let entry = this.entries.get(k);
    if (!entry) {
      const listeners = new Set<PriceListener>();
      const created: Entry = { listeners, close: () => undefined };
      this.entries.set(k, created);
      created.close = this.openSource({ ...key }, (tick) => {
        created.last = tick;
        for (const l of listeners) {
          try {
            l(tick);
          } catch (e) {
            this.onListenerError(e);
          }
        }
      });
      entry = created;
    }
    const own = entry;
    own.listeners.add(listener);
    const last = own.last;
    if (last)
      queueMicrotask(() => {
        if (!own.listeners.has(listener)) return;
        try {
          listener(last);
        } catch (e) {
          this.onListenerError(e);
        }
      });
    let done = false;
    return () => {
      if (done) return;
      done = true;
      own.listeners.delete(listener);
      if (own.listeners.size === 0 && this.entries.get(k) === own) {
        this.entries.delete(k);
        own.close();
      }
    };
  }

  activeCount(): number {
    return this.entries.size;
  }

  closeAll(): void {
    for (const e of this.entries.values()) e.close();
    this.entries.clear();
  }
}
