import type { ExchangePort, ExchangeProvider } from '@gridrocket/exchanges';

type ProviderBase = Pick<ExchangeProvider, 'mode' | 'prices' | 'forget' | 'close'>;

/**
 * A provider whose ports are `inner`'s with some calls replaced (a spy, a fault, a slow venue): each time a
 * call is read, `over(port)` is asked, and a property it names (even as `undefined`: the port has no such
 * call) is the answer; any other is the inner port's own, its functions bound to it. The runner suites wrote
 * this Proxy out each (issue 42).
 */
export function providerWith(base: ProviderBase, inner: (ref: Parameters<ExchangeProvider['for']>[0]) => Promise<ExchangePort>, over: (port: ExchangePort) => Partial<ExchangePort>): ExchangeProvider {
  return {
    ...base,
    async for(ref) {
      const port = await inner(ref);
      return new Proxy(port, {
        get(target, prop) {
          const replaced = over(target) as Record<string | symbol, unknown>;
          if (prop in replaced) return replaced[prop];
          const v = (target as any)[prop];
          return typeof v === 'function' ? v.bind(target) : v;
        },
      }) as ExchangePort;
    },
  };
}
