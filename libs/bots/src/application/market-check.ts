import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { EXCHANGE_PROVIDER } from '@gridrocket/credentials';
import type { ExchangeProvider } from '@gridrocket/exchanges';
import { BOT_TYPES, EXCHANGES, SYMBOLS, ValidationError, correlated, type CommandContext } from '@gridrocket/shared';
import type { BotType, ExchangeName } from '@gridrocket/shared';
import { BotFormField, aboveMarket, aboveMarketError, gridHalves, marketFieldErrors, type BotFieldErrors } from '../domain/bot-market.rules';
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
 *
 * The entry price against the market (issue 29 finding 3, docs/risk.md): an entry more than
 * ABOVE_MARKET_TOLERANCE (0.5 %) above the current price (the same `price` the form shows: the
 * exchange port's ticker) is refused on `entryPrice` with what would happen (rungs that fill at once
 * as taker orders, their cost), unless the request carries `confirmAboveMarket: true`. No price in
 * time: not checked.
 */
@Injectable()
export class MarketCheck {
  private readonly logger = new Logger('MarketCheck');

  constructor(@Optional() @Inject(EXCHANGE_PROVIDER) private readonly exchanges?: ExchangeProvider) {}

  /**
   * The market's price step, for a range given in a body (issue 32, bot-range.rules.ts), or undefined when
   * the market cannot be asked in time (or the exchange, type or symbol are not ones the parse accepts).
   */
  async priceStep({ userId, correlationId }: Pick<CommandContext, 'userId' | 'correlationId'>, botType: unknown, exchange: unknown, symbol: unknown): Promise<number | undefined> {
    if (!this.exchanges) return undefined;
    if (!(EXCHANGES as readonly unknown[]).includes(exchange) || !(BOT_TYPES as readonly unknown[]).includes(botType) || typeof symbol !== 'string' || !SYMBOLS.includes(symbol.toUpperCase())) return undefined;
    try {
      const port = await this.exchanges.for({ userId, exchange: exchange as ExchangeName, market: botType === 'Futures' ? 'futures' : 'spot' });
      const timeout = new Promise<null>((resolve) => setTimeout(() => resolve(null), RULES_TIMEOUT_MS).unref());
      const rules = await Promise.race([port.marketRules(symbol.toUpperCase()), timeout]);
      return rules && rules.priceStep > 0 ? rules.priceStep : undefined;
    } catch (err) {
      this.logger.debug?.(correlated(`price step of ${String(exchange)} ${symbol} unavailable: ${(err as Error).message}`, correlationId));
      return undefined;
    }
  }

  async assert(
    { userId, correlationId }: Pick<CommandContext, 'userId' | 'correlationId'>,
    botType: BotType,
    symbol: string,
    config: Omit<BotConfig, 'symbol' | 'leverage'> & { leverage?: number },
    options: { confirmAboveMarket?: boolean } = {},
  ): Promise<void> {
    if (!this.exchanges) return;
    let rules;
    let price: number | null = null;
    try {
      const port = await this.exchanges.for({ userId, exchange: config.exchange, market: botType === 'Futures' ? 'futures' : 'spot' });
      const timeout = () => new Promise<null>((resolve) => setTimeout(() => resolve(null), RULES_TIMEOUT_MS).unref());
      [rules, price] = await Promise.all([
        Promise.race([port.marketRules(symbol), timeout()]),
        Promise.race([port.price(symbol).catch(() => null), timeout()]),
      ]);
    } catch (err) {
      this.logger.debug?.(correlated(`market rules of ${config.exchange} ${symbol} unavailable: ${(err as Error).message}`, correlationId));
      return;
    }
    if (!rules) return;
    // the take-profit minimum follows the market's reported maker fee, else the venue's default
    const makerFee = typeof rules.makerFee === 'number' && Number.isFinite(rules.makerFee) && rules.makerFee >= 0 ? rules.makerFee : defaultMakerRate(config.exchange, botType);
    // a neutral grid (issue 32) is checked as its two halves, the buys below and the sells above the reference
    const halves = gridHalves({ ...config, leverage: config.leverage ?? 1 });
    const errors: BotFieldErrors = {};
    for (const half of halves) {
      const e = marketFieldErrors(half, { ...rules, makerFee });
      for (const field of Object.keys(e) as BotFormField[]) errors[field] ??= e[field];
    }
    for (const half of halves) {
      const above = options.confirmAboveMarket || errors.entryPrice ? null : aboveMarket(half, price, rules.takerFee);
      if (above) errors.entryPrice = aboveMarketError(above, symbol.replace(/(USDT|USDC)$/, ''));
    }
    const list = (Object.keys(errors) as BotFormField[]).map((field) => ({ field, message: errors[field]! }));
    if (list.length) throw new ValidationError(list);
  }
}
