export type BotType = 'Spot' | 'Futures';
export type Exchange = 'Binance' | 'Kucoin';
export type BotState = 'stopped' | 'starting' | 'running' | 'stopping';

export interface User {
  uid: string;
  displayName: string | null;
  email: string;
  emailVerified: boolean;
  photoURL: string | null;
}

/** A bot as the server returns it (lowercase fields, spec section 3). */
export interface Bot {
  id: string;
  bottype: BotType;
  userid: string;
  exchange: Exchange;
  symbol: string;
  numoforders: number;
  ordersize: number;
  interval: number;
  entryprice: number;
  takeprofit: number;
  botstatus: boolean | number;
  pid: number;
  profit?: number;
  leverage?: number;
  state?: BotState;
  lasterror?: string | null;
  /** Beyond the spec (issue 29): stopped, with this many of its orders still open on the exchange and no longer managed. */
  ordersleftopen?: number;
  /** Issue 39: the venue's live updates for this bot's account are down since (ms), why, and how often fills are polled meanwhile. */
  streamdownsince?: number;
  streamdownreason?: string;
  streampollms?: number;
  /** Issue 39: paused by the venue's rate limit until (ms); the venue's answer (429 too much weight, 418 address banned). */
  ratelimiteduntil?: number;
  ratelimitstatus?: number;
  /**
   * Beyond the spec (issue 32, futures): 'short' sells its ladder above the entry; 'neutral' buys below and
   * sells above the entry as its reference; absent or 'long': the spec's long grid.
   */
  direction?: 'long' | 'short' | 'neutral';
  /** Beyond the spec (issue 14): the stop-loss price; a neutral grid's (issue 32) below its lowest buy. */
  stoplossprice?: number;
  /** Beyond the spec (issue 32): a neutral grid's stop-loss above its highest sell. */
  stoplosspriceabove?: number;
  /**
   * Beyond the spec (issue 32, docs/infinity.md): 'infinity' for an infinity spot grid, with its own
   * settings below (its ladder fields numoforders, ordersize, interval, takeprofit are 0); absent: a ladder.
   */
  style?: 'infinity';
  /** An infinity grid's step, in % of the last trade's price. */
  steppercent?: number;
  /** An infinity grid's value (USDT) sold on each step up and bought on each step down. */
  quotevalue?: number;
  /** An infinity grid buys no lower than this price. */
  lowerprice?: number;
  /** An infinity grid's initial buy (USDT; 0: none). */
  initialquote?: number;
}

/** An infinity bot's settings are its own: the server refuses an edit of one (bot.rules.ts INFINITY_EDIT_MESSAGE). */
export function isInfinity(bot: Pick<Bot, 'style'>): boolean {
  return bot.style === 'infinity';
}

export interface Credential {
  id: string;
  exchange: Exchange;
  apikeyid: string;
  /** Beyond the spec (issue 30): what the venue's answer about the key calls for (no IP restriction, withdrawals now on…). */
  warnings?: Array<{ code: string; message: string }>;
}

export interface BalanceRecord {
  symbol: string;
  exchange: string;
  balance: number | string;
  available: number | string;
}

export interface ChartData {
  points: Array<{ time: number; value: number }>;
  levels: Array<{ price: number; kind: 'buy' | 'take-profit'; status: 'open' | 'filled' }>;
  fills: Array<{ time: number; price: number; side: 'buy' | 'sell'; amount: number }>;
}

/** POST /api/bots of an infinity spot grid (issue 32; the contract's CreateInfinityBot). */
export interface CreateInfinityBotBody {
  userId: string;
  style: 'infinity';
  exchange: Exchange;
  symbol: string;
  botType: 'Spot';
  entryPrice: number;
  stepPercent: number;
  quoteValue: number;
  lowerPrice: number;
  initialQuote?: number;
}

export interface CreateBotBody {
  userId: string;
  exchange: Exchange;
  symbol: string;
  numOfOrders: number;
  orderSize: number;
  interval: number;
  entryPrice: number;
  takeProfit: number;
  status: false;
  botType: BotType;
  pid: -1;
  leverage?: number;
  /** Issue 29: the trader confirmed an entry more than 0.5 % above the market (not stored). */
  confirmAboveMarket?: boolean;
}

export interface EditBotBody {
  exchange: Exchange;
  numOfOrders: number;
  orderSize: number;
  interval: number;
  entryPrice: number;
  takeProfit: number;
  leverage?: number;
  /** Issue 29: the trader confirmed an entry more than 0.5 % above the market (not stored). */
  confirmAboveMarket?: boolean;
}

/** The phase a bot is in, from `state` when the server sends it, else from the status flag. */
export function botPhase(bot: Pick<Bot, 'state' | 'botstatus'>): BotState {
  if (bot.state) return bot.state;
  return bot.botstatus === true || bot.botstatus === 1 ? 'running' : 'stopped';
}

/** Running, starting or stopping: edit and delete are blocked. */
export function isBusy(bot: Pick<Bot, 'state' | 'botstatus'>): boolean {
  return botPhase(bot) !== 'stopped';
}

/** GET /api/bots/{id}/summary: the bot page's figures, typed by the server's pure summary module. */
export type { BotSummary, RungState, SummaryRung } from '@gridrocket/trading/chart/bot-summary';

/** GET /api/bots-overview: one entry per bot for the strip and the cards. */
export interface BotOverview {
  id: string;
  lastPrice: number | null;
  position: number;
  averageEntry: number | null;
  unrealisedPnl: number;
  realisedPnl: number;
  realisedToday: number;
  capitalInUse: number;
  running: boolean;
  spark: number[];
}

/** GET /api/market-rules: the market's steps, minimums and fees. */
export interface MarketRulesData {
  priceStep: number;
  amountStep: number;
  minNotional: number;
  minAmount?: number;
  makerFee?: number;
  takerFee?: number;
}

/**
 * GET /api/bot-capacity (issue 39): the server's answer (libs/bots/src/domain/capacity.ts, shared, not
 * restated) and the refusal a start would get (null: it fits).
 */
export type CapacityData = import('@gridrocket/bots/domain/capacity').CapacityAnswer & { refusal: string | null };

/** The form's values the capacity answer needs; `id`: the bot being edited. */
export interface CapacityQuery {
  exchange: Exchange;
  symbol: string;
  botType: BotType;
  numOfOrders?: string;
  direction?: 'long' | 'short' | 'neutral';
  style?: 'ladder' | 'infinity';
  initialQuote?: string;
  id?: string;
}
