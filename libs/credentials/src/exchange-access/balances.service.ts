import { Inject, Injectable } from '@nestjs/common';
import { ExchangeName, ExchangeProvider, MarketType, MissingCredentialError } from '@gridrocket/exchanges';
import { BALANCES_CACHE_MS, BalanceRead, VENUE_REGISTRY, balanceRead } from '@gridrocket/exchanges/venues';
import { toHttpAppError } from './exchange-http-errors';
import { EXCHANGE_PROVIDER } from './exchange-provider.token';

/** One asset of one account: what can be used (free) and what open orders or margin hold (locked). */
export interface AssetBalance {
  asset: string;
  free: number;
  locked: number;
  total: number;
}

/** One venue's account of one market, as the balances page shows it. */
export interface AccountBalances {
  exchange: ExchangeName;
  market: MarketType;
  /** ok: read; no-key: the user has no API key for the exchange (live, testnet); unavailable: the venue did not answer. */
  state: 'ok' | 'no-key' | 'unavailable';
  /** Why not ok, in words (our texts, never a venue's payload). */
  message: string | null;
  assets: AssetBalance[];
  /** When the venue was read (ms); null when it was not. */
  readAt: number | null;
  /** Served from the last read (at most BALANCES_CACHE_MS old) without asking the venue again. */
  cached: boolean;
  /** What one read costs on the venue (venues/balance-reads.ts); null on paper. */
  read: BalanceRead | null;
}

/** Every venue and market the registry lists, in its order (libs/exchanges venues/registry.ts). */
export const BALANCE_ACCOUNTS: ReadonlyArray<{ exchange: ExchangeName; market: MarketType }> = VENUE_REGISTRY.map(({ exchange, market }) => ({ exchange, market }));

const round8 = (n: number) => Math.round(n * 1e8) / 1e8;

/**
 * The balances page's reads (issue 40): the user's accounts per venue and market through the exchange port
 * (the paper exchange's accounts, or ccxt `fetchBalance` on the venue), with the venue's budget in mind:
 * a read is kept BALANCES_CACHE_MS and shared by the requests that come meanwhile (two tabs, a reload),
 * so the page spends at most one read per account in that time; its weight is answered with it. Reads go
 * through the port, so they are counted in the install's venue budget like every other call
 * (venue-budget.ts). Owner-scoped: the user is the caller's, never a parameter.
 */
@Injectable()
export class BalancesService {
  private readonly kept = new Map<string, { at: number; answer: Promise<Omit<AccountBalances, 'cached'>> }>();

  private readonly now = Date.now;

  constructor(@Inject(EXCHANGE_PROVIDER) private readonly exchanges: ExchangeProvider) {}

  async accounts(userId: string, which: ReadonlyArray<{ exchange: ExchangeName; market: MarketType }> = BALANCE_ACCOUNTS): Promise<AccountBalances[]> {
    return Promise.all(which.map((a) => this.account(userId, a.exchange, a.market)));
  }

  private async account(userId: string, exchange: ExchangeName, market: MarketType): Promise<AccountBalances> {
    const key = `${userId}\u0000${exchange}\u0000${market}`;
    const t = this.now();
    const hit = this.kept.get(key);
    if (hit && t - hit.at < BALANCES_CACHE_MS) return { ...(await hit.answer), cached: true };
    const answer = this.read(userId, exchange, market);
    this.kept.set(key, { at: t, answer });
    this.forgetOld(t);
    const read = await answer;
    // a refusal or an outage is not kept: the next request asks again (within the port's own budget)
    if (read.state !== 'ok' && this.kept.get(key)?.answer === answer) this.kept.delete(key);
    return { ...read, cached: false };
  }

  private async read(userId: string, exchange: ExchangeName, market: MarketType): Promise<Omit<AccountBalances, 'cached'>> {
    const paper = this.exchanges.mode === 'paper';
    const base = { exchange, market, read: paper ? null : balanceRead(exchange, market) };
    try {
      const port = await this.exchanges.for({ userId, exchange, market });
      const rows = await port.balances(market);
      const assets = rows
        .map((b) => ({ asset: b.symbol, free: round8(b.available), locked: round8(Math.max(0, b.balance - b.available)), total: round8(b.balance) }))
        .filter((b) => b.total > 0 || b.asset === 'USDT');
      return { ...base, state: 'ok', message: null, assets, readAt: this.now() };
    } catch (err) {
      if (err instanceof MissingCredentialError) {
        return { ...base, state: 'no-key', message: `Add a ${exchange} API key on the API keys page to see its ${market} balances.`, assets: [], readAt: null };
      }
      return { ...base, state: 'unavailable', message: toHttpAppError(err).message, assets: [], readAt: null };
    }
  }

  private forgetOld(t: number): void {
    if (this.kept.size < 1000) return;
    for (const [k, v] of this.kept) if (t - v.at >= BALANCES_CACHE_MS) this.kept.delete(k);
  }
}
