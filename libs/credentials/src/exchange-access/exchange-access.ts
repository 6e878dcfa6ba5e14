import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '@gridrocket/shared/runtime';
import { CredentialResolver } from '../application/credential-resolver';
import { join } from 'node:path';
import { CcxtExchangeProvider, ExchangeProvider, PaperExchangeProvider, openPaperExchange, sharedBudgets, type BudgetState, type PaperExchangeSetup } from '@gridrocket/exchanges';
import { MongoVenueFigureStore, SqliteVenueFigureStore, type VenueFigureStore } from '@gridrocket/read-store';

/**
 * Builds the process's ExchangeProvider once, from configuration only:
 * - paper (default): one simulated venue in `<data>/paper-exchange.sqlite`, prices from a seeded
 *   random walk, a CSV replay (PAPER_PRICES) or the venues' public ticker streams (PAPER_FEED=venue,
 *   issue 39), driven by a timer;
 * - live/testnet: ccxt, with the user's key decrypted by the credential resolver at the moment of use,
 *   spending from one budget per venue shared by every runner of the install (issue 39): the venues'
 *   counters in the read store's `venue_budgets` (the limits file beside the per-user buckets, or MongoDB).
 */
@Injectable()
export class ExchangeAccess implements OnApplicationBootstrap, OnApplicationShutdown {
  readonly provider: ExchangeProvider;
  private readonly paper: PaperExchangeSetup | null = null;
  private readonly figures: VenueFigureStore | null = null;
  private figuresReady: Promise<unknown> = Promise.resolve();
  private readonly logger = new Logger('Exchanges');

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    resolver: CredentialResolver,
  ) {
    if (config.exchangeMode === 'paper') {
      this.paper = openPaperExchange({
        dataDir: config.dataDir,
        paperPrices: config.paperPrices ?? undefined,
        paperFeed: config.paperFeed.kind ?? undefined,
        paperFeedVenues: config.paperFeed.venues ?? undefined,
        paperFeedOrigin: config.paperFeed.origin ?? undefined,
        onFeedError: (exchange, reason) => this.logger.warn(`Paper feed, ${exchange}: ${reason}`),
      });
      this.provider = new PaperExchangeProvider(this.paper.venue);
      if (this.paper.kind === 'venue') this.logger.log(`Paper prices from the venues' public streams: ${this.paper.status().streams.map((s) => `${s.exchange} ${s.market}`).join(', ')}`);
    } else {
      let figures: VenueFigureStore;
      if (config.readStore.kind === 'mongodb') {
        const mongo = new MongoVenueFigureStore(config.readStore.url);
        this.figuresReady = mongo.connect().catch((e: Error) => this.logger.warn(`Shared venue budget unavailable: ${e.message}`));
        figures = mongo;
      } else figures = new SqliteVenueFigureStore(join(config.dataDir, 'limits.sqlite'));
      this.figures = figures;
      const ready = () => this.figuresReady;
      this.provider = new CcxtExchangeProvider({
        mode: config.exchangeMode,
        resolveCredential: resolver.resolveCredential,
        apiOrigin: config.exchangeApiOrigin ?? undefined,
        onPriceError: (e) => this.logger.warn(`Price polling: ${e.code}`),
        budgetShare: config.venueBudgetShare,
        budgetStore: sharedBudgets({ update: async (venue, fn) => (await ready(), figures.update(venue, fn)) }),
        // each account's order counts beside them, for every runner and the capacity answer (issue 39)
        orderCountStore: { update: async (key, fn) => (await ready(), figures.update(key, fn)), get: async (key) => (await ready(), figures.get(key)) },
        onBudgetStoreError: (e) => this.logger.warn(`Shared venue budget unavailable: ${e.message}`),
      });
    }
  }

  /**
   * The install's use of each venue's budget (issue 39), as every runner wrote it: health and /metrics.
   * Empty on paper (no venue limits).
   */
  async venueBudgets(now = Date.now()): Promise<VenueBudgetView[]> {
    if (!this.figures) return [];
    const share = this.config.venueBudgetShare;
    const rows = await this.figuresReady.then(() => this.figures!.all<BudgetState>());
    // the venues' figures (binance, kucoin, …), not the accounts' order counts kept beside them (orders:…)
    return rows.filter((r) => !r.venue.includes(':')).map(({ venue, figure: f }) => {
      const used = now < f.resetAt ? f.used : 0;
      const paused = now < f.pausedUntil;
      return { venue, share, limit: f.limit, used, usedShare: f.limit > 0 ? Math.round((used / f.limit) * 10_000) / 10_000 : 0, pausedUntil: paused ? f.pausedUntil : null, pauseStatus: paused ? f.pauseStatus : null };
    });
  }

  onApplicationBootstrap() {
    this.paper?.start();
  }

  async onApplicationShutdown() {
    await this.paper?.stop();
    await this.provider.close();
    await this.figures?.close();
  }
}

/** One venue's budget as the operators see it (health `venues`, /metrics gridrocket_venue_budget_*). */
export interface VenueBudgetView {
  /** ccxt's id of the venue and market: binance, binanceusdm, kucoin, kucoinfutures. */
  venue: string;
  /** The share of the limit the install allows itself (VENUE_BUDGET_SHARE). */
  share: number;
  limit: number;
  /** Used in the venue's current window (0 once it has passed). */
  used: number;
  usedShare: number;
  /** A 429/418 pause in force: until when (ms since the epoch) and the venue's status; null: none. */
  pausedUntil: number | null;
  pauseStatus: number | null;
}
