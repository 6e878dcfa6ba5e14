/**
 * The ccxt library as the adapter loads it, with the types the adapter uses.
 */
import * as nodeModule from 'node:module';
import type * as CcxtModule from 'ccxt';


/**
 * ccxt is loaded with Node's own require: its CommonJS build requires the ESM-only @noble packages,
 * which Node >= 20.19 loads natively (require(esm)) but Jest's module registry cannot. Outside Jest
 * this is exactly `require('ccxt')`.
 */
const nativeModule: typeof nodeModule = (process as any).getBuiltinModule?.('node:module') ?? nodeModule;
export const ccxt: typeof CcxtModule = nativeModule.createRequire(__filename)('ccxt');
// eslint-disable-next-line @typescript-eslint/no-namespace
export declare namespace ccxt {
  type Exchange = CcxtModule.Exchange;
  type Market = CcxtModule.Market;
  type Order = CcxtModule.Order;
  type FeeInterface = CcxtModule.FeeInterface;
  type Trade = CcxtModule.Trade;
  type Ticker = CcxtModule.Ticker;
}

export type CcxtExchangeInstance = ccxt.Exchange;
export type CcxtMarket = NonNullable<ccxt.Market>;
/** ccxt's precision mode where precision values are step sizes (binance, kucoin). */
export const TICK_SIZE = 4;

/** Sends every API call of a ccxt instance to `origin` (tests: a local stand-in), its streams too. */
export function rewriteOrigin(urls: any, origin: string): any {
  if (typeof urls === 'string') {
    // websocket hosts (ccxt pro's urls.api.ws) go to the same origin over ws:// (issue 39)
    if (/^wss?:\/\//.test(urls)) return urls.replace(/^wss?:\/\/[^/]+/, origin.replace(/^http/, 'ws'));
    return urls.replace(/^https?:\/\/[^/]+/, origin);
  }
  if (urls && typeof urls === 'object') {
    const out: any = Array.isArray(urls) ? [] : {};
    for (const k of Object.keys(urls)) out[k] = rewriteOrigin(urls[k], origin);
    return out;
  }
  return urls;
}

/**
 * ccxt pro settles some of its internal futures nobody awaits: a refused user-data subscription
 * (binance `ensureUserDataStreamWsSubscribeSignature` rejects its `authenticate:signature:<type>` future
 * after the caller's own promise has already rejected). In Node an unobserved rejected promise is an
 * 'unhandledRejection', which ends the process: one revoked key would stop every bot of the runner.
 * Every future a client of this instance creates gets a no-op observer; whoever awaits it still gets
 * the rejection.
 */
export function observeStreamFutures(ex: CcxtExchangeInstance): void {
  const anyEx = ex as any;
  if (anyEx.__observedFutures) return;
  anyEx.__observedFutures = true;
  // ccxt pro's delayed tasks (the USDⓈ-M listenKey keepalive every 20 minutes) must not keep a stopping
  // process alive: their timers are unref'd (they still run while the process lives)
  anyEx.delay = (timeout: number, method: (...a: unknown[]) => unknown, ...args: unknown[]) => {
    const t = setTimeout(() => anyEx.spawn(method, ...args), timeout);
    t.unref?.();
  };
  const client = anyEx.client.bind(ex);
  anyEx.client = (url: string) => {
    const c = client(url);
    if (!c.__observedFutures) {
      c.__observedFutures = true;
      for (const name of ['future', 'reusableFuture'] as const) {
        const original = c[name]?.bind(c);
        if (!original) continue;
        c[name] = (hash: string) => {
          const f = original(hash);
          f?.catch?.(() => undefined);
          return f;
        };
      }
    }
    return c;
  };
}
