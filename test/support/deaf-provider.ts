import type { ExchangePort, ExchangeProvider, OrderUpdate } from '@gridrocket/exchanges';

/**
 * An exchange provider whose bots do not hear about the orders in `hidden`: the venue's pushes and
 * fills of them are lost (a dropped push, a trade history that lags). The watchdog tests use it to make
 * a fill or a cancel happen "behind the bot's back".
 */
export function deafTo(hidden: Set<string>, inner: (ref: Parameters<ExchangeProvider['for']>[0]) => Promise<ExchangePort>, mode: ExchangeProvider['mode']): ExchangeProvider {
  return {
    mode,
    // no price ticks: on ccxt they wake the fill poller, which would find the fill before the watchdog does
    prices: { subscribe: () => () => undefined, activeCount: () => 0 },
    forget: () => undefined,
    close: async () => undefined,
    async for(ref) {
      const port = await inner(ref);
      return new Proxy(port, {
        get(target, prop) {
          if (prop === 'watchOrders' && target.watchOrders) {
            return (listener: (u: OrderUpdate) => void) => target.watchOrders!((u) => void (hidden.has(u.order.clientOrderId) || listener(u)));
          }
          if (prop === 'recentFills') {
            return async (symbol: string, since: number) => (await target.recentFills(symbol, since)).filter((f) => !hidden.has(f.clientOrderId));
          }
          const v = (target as any)[prop];
          return typeof v === 'function' ? v.bind(target) : v;
        },
      }) as ExchangePort;
    },
  };
}
