import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { EXCHANGE_PROVIDER } from '@gridrocket/credentials';
import type { ExchangeProvider } from '@gridrocket/exchanges';
import { READ_STORE, ReadStore } from '@gridrocket/read-store';
import type { BotType, ExchangeName } from '@gridrocket/shared';
import { BOT_LIST_COLLECTION, BotDoc } from '../bot-list.projection';
import { capacityAnswer, capacityRefusal, capacityVenueOf, mostResting, type CapacityAnswer, type CapacityBot } from '../domain/capacity';

/** How long the capacity answer waits for the market's own maximum before it uses the venue's table. */
const RULES_TIMEOUT_MS = 2000;

/** What the API answers: the pure answer and, when a limit would be passed, the start's refusal. */
export type CapacityView = CapacityAnswer & { refusal: string | null };

/** A bot as the capacity answer needs it. */
export interface CapacitySubject {
  exchange: ExchangeName;
  botType: BotType;
  symbol: string;
  bot: CapacityBot;
  /** The bot itself, when it exists (an edit or a start): not counted among the others. */
  botId?: string;
}

/** A budget snapshot as CcxtExchangeProvider.budgetSnapshots() gives it (live and testnet only). */
interface BudgetSnapshot {
  venue: string;
  share: number;
}

/**
 * The I/O around the pure capacity answer (domain/capacity.ts): the account's other bots on the venue from
 * the read model (a running bot counts the most orders it rests, a stopped one the orders it left open),
 * the market's own maximum of open orders when the venue reports it (`rules.maxNumOrders`, in time), and
 * the install's share of the venue's budget (the provider's, live and testnet; else the default 50 %).
 */
@Injectable()
export class CapacityCheck {
  private readonly logger = new Logger('CapacityCheck');

  constructor(
    @Inject(READ_STORE) private readonly reads: ReadStore,
    @Optional() @Inject(EXCHANGE_PROVIDER) private readonly exchanges?: ExchangeProvider,
  ) {}

  async answer(userId: string, s: CapacitySubject): Promise<CapacityView> {
    const market = s.botType === 'Futures' ? 'futures' : 'spot';
    const [docs, maxNumOrders, placed] = await Promise.all([
      this.reads.find<BotDoc>(BOT_LIST_COLLECTION, { userid: userId }),
      this.maxNumOrders(userId, s.exchange, market, s.symbol),
      this.placed(userId, s.exchange, market),
    ]);
    const others: { symbol: string; openOrders: number }[] = [];
    const otherSymbols: string[] = [];
    for (const d of docs) {
      const c = d.s.config;
      if (d.id === s.botId || !c || c.exchange !== s.exchange || (d.s.botType ?? 'Spot') !== s.botType) continue;
      if (d.status === 'stopped') {
        // orders a stop left open (issue 29) still rest on the venue
        if (d.s.ordersLeftOpen) others.push({ symbol: c.symbol, openOrders: d.s.ordersLeftOpen });
        continue;
      }
      others.push({ symbol: c.symbol, openOrders: mostResting(c) });
      otherSymbols.push(c.symbol);
    }
    const venue = capacityVenueOf(s.exchange, s.botType);
    const budgets = (this.exchanges as { budgetSnapshots?: () => BudgetSnapshot[] } | undefined)?.budgetSnapshots?.();
    const share = budgets?.find((b) => b.venue === venue)?.share;
    const answer = capacityAnswer({ exchange: s.exchange, botType: s.botType, symbol: s.symbol, bot: s.bot, others, otherSymbols, budgetShare: share, maxNumOrders, placed });
    return { ...answer, refusal: capacityRefusal(answer) };
  }

  /** The orders the account has placed in the venue's current order-count windows, as its last order answer said. */
  private async placed(userId: string, exchange: ExchangeName, market: 'spot' | 'futures') {
    try {
      return (await this.exchanges?.orderCounts?.({ userId, exchange, market })) ?? [];
    } catch (err) {
      this.logger.debug?.(`order counts of ${exchange} unavailable: ${(err as Error).message}`);
      return [];
    }
  }

  /** The market's own MAX_NUM_ORDERS when the exchange port reports it (an optional field of its rules). */
  private async maxNumOrders(userId: string, exchange: ExchangeName, market: 'spot' | 'futures', symbol: string): Promise<number | undefined> {
    if (!this.exchanges) return undefined;
    try {
      const port = await this.exchanges.for({ userId, exchange, market });
      const timeout = new Promise<null>((resolve) => setTimeout(() => resolve(null), RULES_TIMEOUT_MS).unref());
      const rules = await Promise.race([port.marketRules(symbol), timeout]);
      const max = (rules as { maxNumOrders?: unknown } | null)?.maxNumOrders;
      return typeof max === 'number' && Number.isFinite(max) && max > 0 ? max : undefined;
    } catch (err) {
      this.logger.debug?.(`market rules of ${exchange} ${symbol} unavailable: ${(err as Error).message}`);
      return undefined;
    }
  }
}
