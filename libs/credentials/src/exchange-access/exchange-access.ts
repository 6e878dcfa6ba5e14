import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '@gridrocket/shared/runtime';
import { CredentialResolver } from '../application/credential-resolver';
import { CcxtExchangeProvider, ExchangeProvider, PaperExchangeProvider, openPaperExchange, type PaperExchangeSetup } from '@gridrocket/exchanges';

/**
 * Builds the process's ExchangeProvider once, from configuration only:
 * - paper (default): one simulated venue in `<data>/paper-exchange.sqlite`, prices from a seeded
 *   random walk, a CSV replay (PAPER_PRICES) or the venues' public ticker streams (PAPER_FEED=venue,
 *   issue 39), driven by a timer;
 * - live/testnet: ccxt, with the user's key decrypted by the credential resolver at the moment of use.
 */
@Injectable()
export class ExchangeAccess implements OnApplicationBootstrap, OnApplicationShutdown {
  readonly provider: ExchangeProvider;
  private readonly paper: PaperExchangeSetup | null = null;
  private readonly logger = new Logger('Exchanges');

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
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
      this.provider = new CcxtExchangeProvider({
        mode: config.exchangeMode,
        resolveCredential: resolver.resolveCredential,
        apiOrigin: config.exchangeApiOrigin ?? undefined,
        onPriceError: (e) => this.logger.warn(`Price polling: ${e.code}`),
      });
    }
  }

  onApplicationBootstrap() {
    this.paper?.start();
  }

  async onApplicationShutdown() {
    await this.paper?.stop();
    await this.provider.close();
  }
}
