/**
 * The paper venue as an independent actor for crash tests: the venue keeps its book and accounts in
 * memory (over its SQLite file), so two processes cannot share it. The TEST process hosts it and
 * serves its ExchangePort over a tiny HTTP RPC on 127.0.0.1; the runner process (the one that is
 * SIGKILLed) talks to it through RemotePaperProvider — like a runner talks to a real exchange: no
 * push (it polls fills, as with ccxt), and a call whose answer is lost in a kill may still have
 * happened on the exchange.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ExchangeMode, ExchangeName, ExchangePort, ExchangeProvider, ExchangeRef, MarketType, PriceSubscriptions } from '@gridrocket/exchanges';
import { ExchangeDownError, errorFromWire, errorToWire } from '@gridrocket/exchanges';
import { PriceHub } from '@gridrocket/exchanges';
import { CcxtExchangeProvider, sharedBudgets, type ExchangeCredential } from '@gridrocket/exchanges';
import { SqliteVenueFigureStore } from '@gridrocket/read-store';

const METHODS = new Set([
  'balances', 'price', 'positionRisk', 'setLeverage', 'marketRules', 'createLimitOrder', 'cancelOrder', 'openOrders', 'orderByClientId', 'recentFills',
  'positionMode', 'positions', 'createMarketOrder',
]);

export interface PaperRpcServer {
  url: string;
  /** Number of calls served, by method. */
  calls: Map<string, number>;
  close(): Promise<void>;
}

/** Serves `provider`'s ports (the test's paper venue) on 127.0.0.1. */
export async function servePaperRpc(provider: ExchangeProvider): Promise<PaperRpcServer> {
  const calls = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', async () => {
      let out: unknown;
      try {
        const { ref, method, args } = JSON.parse(body) as { ref: ExchangeRef; method: string; args: unknown[] };
        if (!METHODS.has(method)) throw new Error(`unknown method ${method}`);
        calls.set(method, (calls.get(method) ?? 0) + 1);
        const port = (await provider.for(ref)) as any;
        out = { ok: (await port[method](...args)) ?? null };
      } catch (err) {
        out = { error: errorToWire(err) };
      }
      if (res.destroyed) return;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(out));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}

/** The runner side: ExchangePorts that call the test's venue over HTTP. */
export class RemotePaperProvider implements ExchangeProvider {
  readonly mode: ExchangeMode = 'paper';
  readonly prices: PriceSubscriptions;

  constructor(private readonly url: string, pricePollMs = 50) {
    this.prices = new PriceHub((key, emit) => {
      let last = NaN;
      const port = this.port({ userId: '_prices', exchange: key.exchange, market: key.market });
      const timer = setInterval(() => {
        port
          .price(key.symbol)
          .then((price) => {
            if (price !== last) emit({ ...key, price, ms: Date.now() });
            last = price;
          })
          .catch(() => undefined);
      }, pricePollMs);
      timer.unref?.();
      return () => clearInterval(timer);
    });
  }

  private async rpc(ref: ExchangeRef, method: string, args: unknown[]): Promise<any> {
    let res: Response;
    try {
      res = await fetch(this.url, { method: 'POST', body: JSON.stringify({ ref, method, args }), headers: { 'content-type': 'application/json' } });
    } catch (err) {
      throw new ExchangeDownError((err as Error).name);
    }
    const body = (await res.json()) as { ok?: unknown; error?: any };
    if (body.error) throw errorFromWire(body.error);
    return body.ok;
  }

  private port(ref: ExchangeRef): ExchangePort {
    const call = (method: string) => (...args: unknown[]) => this.rpc(ref, method, args);
    return {
      exchange: ref.exchange as ExchangeName,
      market: ref.market as MarketType,
      balances: call('balances'),
      price: call('price'),
      positionRisk: call('positionRisk'),
      setLeverage: call('setLeverage'),
      marketRules: call('marketRules'),
      createLimitOrder: call('createLimitOrder'),
      cancelOrder: call('cancelOrder'),
      openOrders: call('openOrders'),
      orderByClientId: call('orderByClientId'),
      recentFills: call('recentFills'),
      positionMode: call('positionMode'),
      positions: call('positions'),
      createMarketOrder: call('createMarketOrder'),
    } satisfies ExchangePort;
  }

  async for(ref: ExchangeRef): Promise<ExchangePort> {
    return this.port(ref);
  }

  forget(): void {}

  async close(): Promise<void> {
    (this.prices as PriceHub).closeAll();
  }
}

/**
 * The crash runner's exchanges, from its environment: the ccxt adapter against venue stand-ins
 * (STANDIN_ORIGINS = {ccxtId: origin}, STANDIN_KEYS = {userId: key}), else the paper venue over RPC
 * (PAPER_RPC_URL). The venue budget (issue 39): the install's figure in VENUE_BUDGET_FILE (a limits file
 * other runner processes open too), VENUE_LIMITS = {ccxtId: {limit, windowMs}} where a stand-in's differ,
 * VENUE_BUDGET_SHARE, BUDGET_SYNC_MS.
 */
export function exchangeProviderFromEnv(pollMs: number): ExchangeProvider {
  const origins = process.env.STANDIN_ORIGINS;
  if (!origins) return new RemotePaperProvider(process.env.PAPER_RPC_URL!, pollMs);
  const byId = JSON.parse(origins) as Record<string, string>;
  const keys = JSON.parse(process.env.STANDIN_KEYS ?? '{}') as Record<string, ExchangeCredential>;
  return new CcxtExchangeProvider({
    mode: 'live',
    apiOrigin: (id) => byId[id],
    resolveCredential: async (userId) => keys[userId] ?? null,
    pricePollMs: pollMs,
    retry: { attempts: 3, baseDelayMs: 20, maxDelayMs: 200 },
    timeoutMs: 5000,
    enableRateLimit: false,
    budgetStore: process.env.VENUE_BUDGET_FILE ? sharedBudgets(new SqliteVenueFigureStore(process.env.VENUE_BUDGET_FILE)) : undefined,
    venueLimits: process.env.VENUE_LIMITS ? JSON.parse(process.env.VENUE_LIMITS) : undefined,
    budgetShare: process.env.VENUE_BUDGET_SHARE ? Number(process.env.VENUE_BUDGET_SHARE) : undefined,
    budgetSyncMs: process.env.BUDGET_SYNC_MS ? Number(process.env.BUDGET_SYNC_MS) : undefined,
  });
}
