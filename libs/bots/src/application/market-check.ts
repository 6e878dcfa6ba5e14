import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { EXCHANGE_PROVIDER } from '@gridrocket/credentials';
import type { ExchangeProvider } from '@gridrocket/exchanges';
import { ValidationError, correlated, type CommandContext } from '@gridrocket/shared';
import type { BotType } from '@gridrocket/shared';
import { BotFormField, marketFieldErrors } from '../domain/bot-market.rules';
import type { BotConfig } from '../domain/bot.events';
import { defaultMakerRate } from '../domain/bot.rules';

/** How long a create or edit waits for the market's rules before it goes on without them. */
const RULES_TIMEOUT_MS = 3000;

/**
 * The server's side of the form's market checks (bot-market.rules.ts): a create or an edit whose
 * ladder is off the market's steps, below its minimums, at or below 0, or whose take profit does
 * not pay the fees is refused with the same field messages. When the market cannot be asked (no
 * exchange provider, the venue unreachable) the check is skipped: the runner validates the grid
 * again before it places anything.
 */
@Injectable()
export class MarketCheck {
  private readonly logger = new Logger('MarketCheck');

  constructor(@Optional() @Inject(EXCHANGE_PROVIDER) private readonly exchanges?: ExchangeProvider) {}

  async assert({ userId, correlationId }: Pick<CommandContext, 'userId' | 'correlationId'>, botType: BotType, symbol: string, config: Omit<BotConfig, 'symbol' | 'leverage'> & { leverage?: number }): Promise<void> {
    if (!this.exchanges) return;
    let rules;
    try {
      const port = await this.exchanges.for({ userId, exchange: config.exchange, market: botType === 'Futures' ? 'futures' : 'spot' });
      rules = await Promise.race([
        port.marketRules(symbol),
        new Promise<null>((resolve) => setTimeout(() => resolve(null), RULES_TIMEOUT_MS).unref()),
      ]);
    } catch (err) {
      this.logger.debug?.(correlated(`market rules of ${config.exchange} ${symbol} unavailable: ${(err as Error).message}`, correlationId));
      return;
    }
    if (!rules) return;
    // the take-profit minimum follows the market's reported maker fee, else the venue's default
    const makerFee = typeof rules.makerFee === 'number' && Number.isFinite(rules.makerFee) && rules.makerFee >= 0 ? rules.makerFee : defaultMakerRate(config.exchange, botType);
    const errors = marketFieldErrors({ ...config, leverage: config.leverage ?? 1 }, { ...rules, makerFee });
    const list = (Object.keys(errors) as BotFormField[]).map((field) => ({ field, message: errors[field]! }));
    if (list.length) throw new ValidationError(list);
  }
}
