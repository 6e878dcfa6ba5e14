/**
 * The figures of a bot's page, from its recorded events and the price now (pure): the bot's orders
 * (every one open on the exchange) as a table, its last error, and the money figures of the ONE projection
 * every screen reads (money/figures.ts, issue 40 point 1): position and dust, average entry, realised,
 * unrealised and total P&L, fees, fills, cycles, capital in use and committed, return, annualised return
 * and runtime. Amounts are in the bot's quote currency (`currency`); times are unix milliseconds.
 */
import { roundMoney } from '../grid/decimal';
import { botFigures, type BotFigures } from '../money/figures';
import { partsOf } from '../styles/pure-registry';

export type RungState = 'open' | 'filled' | 'cancelled';

export interface SummaryRung {
  price: number;
  size: number;
  /** Base amount filled so far (a partly filled rung is still open). */
  filled: number;
  state: RungState;
  /** 'sell' for a sell (a short grid's rungs; a neutral grid's sells); absent: a buy. */
  side?: 'sell';
  /** A neutral grid's answer (reduce-only: it closes the pair an opening fill began, one line away); absent: an opening order. */
  answer?: true;
}

export interface BotSummary extends Omit<BotFigures, 'equity'> {
  /**
   * The bot's buys, highest price first: every one still open on the exchange, whichever run and
   * cycle placed it (a rung a cycle did not fill keeps resting into the next cycles), and the filled
   * or cancelled rungs of the latest cycle.
   */
  ladder: SummaryRung[];
  takeProfit: SummaryRung | null;
  /** Time spent running, every run added up, in whole seconds (`runtimeMs`, the annualised return's clock). */
  runtimeSeconds: number;
  /** The annualised return in % (= `annualisedPercent`, the performance view's): null before 7 days of running. */
  annualisedReturn: number | null;
  lastError: string | null;
  lastErrorAt: number | null;
}

/** GET /api/bots-overview: one entry per bot, for the bots page's strip and cards (the bot page's figures, issue 40). */
export type BotOverview = Pick<
  BotSummary,
  'lastPrice' | 'position' | 'dust' | 'averageEntry' | 'unrealisedPnl' | 'realisedPnl' | 'realisedToday' | 'totalPnl' | 'feesPaid' | 'fills' | 'capitalInUse' | 'capitalCommitted' | 'running' | 'currency' | 'direction'
> & {
  id: string;
  /** The latest prices of the bot's market, oldest first, for a sparkline. */
  spark: number[];
};

export interface SummaryEvent {
  type: string;
  data: any;
  /** When the event was recorded (ms). */
  at: number;
}

const EPS = 1e-12;

export function buildBotSummary(events: SummaryEvent[], price: number | null, now: number): BotSummary {
  // Every order the bot placed, of every run, by client order id (ids are the bot's across runs and never reused).
  const rungs = new Map<string, SummaryRung & { cycle: number }>();
  const tps = new Map<string, SummaryRung & { id: string }>();
  /**
   * Issue 32, a style whose answers are rows of the table (a neutral grid: every order, opening or answering,
   * is a row, there is no single take-profit; its answers are marked as such): its pure parts say so
   * (style-parts.ts answersInTable), from the settings the events carry.
   */
  let settings: Record<string, unknown> = {};
  let table = false;
  let lastError: string | null = null;
  let lastErrorAt: number | null = null;

  for (const e of events) {
    const d = e.data ?? {};
    switch (e.type) {
      case 'BotCreated':
      case 'BotEdited':
        settings = e.type === 'BotCreated' ? { ...d } : { ...settings, ...d };
        table = partsOf(settings)?.answersInTable === true;
        break;
      case 'BotStarted':
        lastError = null;
        lastErrorAt = null;
        break;
      case 'BotStartFailed':
      case 'BotFailed':
        lastError = typeof d.reason === 'string' ? d.reason : 'The bot stopped on an error.';
        lastErrorAt = e.at;
        break;
      case 'OrderPlaced':
        if (!rungs.has(d.clientOrderId)) rungs.set(d.clientOrderId, { price: d.price, size: d.amount, filled: 0, state: 'open', cycle: d.cycle ?? 0, ...(d.side === 'sell' ? { side: 'sell' as const } : {}) });
        break;
      case 'TakeProfitPlaced':
        if (table) {
          // an answer (a neutral grid's): a row of its table like the others (reduce-only, no margin of its own)
          if (!rungs.has(d.clientOrderId)) rungs.set(d.clientOrderId, { price: d.price, size: d.amount, filled: 0, state: 'open', cycle: d.cycle ?? 0, ...(d.side === 'sell' ? { side: 'sell' as const } : {}), answer: true });
          break;
        }
        tps.delete(d.clientOrderId); // insertion order = placement order
        tps.set(d.clientOrderId, { id: d.clientOrderId, price: d.price, size: d.amount, filled: 0, state: 'open' });
        break;
      case 'OrderCancelled': {
        const r = rungs.get(d.clientOrderId) ?? tps.get(d.clientOrderId);
        if (r && r.state === 'open') r.state = 'cancelled';
        break;
      }
      case 'OrderFilled':
      case 'TakeProfitFilled':
      case 'StopLossTriggered': {
        const r = e.type === 'OrderFilled' || table ? rungs.get(d.clientOrderId) : tps.get(d.clientOrderId);
        if (r) {
          r.filled += Number(d.amount) || 0;
          if (r.filled >= r.size - EPS) r.state = 'filled';
        }
        break;
      }
    }
  }

  // the orders on the exchange now: every open buy, whichever cycle or run placed it, and the latest cycle's others
  let cycle = -1;
  for (const r of rungs.values()) if (r.cycle > cycle) cycle = r.cycle;
  const ladder = [...rungs.values()]
    // (a table of answers, a neutral grid's: the orders resting now, both sides; its lines' generations are not cycles)
    .filter((r) => r.state === 'open' || (!table && r.cycle === cycle))
    .sort((a, b) => b.price - a.price)
    .map(({ price: p, size, filled, state, side, answer }) => ({ price: p, size, filled: roundMoney(filled), state, ...(side ? { side } : {}), ...(answer ? { answer } : {}) }));
  // the take-profit: the one resting now, else the last one placed
  const placedTps = [...tps.values()];
  const tp = placedTps.filter((t) => t.state === 'open').pop() ?? placedTps.pop() ?? null;

  // the money figures: the one projection every screen reads (money/figures.ts)
  const { equity: _equity, ...figures } = botFigures(events, price, now);
  return {
    ...figures,
    ladder,
    takeProfit: tp ? { price: tp.price, size: tp.size, filled: roundMoney(tp.filled), state: tp.state } : null,
    runtimeSeconds: Math.floor(figures.runtimeMs / 1000),
    annualisedReturn: figures.annualisedPercent,
    lastError,
    lastErrorAt,
  };
}
