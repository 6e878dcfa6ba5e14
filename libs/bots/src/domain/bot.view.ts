import type { BotStatus, LiveBot } from './bot.decider';
import { RISK_FIELDS, type RiskSettings } from './bot.events';
import { botStyleOf, type BotDirection, type BotStyleName, type StyleViewFields } from '../styles/registry';

/** The optional settings of issue 14 as the view names them: the config's names in lowercase (sizeScale: sizescale). */
type RiskView = { [K in keyof RiskSettings as Lowercase<K>]: RiskSettings[K] };

/**
 * The bot as the spec's REST calls return it: lowercase fields (spec section 3). Beyond the spec (issue 14,
 * docs/risk.md; issue 32 the trail-down limit and a neutral grid's stop-loss above): the risk settings
 * (RiskView), present only when set.
 */
export interface BotView extends RiskView, StyleViewFields {
  id: string;
  bottype: 'Spot' | 'Futures';
  userid: string;
  exchange: string;
  symbol: string;
  numoforders: number;
  ordersize: number;
  interval: number;
  entryprice: number;
  takeprofit: number;
  botstatus: boolean;
  pid: number;
  profit: number;
  leverage?: number;
  /** Issue 40: a futures bot's margin mode (isolated unless it chose cross). */
  marginmode?: 'isolated' | 'cross';
  /** Beyond the spec: the lifecycle step and the last failure, so the dashboard can explain. */
  state: BotStatus;
  lasterror: string | null;
  /** Beyond the spec (issue 32): 'short' or 'long' when set; absent: long (the spec's bot). */
  direction?: BotDirection;
  /**
   * Beyond the spec (issue 32, docs/infinity.md): 'infinity' for an infinity spot grid, with its four
   * settings (StyleViewFields: styles/infinity/infinity.fields.ts; its numoforders, ordersize, interval and
   * takeprofit are then 0: it has no ladder; entryprice is its start); absent: a ladder.
   */
  style?: BotStyleName;
  /** Issue 40: the name its owner gave it (absent: none; the dashboard names it by its pair). */
  name?: string;
  /** Issue 40: the total investment in USDT (futures: margin) that sized its orders (absent: the order size was given). */
  investment?: number;
  /** Beyond the spec (issue 29): the bot is stopped and this many of its orders are still open on the exchange, no longer managed. */
  ordersleftopen?: number;
  /** Issue 29: when the owner last asked for a watchdog check ("Check now"), ms since the epoch. */
  checkrequestedat?: number;
  /**
   * Issue 39: the venue's live updates for this bot's account are down since this time (ms since the
   * epoch), for `streamdownreason`; its fills are polled every `streampollms` until they are back.
   */
  streamdownsince?: number;
  streamdownreason?: string;
  streampollms?: number;
  /**
   * Issue 39: "paused by the venue's rate limit": every call to the venue waits until this time (ms since
   * the epoch); `ratelimitstatus` is the venue's answer (429: too much weight, 418: the address banned).
   */
  ratelimiteduntil?: number;
  ratelimitstatus?: number;
}

/** What the read model keeps of a live bot: everything but the trading ledger. */
export type BotSummary = Omit<LiveBot, 'trading'>;

/** A live bot without its trading ledger (what the read model stores). */
export function botSummary(state: LiveBot): BotSummary {
  const { trading: _ledger, ...summary } = state;
  return summary;
}

/** Running from the user's point of view: true from BotStarted until BotStopped. */
export function toBotView(state: BotSummary): BotView {
  const c = state.config;
  const view: BotView = {
    id: state.botId,
    bottype: state.botType,
    userid: state.userId,
    exchange: c.exchange,
    symbol: c.symbol,
    numoforders: c.numOfOrders,
    ordersize: c.orderSize,
    interval: c.interval,
    entryprice: c.entryPrice,
    takeprofit: c.takeProfit,
    botstatus: state.status === 'running' || state.status === 'stopping',
    pid: state.pid,
    profit: state.profit,
    state: state.status,
    lasterror: state.lastError,
  };
  if (state.botType === 'Futures') view.leverage = c.leverage;
  if (state.botType === 'Futures' && c.marginMode !== undefined) view.marginmode = c.marginMode;
  for (const key of RISK_FIELDS) if (c[key] !== undefined) Object.assign(view, { [key.toLowerCase()]: c[key] });
  if (c.direction !== undefined) view.direction = c.direction;
  // a style's own fields (issue 32: the infinity grid's settings) are its folder's; a plug-in style says its name (issue 42)
  const styled = botStyleOf({ style: c.style })?.viewFields;
  if (styled) Object.assign(view, styled(c));
  else if (c.style !== undefined) view.style = c.style;
  if (c.name) view.name = c.name;
  if (c.investment !== undefined) view.investment = c.investment;
  if (state.ordersLeftOpen && state.status === 'stopped') view.ordersleftopen = state.ordersLeftOpen;
  if (state.checkRequestedAt !== undefined) view.checkrequestedat = state.checkRequestedAt;
  const down = state.streamDown;
  if (down && (state.status === 'running' || state.status === 'starting')) {
    // issue 39: live updates from the venue are down; the bot polls meanwhile (the bot page says so)
    view.streamdownsince = down.since;
    view.streamdownreason = down.reason;
    view.streampollms = down.pollMs;
  }
  const paused = state.rateLimited;
  if (paused && (state.status === 'running' || state.status === 'starting' || state.status === 'stopping')) {
    view.ratelimiteduntil = paused.until;
    view.ratelimitstatus = paused.status;
  }
  return view;
}
