import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { EXCHANGE_PROVIDER } from '@gridrocket/credentials';
import type { ExchangeProvider, MarketRules } from '@gridrocket/exchanges';
import { BOT_TYPES, EXCHANGES, ValidationError, correlated, normalSymbol, unlistedSymbolMessage, type CommandContext, type FieldError } from '@gridrocket/shared';
import type { BotType, ExchangeName } from '@gridrocket/shared';
import { BotFormField, aboveMarket, aboveMarketError, gridHalves, marketFieldErrors, maximumErrors, type BotFieldErrors } from '../domain/bot-market.rules';
import type { BotConfig } from '../domain/bot.events';
import { defaultMakerRate } from '../domain/bot.rules';
import { futuresRiskErrors } from '../domain/bot-futures.rules';

/** How long a create or edit waits for the market's rules before it goes on without them. */
const RULES_TIMEOUT_MS = 3000;

/**
 * The server's side of the form's market checks (bot-market.rules.ts): a create or an edit whose
 * ladder is off the market's steps, below its minimums, at or below 0, or whose take profit does
 * not pay the fees is refused with the same field messages. When the market cannot be asked (no
 * exchange provider, the venue unreachable) the check is skipped: the runner validates the grid
 * again before it places anything.
 *
 * The pair against the venue (issue 39): a pair the account's venue does not list is refused on `symbol`
 * (refuseUnlisted); the venue's maximums (amount and value of one order, open orders per symbol, the price
 * band around the current price) are refused with the rule named (bot-market.rules.ts maximumErrors).
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
  async priceStep(ctx: Pick<CommandContext, 'userId' | 'correlationId'>, botType: unknown, exchange: unknown, symbol: unknown): Promise<number | undefined> {
    const rules = await this.rules(ctx, botType, exchange, symbol);
    return rules && rules.priceStep > 0 ? rules.priceStep : undefined;
  }

  /**
   * The market's rules (steps, minimums), for a range's price step (issue 32) and an investment's sizing
   * (issue 40, bot-investment.rules.ts), or undefined when the market cannot be asked in time (or the
   * exchange, type or symbol are not ones the parse accepts).
   */
  async rules({ userId, correlationId }: Pick<CommandContext, 'userId' | 'correlationId'>, botType: unknown, exchange: unknown, symbol: unknown): Promise<MarketRules | undefined> {
    if (!this.exchanges) return undefined;
    if (!(EXCHANGES as readonly unknown[]).includes(exchange) || !(BOT_TYPES as readonly unknown[]).includes(botType) || !normalSymbol(symbol)) return undefined;
    try {
      const port = await this.exchanges.for({ userId, exchange: exchange as ExchangeName, market: botType === 'Futures' ? 'futures' : 'spot' });
      const timeout = new Promise<null>((resolve) => setTimeout(() => resolve(null), RULES_TIMEOUT_MS).unref());
      return (await Promise.race([port.marketRules(normalSymbol(symbol)!), timeout])) ?? undefined;
    } catch (err) {
      this.logger.debug?.(correlated(`market rules of ${String(exchange)} ${symbol} unavailable: ${(err as Error).message}`, correlationId));
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
    // issue 40: a stop-loss beyond the liquidation price, with the market's steps when it answers, else cents
    const beyondLiquidation = (r?: { priceStep: number; amountStep: number; minNotional: number } | null) => {
      const errors = futuresRiskErrors(botType, { ...config, symbol }, r);
      if (errors.length) throw new ValidationError(errors);
    };
    if (!this.exchanges) return beyondLiquidation();
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
      this.refuseUnlisted(err, symbol, config.exchange, botType === 'Futures' ? 'futures' : 'spot');
      this.logger.debug?.(correlated(`market rules of ${config.exchange} ${symbol} unavailable: ${(err as Error).message}`, correlationId));
      return beyondLiquidation();
    }
    if (!rules) return beyondLiquidation();
    // the take-profit minimum follows the market's reported maker fee, else the venue's default
    const makerFee = typeof rules.makerFee === 'number' && Number.isFinite(rules.makerFee) && rules.makerFee >= 0 ? rules.makerFee : defaultMakerRate(config.exchange, botType);
    // a neutral grid (issue 32) is checked as its two halves, the buys below and the sells above the reference
    const halves = gridHalves({ ...config, leverage: config.leverage ?? 1 });
    const errors: BotFieldErrors = {};
    // issue 39: the venue's maximums name the venue and the coin; a neutral grid keeps both halves open (no take-profit of its own)
    const context = { exchange: config.exchange, symbol, ...(halves.length > 1 ? { openOrders: 2 * Math.floor(config.numOfOrders) } : {}) };
    for (const half of halves) {
      // (a neutral grid has no take profit of its own, issue 40: one kept for a switch back is checked then)
      const e = marketFieldErrors(half, { ...rules, makerFee: halves.length > 1 ? undefined : makerFee }, undefined, context);
      for (const field of Object.keys(e) as BotFormField[]) errors[field] ??= e[field];
    }
    for (const half of halves) {
      const above = options.confirmAboveMarket || errors.entryPrice ? null : aboveMarket(half, price, rules.takerFee);
      if (above) errors.entryPrice = aboveMarketError(above, symbol.replace(/(USDT|USDC)$/, ''));
    }
    // the venue's price band around the current price (issue 39) after the entry's own warning: an entry that
    // would fill at once is told so first; confirmed, a rung the venue would still refuse is refused with its rule
    for (const half of halves) {
      const band = maximumErrors(half, rules, { ...context, price });
      for (const field of Object.keys(band) as BotFormField[]) errors[field] ??= band[field];
    }
    const list = (Object.keys(errors) as BotFormField[]).map((field) => ({ field, message: errors[field]! }));
    if (list.length) throw new ValidationError(list);
    beyondLiquidation(rules);
  }

  /**
   * Issue 39, "Any pair the venue lists": the account's venue answered that it does not list the pair (a
   * live or testnet account asks its venue's markets through ccxt, a paper account the paper catalogue):
   * refused on `symbol`, naming the venue and market. Any other failure to ask is not a refusal.
   */
  private refuseUnlisted(err: unknown, symbol: string, exchange: string, market: 'spot' | 'futures'): void {
    if ((err as { code?: unknown })?.code !== UNKNOWN_SYMBOL) return;
    throw new ValidationError([{ field: 'symbol', message: unlistedSymbolMessage(symbol, venueLabel(this.exchanges?.mode, exchange, market)) }]);
  }

  /**
   * A bot of a style with a market check of its own (BotStyleRules.marketProblem: the infinity grid's,
   * issue 32, docs/infinity.md) against its market: the style's one field message; skipped as above when
   * the market cannot be asked.
   */
  async assertStyle({ userId, correlationId }: Pick<CommandContext, 'userId' | 'correlationId'>, botType: BotType, config: BotConfig, problem: (rules: MarketRules) => FieldError | null): Promise<void> {
    if (!this.exchanges) return;
    const market = botType === 'Futures' ? 'futures' : 'spot';
    let rules;
    try {
      const port = await this.exchanges.for({ userId, exchange: config.exchange, market });
      const timeout = () => new Promise<null>((resolve) => setTimeout(() => resolve(null), RULES_TIMEOUT_MS).unref());
      rules = await Promise.race([port.marketRules(config.symbol), timeout()]);
    } catch (err) {
      this.refuseUnlisted(err, config.symbol, config.exchange, market);
      this.logger.debug?.(correlated(`market rules of ${config.exchange} ${config.symbol} unavailable: ${(err as Error).message}`, correlationId));
      return;
    }
    if (!rules) return;
    const found = problem(rules);
    if (found) throw new ValidationError([found]);
  }
}

const UNKNOWN_SYMBOL = 'UNKNOWN_SYMBOL'; // exchange.errors.ts UnknownSymbolError's code

/** The venue as a refusal names it: "Binance spot", "Binance spot testnet", "the paper exchange's Binance spot". */
export function venueLabel(mode: string | undefined, exchange: string, market: 'spot' | 'futures'): string {
  if (mode === 'paper') return `the paper exchange's ${exchange} ${market}`;
  return mode === 'testnet' ? `${exchange} ${market} testnet` : `${exchange} ${market}`;
}
