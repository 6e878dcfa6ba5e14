import type { ExchangePort, ExchangeProvider, Order, OrderUpdate } from '@gridrocket/exchanges';
import { CcxtExchange } from '@gridrocket/exchanges';
import { STUB_KEY } from '@gridrocket/exchanges/testing/ccxt.fixtures';
import { startVenueStandIn } from '@gridrocket/exchanges/testing/standin/venue-standin';
import type { DriftEventData } from '@gridrocket/bots';
import { RunnerWorld } from './runner-world';

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

/** The venues the watchdog tests run on. */
export const WATCHDOG_VENUES = ['paper', 'ccxt Binance spot stand-in'] as const;

/**
 * The world's venue as a watchdog test reaches it, deaf to `hidden`: the paper port itself, or the ccxt
 * adapter against the Binance spot stand-in (whose fill poller is left to its hourly round: only the
 * watchdog can find what the bot missed). `close` stops the stand-in.
 */
export async function deafVenue(world: RunnerWorld, venueName: (typeof WATCHDOG_VENUES)[number], user: string, hidden: Set<string>): Promise<{ provider: ExchangeProvider; close(): Promise<void> }> {
  if (venueName === 'paper') return { provider: deafTo(hidden, (ref) => world.paper.for(ref), 'paper'), close: async () => undefined };
  const standIn = await startVenueStandIn(world.venue, 'Binance', 'spot', [{ ...STUB_KEY, userId: user }]);
  const origin = standIn.origin;
  const provider = deafTo(
    hidden,
    async (ref) => new CcxtExchange({ exchange: ref.exchange, market: ref.market, mode: 'live', credential: STUB_KEY, apiOrigin: origin, timeoutMs: 5000, retry: { attempts: 2, baseDelayMs: 5 } }),
    'live',
  );
  return { provider, close: () => standIn.close() };
}

/**
 * The world of a watchdog suite (describe block): a runner world on `csv` from `startAt`, its venue deaf
 * to `hidden` (as `deafVenue`), both closed after the suite; the bot's drift events and the user's open
 * orders on the venue as each suite writes them.
 */
export function useDeafWorld(csv: string, startAt: number, venueName: (typeof WATCHDOG_VENUES)[number], user: string) {
  const hidden = new Set<string>();
  let world: RunnerWorld;
  let venue: Awaited<ReturnType<typeof deafVenue>> | null = null;
  beforeAll(async () => {
    world = new RunnerWorld(csv, startAt);
    venue = await deafVenue(world, venueName, user, hidden);
  });
  afterAll(async () => {
    await world.close();
    await venue?.close();
  });
  return {
    hidden,
    get world() {
      return world;
    },
    get provider() {
      return venue!.provider;
    },
    drifts: async (id: string): Promise<DriftEventData[]> => (await world.history(id)).filter((e) => e.type === 'BotDriftDetected').map((e) => e.data as DriftEventData),
    /** The user's open orders of `symbol` on the (spot Binance) venue, as `show` writes them, sorted. */
    venueOpen: async (symbol: string, show: (o: Order) => string) => (await (await world.paper.for({ userId: user, exchange: 'Binance', market: 'spot' })).openOrders(symbol)).map(show).sort(),
  };
}
