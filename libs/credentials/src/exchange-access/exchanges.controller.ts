import { Get, Header, Inject, Query } from '@nestjs/common';
import { CommandContext, SYMBOL_SYNTAX_MESSAGE, ValidationError, normalSymbol } from '@gridrocket/shared';
import { Ctx, assertSameUser } from '@gridrocket/shared/http';
import { SessionController } from '@gridrocket/identity/nest';
import { APP_CONFIG, AppConfig } from '@gridrocket/shared/runtime';
import { toHttpAppError } from './exchange-http-errors';
import { AccountBalances, BALANCE_ACCOUNTS, BalancesService } from './balances.service';
import { BALANCES_CACHE_MS } from '@gridrocket/exchanges/venues';
import { EXCHANGE_PROVIDER } from './exchange-provider.token';
import { BalanceRecord, ExchangePort, ExchangeProvider, MarketType, ExchangeName as PortExchangeName, PositionRisk, parseExchangeName, type PaperFeedStatus } from '@gridrocket/exchanges';

type Query = Record<string, unknown>;

function exchangeOf(query: Query, fallback?: PortExchangeName): PortExchangeName {
  const raw = query.exchange;
  if (raw === undefined || raw === '') {
    if (fallback) return fallback;
    throw new ValidationError([{ field: 'exchange', message: 'Exchange is required' }]);
  }
  const e = typeof raw === 'string' ? parseExchangeName(raw) : undefined;
  if (!e) throw new ValidationError([{ field: 'exchange', message: 'Exchange must be Binance or Kucoin' }]);
  return e;
}

function symbolOf(query: Query): string {
  const raw = query.symbol;
  if (raw === undefined || raw === '') throw new ValidationError([{ field: 'symbol', message: 'symbol is required' }]);
  // written as a pair; whether the venue lists it is the port's answer (UnknownSymbolError → 400 on symbol)
  const s = normalSymbol(raw);
  if (!s) throw new ValidationError([{ field: 'symbol', message: SYMBOL_SYNTAX_MESSAGE }]);
  return s;
}

/** A port that only reads public data: the live provider has key-less instances; paper needs none. */
interface PublicPorts {
  publicFor(exchange: PortExchangeName, market: MarketType): ExchangePort;
}
const hasPublicPorts = (p: unknown): p is PublicPorts => typeof (p as PublicPorts)?.publicFor === 'function';
/** The paper provider says which feed prices it (issue 39). */
const hasFeedStatus = (p: unknown): p is { feedStatus(): PaperFeedStatus } => typeof (p as { feedStatus?: unknown })?.feedStatus === 'function';

/**
 * The spec's exchange reads (section 7): balances, prices and futures leverage. The user is the
 * session's; `userId` is accepted for compatibility and must match. In live or testnet mode, a user
 * without an API key for the exchange gets 409 with a clear message (prices are public and need none).
 */
@SessionController('exchanges', '/')
export class ExchangesController {
  constructor(
    @Inject(EXCHANGE_PROVIDER) private readonly exchanges: ExchangeProvider,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly balanceReads: BalancesService,
  ) {}

  /**
   * Beyond the spec (issue 40): the balances page. The signed-in user's accounts per venue and market
   * (free and locked per asset; paper: the paper exchange's accounts, live/testnet: the venue through
   * ccxt), each read kept 10 s and answered with what a read costs on the venue. `exchange`, `market`:
   * only those accounts. A venue that does not answer, or a missing key, is that account's `state`,
   * not a failure of the page.
   */
  @Get('balances')
  async balancesPage(@Query() query: Query, @Ctx() ctx: CommandContext): Promise<{ mode: AppConfig['exchangeMode']; cacheSeconds: number; accounts: AccountBalances[] }> {
    assertSameUser(ctx.userId, query.userId);
    const exchange = query.exchange === undefined || query.exchange === '' ? undefined : exchangeOf(query);
    const rawMarket = query.market;
    if (rawMarket !== undefined && rawMarket !== '' && rawMarket !== 'spot' && rawMarket !== 'futures') {
      throw new ValidationError([{ field: 'market', message: 'market must be spot or futures' }]);
    }
    const which = BALANCE_ACCOUNTS.filter((a) => (!exchange || a.exchange === exchange) && (!rawMarket || a.market === rawMarket));
    return { mode: this.config.exchangeMode, cacheSeconds: BALANCES_CACHE_MS / 1000, accounts: await this.balanceReads.accounts(ctx.userId, which) };
  }

  /**
   * Beyond the spec (issue 29, Found 4): whether balances and orders are simulated (paper), on the
   * venues' test networks (testnet) or real (live), for the dashboard's badge. Signed-in users only.
   */
  @Get('exchange-mode')
  exchangeMode(): { mode: AppConfig['exchangeMode']; feed: PaperFeedStatus | null } {
    // issue 39: a paper exchange also says which feed prices it (walk, csv, or the venues' streams and their state)
    return { mode: this.config.exchangeMode, feed: hasFeedStatus(this.exchanges) ? this.exchanges.feedStatus() : null };
  }

  private async call<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      throw toHttpAppError(err);
    }
  }

  private balances(query: Query, ctx: CommandContext, market: MarketType): Promise<BalanceRecord[]> {
    assertSameUser(ctx.userId, query.userId);
    const exchange = exchangeOf(query);
    return this.call(async () => {
      const port = await this.exchanges.for({ userId: ctx.userId, exchange, market });
      return (await port.balances(market)).map((b) => ({ symbol: b.symbol, exchange: b.exchange, balance: b.balance, available: b.available }));
    });
  }

  private price(query: Query, ctx: CommandContext, market: MarketType): Promise<number> {
    const exchange = exchangeOf(query);
    const symbol = symbolOf(query);
    return this.call(async () => {
      const port =
        this.exchanges.mode !== 'paper' && hasPublicPorts(this.exchanges)
          ? this.exchanges.publicFor(exchange, market)
          : await this.exchanges.for({ userId: ctx.userId, exchange, market });
      return port.price(symbol);
    });
  }

  @Get('balanceSpot')
  balanceSpot(@Query() query: Query, @Ctx() ctx: CommandContext) {
    return this.balances(query, ctx, 'spot');
  }

  @Get('balanceFutures')
  balanceFutures(@Query() query: Query, @Ctx() ctx: CommandContext) {
    return this.balances(query, ctx, 'futures');
  }

  // The spec's answer is a bare number, which Nest sends with Express's text/html default: it is JSON
  // (RFC 8259 §2: a number is a JSON text), so say so (issue 31).
  @Get('priceSpot')
  @Header('Content-Type', 'application/json; charset=utf-8')
  priceSpot(@Query() query: Query, @Ctx() ctx: CommandContext) {
    return this.price(query, ctx, 'spot');
  }

  @Get('priceFutures')
  @Header('Content-Type', 'application/json; charset=utf-8')
  priceFutures(@Query() query: Query, @Ctx() ctx: CommandContext) {
    return this.price(query, ctx, 'futures');
  }

  @Get('futuresPositionRisk')
  futuresPositionRisk(@Query() query: Query, @Ctx() ctx: CommandContext): Promise<PositionRisk[]> {
    assertSameUser(ctx.userId, query.userId);
    const exchange = exchangeOf(query, 'Binance');
    return this.call(async () => {
      const port = await this.exchanges.for({ userId: ctx.userId, exchange, market: 'futures' });
      return (await port.positionRisk()).map((p) => ({ symbol: p.symbol, leverage: p.leverage }));
    });
  }
}
