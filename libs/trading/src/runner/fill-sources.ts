/**
 * Where a bot's fills and prices come from, shared by the bots of a runner:
 * - one push subscription per exchange account (watchOrders): the paper exchange's in-process push,
 *   or a venue's user-data stream (ccxt pro, issue 39);
 * - one REST poller per account+symbol where the push is missing or can miss (a venue stream): it
 *   polls while the account's stream is down (the fallback, woken by price ticks too) and rests while
 *   it is live, after one poll that finds what the gap missed (FillPoller.setActive);
 * - one price subscription per exchange/market/symbol.
 */
import type { ExchangePort, ExchangeProvider, Fill as ExchangeFill, OrderUpdate, StreamState } from '@gridrocket/exchanges';
import type { BotTask } from './bot-task';
import { FillPoller, type PollerHost } from './fill-poller';

/** A venue's liquidation order (Binance USDⓈ-M `autoclose-…`; ADL orders are `adl_autoclose`). */
export const isLiquidationOrder = (clientOrderId: string) => clientOrderId.startsWith('autoclose-');

export class FillSources {
  private readonly watchers = new Map<string, { unsubscribe: () => void; tasks: Set<BotTask>; state: StreamState | null }>();
  private readonly pollers = new Map<string, FillPoller<BotTask>>();
  private readonly prices = new Map<string, { unsubscribe: () => void; tasks: Set<BotTask>; last?: number }>();

  constructor(
    private readonly exchanges: ExchangeProvider,
    private readonly host: PollerHost<BotTask>,
    private readonly pollMs: number,
  ) {}

  /** The account's stream state of this bot (null: no network stream, or not known yet). */
  streamState(task: BotTask): StreamState | null {
    return this.watchers.get(this.accountKey(task))?.state ?? null;
  }

  poller(task: BotTask): FillPoller<BotTask> | undefined {
    return this.pollers.get(`${this.accountKey(task)}|${task.id.symbol}`);
  }

  stop() {
    for (const p of this.pollers.values()) p.stop();
  }

  private accountKey(task: BotTask) {
    return `${task.id.userId}|${task.id.exchange}|${task.id.market}`;
  }

  /** Subscribes the bot: prices now, fills once its port is known (before recover reads the exchange). */
  attach(task: BotTask): void {
    const detachers: Array<() => void> = [];
    let attachedPort = false;
    task.onPort = (port: ExchangePort) => {
      if (attachedPort || task.released) return;
      attachedPort = true;
      if (port.watchOrders) detachers.push(this.watch(task, port));
      if (!port.watchOrders || port.streamCanMiss) detachers.push(this.poll(task, port));
    };
    detachers.push(this.subscribePrices(task));
    task.detach = () => detachers.forEach((d) => d());
  }

  private watch(task: BotTask, port: ExchangePort): () => void {
    const key = this.accountKey(task);
    let w = this.watchers.get(key);
    if (!w) {
      const entry = { unsubscribe: () => undefined as void, tasks: new Set<BotTask>(), state: null as StreamState | null };
      this.watchers.set(key, (w = entry));
      entry.unsubscribe = port.watchOrders!(
        (u: OrderUpdate) => this.onOrderUpdate(u, entry.tasks),
        (state) => {
          entry.state = state;
          for (const [k, p] of this.pollers) if (k.startsWith(`${key}|`)) p.setActive(!state.live);
          this.host.onStreamState?.([...entry.tasks], state);
        },
      );
    }
    const ww = w;
    ww.tasks.add(task);
    return () => {
      ww.tasks.delete(task);
      if (ww.tasks.size === 0) {
        ww.unsubscribe();
        this.watchers.delete(key);
      }
    };
  }

  private poll(task: BotTask, port: ExchangePort): () => void {
    const key = `${this.accountKey(task)}|${task.id.symbol}`;
    let p = this.pollers.get(key);
    if (!p) {
      // Live and testnet venues keep the wall clock; the paper venue keeps its feed's time.
      const clock = this.exchanges.mode === 'paper' ? null : () => Date.now();
      this.pollers.set(key, (p = new FillPoller(this.host, port, task.id.symbol, this.pollMs, clock)));
      // a stream already live: the new poller rests from the start (after its first poll)
      if (this.watchers.get(this.accountKey(task))?.state?.live) p.setActive(false);
    }
    const pp = p;
    pp.add(task);
    return () => {
      if (pp.remove(task)) this.pollers.delete(key);
    };
  }

  private subscribePrices(task: BotTask): () => void {
    const { exchange, market, symbol } = task.id;
    const pkey = `${exchange}|${market}|${symbol}`;
    let g = this.prices.get(pkey);
    if (!g) {
      const unsubscribe = this.exchanges.prices.subscribe({ exchange, market, symbol }, (tick) => {
        const group = this.prices.get(pkey);
        if (group) group.last = tick.price;
        for (const poller of this.pollers.values()) if (poller.symbol === symbol) poller.trigger();
        for (const t of group?.tasks ?? []) this.host.onPrice?.(t, tick.price); // risk controls (issue 14)
      });
      g = { unsubscribe, tasks: new Set() };
      this.prices.set(pkey, g);
    }
    const gg = g;
    gg.tasks.add(task);
    // a bot joining a symbol others watch hears its last price now (a quiet market may not tick soon)
    if (gg.last !== undefined) this.host.onPrice?.(task, gg.last);
    return () => {
      gg.tasks.delete(task);
      if (gg.tasks.size === 0) {
        gg.unsubscribe();
        this.prices.delete(pkey);
      }
    };
  }

  private onOrderUpdate(u: OrderUpdate, accountTasks?: Set<BotTask>): void {
    // issue 40: the venue's own liquidation order (Binance: a client order id that "starts with "autoclose-":
    // liquidation order", USDⓈ-M user data stream ORDER_TRADE_UPDATE; the paper exchange uses the same) closes
    // the position of every bot of the account on that symbol
    if (u.fill && isLiquidationOrder(u.order.clientOrderId)) {
      for (const t of accountTasks ?? []) if (!t.released && t.id.symbol === u.order.symbol) this.host.onLiquidation?.(t, u.fill as ExchangeFill);
      return;
    }
    const task = this.host.taskFor(u.order.clientOrderId);
    if (!task || task.released) return;
    if (u.fill) task.acceptFill(u.fill as ExchangeFill);
    const news = task.acceptOrder(u.order);
    if (u.fill || news) this.host.kick(task);
  }
}
