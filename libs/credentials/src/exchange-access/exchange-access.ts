import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '@gridrocket/shared/runtime';
import { CredentialResolver } from '../application/credential-resolver';
import { CcxtExchangeProvider, ExchangeProvider, PaperExchangeProvider, PaperFeedDriver, PaperVenue } from '@gridrocket/exchanges';

/**
 * Builds the process's ExchangeProvider once, from configuration only:
 * - paper (default): one simulated venue in `<data>/paper-exchange.sqlite`, prices from a seeded
 *   random walk or a CSV replay (PAPER_PRICES), driven by a timer;
 * - live/testnet: ccxt, with the user's key decrypted by the credential resolver at the moment of use.
 */
@Injectable()
export class ExchangeAccess implements OnApplicationBootstrap, OnApplicationShutdown {
  readonly provider: ExchangeProvider;
  private readonly driver: PaperFeedDriver | null = null;
  private readonly logger = new Logger('Exchanges');

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    resolver: CredentialResolver,
  ) {
    if (config.exchangeMode === 'paper') {
      const venue = PaperVenue.open({ dataDir: config.dataDir, pricesCsv: config.paperPrices ?? undefined });
      this.provider = new PaperExchangeProvider(venue);
      this.driver = new PaperFeedDriver(venue);
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
    this.driver?.start();
  }

  async onApplicationShutdown() {
    this.driver?.stop();
    await this.provider.close();
  }
}
