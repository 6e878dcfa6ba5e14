/**
 * The runner's part of the watchdog (issue 29, docs/watchdog.md): one check of one bot against the
 * venue, in the bot's lane. It asks the venue (every call through the task's owned, rate-limited
 * `call`, so a bot this runner no longer owns is never touched), lets the pure `checkAgainstVenue`
 * decide, records what differed through the bot decider (`BotDriftDetected`, `BotNotTrading`; the
 * decider drops what the bot's history already holds), then hands the repairs to the bot's usual
 * path: missed fills are queued and applied by the converge that follows, like fills fetched at a
 * resume, and orders the venue reports cancelled are marked closed, so that the converge that follows
 * replaces them under new ids and records it (BotTask.replaceCancelled).
 */
import type { ExchangePort, Fill as ExchangeFill, Order } from '@gridrocket/exchanges';
import type { TradingEvent } from '@gridrocket/bots';
import type { DesiredOrder, GridConfig, MarketRules } from '../grid/grid.types';
import { checkAgainstVenue } from './watchdog';
import type { AccountReads } from './account-reads';

/** What the watchdog needs of a bot's task (BotTask; an interface, so the two files do not import each other). */
export interface WatchdogTask {
  readonly botId: string;
  readonly id: { run: number; symbol: string; market: 'spot' | 'futures' };
  readonly config: GridConfig;
  readonly rules: MarketRules;
  readonly port: ExchangePort;
  readonly open: Map<string, Order>;
  readonly closed: Map<string, unknown>;
  pendingFills: ExchangeFill[];
  fillsSinceMs: number;
  /** When this bot's last check succeeded (wall-clock ms); null: never. */
  lastCheckAt: number | null;
  lastPrice: number | null;
  outsideLadderSince: number | null;
  owns(clientOrderId: string): boolean;
  workflow(): { quote: string; base?: string };
  /** The orders that should rest now, the position (its side and size) and the fills applied, whatever the grid's style. */
  desiredOrders(): DesiredOrder[];
  held(): { sign: 1 | -1; amount: number };
  recordedFillIds(): readonly string[];
  recordFacts(facts: TradingEvent[]): Promise<void>;
  ensureOwned(): void;
  call<T>(fn: () => Promise<T>, retries?: number): Promise<T>;
}

export interface CheckResult {
  /** What the check recorded (new facts only are appended; a difference seen before is not repeated). */
  facts: TradingEvent[];
  /** The bot should plan its orders now (a repair is under way). */
  converge: boolean;
  /**
   * How many differences the check found: its facts, and the orders cancelled outside GridRocket
   * (their drift is recorded by the converge that replaces them).
   */
  found: number;
}

/**
 * What the runner knows beside the bot (issue 39): the round's shared reads of the account, the
 * symbols its bots on the account trade (for one all-symbols read), and since when the account's
 * venue stream has been live (null: no live stream).
 */
export interface CheckContext {
  reads?: AccountReads;
  account?: string;
  symbols?: readonly string[];
  streamLiveSince?: number | null;
}

/**
 * Checks one bot against the venue; `refusals`: the runner's retries of it in a row; `now`: wall-clock ms.
 * While the account's stream has been live since the bot's previous check (issue 39), the stream brought
 * every fill since: the trade history is read only for orders the venue says filled that the bot has
 * not seen (the reconciliation that finds what a dropped stream missed), and the open orders, balances
 * and positions are the round's shared reads of the account.
 */
export async function checkBot(task: WatchdogTask, refusals: number, now: number, ctx: CheckContext = {}): Promise<CheckResult> {
  const symbol = task.id.symbol;
  const ask = <T>(fn: () => Promise<T>) => {
    task.ensureOwned();
    return task.call(fn);
  };
  const shared = <T>(what: string, fn: () => Promise<T>): Promise<T> => (ctx.reads && ctx.account ? ctx.reads.get(`${ctx.account}|${what}`, () => ask(fn)) : ask(fn));
  const symbols = ctx.symbols && ctx.symbols.length > 0 ? [...new Set([...ctx.symbols, symbol])].sort() : [symbol];
  const openOf = task.port.openOrdersOf?.bind(task.port);
  const venueOpen = openOf && symbols.length > 1 ? await shared(`open|${symbols.join(',')}`, () => openOf(symbols)) : await ask(() => task.port.openOrders(symbol));
  const open = venueOpen.filter((o) => o.symbol === symbol && task.owns(o.clientOrderId));
  const since = Math.max(1, task.fillsSinceMs - 60_000); // never since 0 (docs/runner.md, fills)
  const streamed = ctx.streamLiveSince != null && task.lastCheckAt !== null && ctx.streamLiveSince <= task.lastCheckAt;
  let fills = streamed ? [] : (await ask(() => task.port.recentFills(symbol, since))).filter((f) => task.owns(f.clientOrderId));

  const desired = task.desiredOrders();
  const openIds = new Set(open.map((o) => o.clientOrderId));
  const filledIds = new Set(fills.map((f) => f.clientOrderId));
  const lookedUp = new Map<string, Order | null>();
  for (const d of desired) {
    if (openIds.has(d.clientOrderId) || filledIds.has(d.clientOrderId)) continue;
    lookedUp.set(d.clientOrderId, await ask(() => task.port.orderByClientId(symbol, d.clientOrderId)));
  }
  if (streamed) {
    // an order the venue filled (or part-filled) whose fill the bot has not: the stream missed it
    const touched = [...lookedUp.values()].filter((o): o is Order => !!o && o.filled > 0);
    if (touched.length > 0) fills = (await ask(() => task.port.recentFills(symbol, since))).filter((f) => task.owns(f.clientOrderId));
  }

  let held: number | undefined;
  const base = task.workflow().base;
  if (task.id.market === 'spot' && base) {
    const balances = await shared('balances', () => task.port.balances('spot'));
    held = balances.find((b) => b.symbol.toUpperCase() === base.toUpperCase())?.balance ?? 0;
  } else if (task.id.market === 'futures') {
    const positions = (await shared('positions', () => task.port.positions())).filter((p) => p.symbol === symbol);
    // (the venue's amount is signed, < 0 short: a short grid holds what it sold, issue 32)
    const sign = task.held().sign;
    held = positions.filter((p) => p.symbol === symbol && sign * p.amount > 0).reduce((s, p) => s + sign * p.amount, 0);
  }
  const price = task.lastPrice ?? (await ask(() => task.port.price(symbol)).catch(() => undefined));

  const recorded = new Set(task.recordedFillIds());
  for (const f of task.pendingFills) recorded.add(f.fillId); // pushed and about to be applied: not missed
  const finding = checkAgainstVenue(
    {
      botId: task.botId,
      run: task.id.run,
      desired,
      recordedFills: recorded,
      position: task.held().amount,
      amountStep: task.rules.amountStep,
      market: task.id.market,
      base: base ?? '',
      refusals,
      follows: task.config.reanchor === 'follow',
      outsideSince: task.outsideLadderSince,
    },
    { open, fills, lookedUp, held, price },
    now,
  );
  task.outsideLadderSince = finding.outsideSince;
  // What differed is recorded before anything acts on it: the history says why the fills and orders that follow came.
  await task.recordFacts(finding.facts);
  for (const o of open) task.open.set(o.clientOrderId, o);
  for (const o of finding.cancelledOutside) {
    task.open.delete(o.clientOrderId);
    task.closed.set(o.clientOrderId, o);
  }
  task.pendingFills.push(...finding.missedFills);
  task.lastCheckAt = now;
  const repair = finding.facts.some((f) => f.type === 'BotDriftDetected' && (f.data.action === 'repaired' || f.data.kind === 'order-missing'));
  const found = finding.facts.filter((f) => f.type === 'BotDriftDetected' || f.type === 'BotNotTrading').length + finding.cancelledOutside.length;
  return { facts: finding.facts, converge: repair || finding.missedFills.length > 0 || finding.cancelledOutside.length > 0, found };
}
