/**
 * The facts of a bot's stream that move its money, position or clock (issue 29; issue 40, point 1: one
 * source for each figure), pure: what the money read model stores (bot-money.projection.ts, one document
 * per fill, completed cycle, closing stop, start and stop) and what the bot's figures fold (figures.ts),
 * read from the stream by the same function (`moneyEntryFrom`), so the trades list, the CSV, the bot page,
 * the card and the performance view read each fill the same way.
 */

/**
 * `liquidation` (issue 40, point 3): the venue's own close of a futures position (PositionLiquidated);
 * `close` (issue 40): a fill of the market close of a stop with `closePosition` (PositionClosed).
 */
export type FillRole = 'buy' | 'take-profit' | 'stop-loss' | 'liquidation' | 'close';

/** A fill of the bot (OrderFilled, TakeProfitFilled, StopLossTriggered, PositionClosed, PositionLiquidated). */
export interface MoneyFill {
  kind: 'fill';
  /** The event's stream revision: the order of the bot's history. */
  seq: number;
  /** Exchange time of the fill (ms). */
  at: number;
  fillId: string;
  /** The bot's order that filled (absent in entries stored before issue 40). */
  clientOrderId?: string;
  role: FillRole;
  side: 'buy' | 'sell';
  price: number;
  amount: number;
  /** Buys: the base amount received net of a fee taken in the coin (absent: `amount`). */
  netAmount?: number;
  /** Quote. */
  fee: number;
  /** The asset the venue charged the fee in and how much of it, when the venue said. */
  feeAsset?: string;
  feeCost?: number;
  cycle: number;
  run: number;
  /**
   * Closing fills: the profit the engine realised on this fill; opening fills: null. A liquidation's: what
   * the runner realised on the position's cost (its `profit`); null in events before it (the venue's
   * `realized` is on its own entry price): the figures then realise it on the position's cost themselves.
   */
  profit: number | null;
}

/** CycleCompleted: the cycle's profit. */
export interface MoneyCycle {
  kind: 'cycle';
  seq: number;
  at: number;
  cycle: number;
  run: number;
  profit: number;
}

/**
 * A stop that closes the position at market (`closePosition`): the next run carries nothing
 * (libs/trading/src/grid/book.ts). The close's fills are fills of their own (PositionClosed, role `close`);
 * what they could not sell (less than one amount step, a spot dust the venue refuses) leaves the books at
 * its cost when the stop ends, as does all of it in histories from before they were recorded.
 */
export interface MoneyDrop {
  kind: 'drop';
  /** The revision of the stop request: runs begun after it start flat. */
  seq: number;
  at: number;
}

/** The bot started running (true; `resumed`: a runner took a running bot over) or stopped (false, also on a failure). */
export interface MoneyRun {
  kind: 'run';
  seq: number;
  at: number;
  running: boolean;
  resumed?: true;
}

export type MoneyEntry = MoneyFill | MoneyCycle | MoneyDrop | MoneyRun;

/**
 * An order the bot placed or that left the book without filling (read from the stream only: the capital
 * in use is what its open opening orders lock). `opens`: a rung of the ladder, a neutral grid's opening
 * order, an infinity grid's buy (OrderPlaced); take-profits, a neutral grid's answers and an infinity
 * grid's sells (TakeProfitPlaced) lock nothing the position does not already count.
 */
export interface FigureOrder {
  kind: 'order';
  seq: number;
  at: number;
  clientOrderId: string;
  /** Placed (with its price and amount), or cancelled. */
  placed: boolean;
  opens: boolean;
  price: number;
  amount: number;
}

/** The bot's settings as created or edited (the committed capital, the leverage, the direction, the currency). */
export interface FigureConfig {
  kind: 'config';
  seq: number;
  at: number;
  /** BotCreated: all of it; BotEdited: what it sets (null: a setting turned off). */
  config: Record<string, unknown>;
  created: boolean;
}

/** What the figures fold: the money entries, and from the stream the orders and the settings. */
export type FigureFact = MoneyEntry | FigureOrder | FigureConfig;

const ROLE = { OrderFilled: 'buy', TakeProfitFilled: 'take-profit', StopLossTriggered: 'stop-loss', PositionClosed: 'close' } as const;

/** What every fill entry takes alike from its event: its place in the stream, its time and the fill's ids. */
function fillHead(d: Record<string, any>, seq: number, at: number) {
  return {
    kind: 'fill' as const,
    seq,
    at: typeof d.at === 'number' ? d.at : at,
    fillId: String(d.fillId),
    ...(typeof d.clientOrderId === 'string' ? { clientOrderId: d.clientOrderId } : {}),
  };
}

/** The money entry an event of the bot's stream makes (`seq`: its revision; `at`: when it was recorded, ms), or null. */
export function moneyEntryFrom(type: string, data: unknown, seq: number, at: number): MoneyEntry | null {
  const d = (data && typeof data === 'object' ? data : {}) as Record<string, any>;
  switch (type) {
    case 'OrderFilled':
    case 'TakeProfitFilled':
    case 'StopLossTriggered':
    case 'PositionClosed':
      return {
        ...fillHead(d, seq, at),
        role: ROLE[type],
        side: d.side === 'sell' ? 'sell' : 'buy',
        price: Number(d.price),
        amount: Number(d.amount),
        ...(typeof d.netAmount === 'number' ? { netAmount: d.netAmount } : {}),
        fee: Number(d.fee) || 0,
        ...(typeof d.feeAsset === 'string' ? { feeAsset: d.feeAsset, feeCost: Number(d.feeCost) } : {}),
        cycle: Number(d.cycle),
        run: Number(d.run),
        profit: type === 'TakeProfitFilled' || type === 'PositionClosed' ? Number(d.profit) : type === 'StopLossTriggered' ? -Number(d.loss) : null,
      };
    case 'PositionLiquidated':
      // the venue's close of the whole position: a closing fill without a fee of its own (the venue's
      // liquidation charge is in what the margin lost), realised on what the position cost (`profit`)
      return {
        ...fillHead(d, seq, at),
        role: 'liquidation',
        side: d.side === 'sell' ? 'sell' : 'buy',
        price: Number(d.price),
        amount: Number(d.amount),
        fee: 0,
        cycle: 0,
        run: Number(d.run),
        profit: typeof d.profit === 'number' && Number.isFinite(d.profit) ? d.profit : null,
      };
    case 'CycleCompleted':
      return { kind: 'cycle', seq, at, cycle: Number(d.cycle), run: Number(d.run), profit: Number(d.profit) };
    case 'BotStopRequested':
      return d.closePosition === true ? { kind: 'drop', seq, at } : null;
    case 'BotStarted':
      return { kind: 'run', seq, at, running: true };
    case 'BotResumed':
      return { kind: 'run', seq, at, running: true, resumed: true };
    case 'BotStopped':
    case 'BotFailed':
      return { kind: 'run', seq, at, running: false };
    default:
      return null;
  }
}

/** The event types that make a money entry. */
export const MONEY_EVENT_TYPES = ['OrderFilled', 'TakeProfitFilled', 'StopLossTriggered', 'PositionClosed', 'PositionLiquidated', 'CycleCompleted', 'BotStopRequested', 'BotStarted', 'BotResumed', 'BotStopped', 'BotFailed'] as const;

/** One event of a bot's stream as the figures read it (`at`: when it was recorded, ms). */
export interface StreamEvent {
  type: string;
  data: any;
  at: number;
}

/** Every fact of a bot's stream (in stream order) the figures fold. */
export function figureFactsOf(events: readonly StreamEvent[]): FigureFact[] {
  const out: FigureFact[] = [];
  events.forEach((e, seq) => {
    const d = (e.data ?? {}) as Record<string, any>;
    switch (e.type) {
      case 'BotCreated':
      case 'BotEdited':
        out.push({ kind: 'config', seq, at: e.at, config: d, created: e.type === 'BotCreated' });
        return;
      case 'OrderPlaced':
      case 'TakeProfitPlaced':
        out.push({ kind: 'order', seq, at: e.at, clientOrderId: String(d.clientOrderId), placed: true, opens: e.type === 'OrderPlaced', price: Number(d.price), amount: Number(d.amount) });
        return;
      case 'OrderCancelled':
        out.push({ kind: 'order', seq, at: e.at, clientOrderId: String(d.clientOrderId), placed: false, opens: false, price: 0, amount: 0 });
        return;
    }
    const m = moneyEntryFrom(e.type, d, seq, e.at);
    if (m) out.push(m);
  });
  return out;
}
