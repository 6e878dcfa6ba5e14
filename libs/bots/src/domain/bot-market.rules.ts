/**
 * The bot form's checks, shared by the dashboard and the server (pure: no I/O, no Nest).
 *
 * - `botFieldErrors`: the server's own schema (bot.rules.ts: lengths, numbers above 0, bounds),
 *   one message per field, worded with the form's labels.
 * - `marketFieldErrors`: what only the market decides: price and amount steps, the minimum amount
 *   and order value, a take-profit above the round trip of the market's maker fee (bot.rules.ts
 *   takeProfitFeeError, the one rule), a cost within the available balance and (issue 39,
 *   `maximumErrors`) the venue's maximums: amount and value of one order, open orders per symbol, the
 *   price band around the current price.
 * - `ladderPreview` and `maxAffordableGrid`: what the form shows next to the fields.
 * - `aboveMarket` / `aboveMarketMessage` (issue 29 finding 3): an entry price more than
 *   ABOVE_MARKET_TOLERANCE above the current price needs an explicit confirmation (docs/risk.md);
 *   a short grid's (issue 32) mirrored: an entry more than that BELOW the price sells at once.
 *
 * Venue sources: steps and minimums are the market's `precision` and `limits` as ccxt reports
 * them (Binance PRICE_FILTER / LOT_SIZE / NOTIONAL, Kucoin priceIncrement / baseIncrement /
 * minFunds); the fee is the market's maker rate (MarketRules.makerFee): the grid's orders rest on the book.
 */
import type { BotType } from '@gridrocket/shared';
import { gridHalves, rungPrice, rungSize } from '@gridrocket/trading/grid';
import { parseCreateBot, parseEditBot, takeProfitFeeError } from './bot.rules';

export type BotFormField = 'exchange' | 'symbol' | 'entryPrice' | 'numOfOrders' | 'orderSize' | 'interval' | 'takeProfit' | 'leverage';
export type BotFieldErrors = Partial<Record<BotFormField, string>>;

/** The form's labels of the API's field names (the dashboard's words; spec section 2). */
export const BOT_FIELD_LABELS: Record<BotFormField, string> = {
  exchange: 'Exchange',
  symbol: 'Pair',
  entryPrice: 'Entry Price',
  numOfOrders: 'Grid size',
  orderSize: 'Order size',
  interval: 'Price interval',
  takeProfit: 'Take profit',
  leverage: 'Leverage',
};

const FIELDS = Object.keys(BOT_FIELD_LABELS) as BotFormField[];

/** A server message ("numOfOrders must be a whole number") in the form's words ("Grid size must …"). */
export function labelled(field: BotFormField, message: string): string {
  return message.startsWith(field) ? BOT_FIELD_LABELS[field] + message.slice(field.length) : message;
}

/**
 * The server's validation of a create (or edit) body, as the first message per field: the very
 * parse functions the API runs (bot.rules.ts: the schema, and whatever checks they add after it,
 * such as numeric bounds and the take-profit above the fees). Values may be the text typed in the
 * form: the schema reads text and numbers alike.
 */
export function botFieldErrors(values: Record<string, unknown>, mode: 'create' | 'edit' = 'create', botType: BotType = 'Spot'): BotFieldErrors {
  const input: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(values)) if (v !== '' && v !== undefined && v !== null) input[k] = v;
  try {
    if (mode === 'create') parseCreateBot({ botType, ...input });
    // (an edit's checks may depend on the bot's type; the parser takes it where it needs it)
    else (parseEditBot as (body: unknown, type?: BotType) => unknown)(input, botType);
    return {};
  } catch (err) {
    const list = (err as { errors?: unknown }).errors;
    if (!Array.isArray(list)) throw err;
    const out: BotFieldErrors = {};
    for (const e of list as { field: string; message: string }[]) {
      const field = e.field.split('.')[0] as BotFormField;
      if (!FIELDS.includes(field) || out[field]) continue;
      out[field] = labelled(field, e.message);
    }
    return out;
  }
}

/** The market facts the checks need (a subset of the exchange port's MarketRules). */
export interface MarketLimits {
  priceStep: number;
  amountStep: number;
  minNotional: number;
  minAmount?: number;
  makerFee?: number;
  takerFee?: number;
  /** Issue 39, the venue's maximums (MarketRules: LOT_SIZE maxQty, NOTIONAL maxNotional, MAX_NUM_ORDERS, PERCENT_PRICE…); absent: not checked. */
  maxAmount?: number;
  maxNotional?: number;
  maxNumOrders?: number;
  percentPrice?: { bidUp?: number; bidDown?: number; askUp?: number; askDown?: number };
  /** The venue's names of those rules, named in the messages ('LOT_SIZE maxQty'). */
  ruleNames?: Partial<Record<'maxAmount' | 'maxNotional' | 'maxNumOrders' | 'percentPrice', string>>;
}

/** What the maximums' messages and the price band need beyond the grid (issue 39). */
export interface MarketContext {
  /** The current price (null or absent: the price band is not checked). */
  price?: number | null;
  /** 'Binance', named in the messages ("Binance's maximum"); absent: "the venue's". */
  exchange?: string;
  /** 'BTCUSDT': its coin is named with amounts. */
  symbol?: string;
  /** Orders the grid keeps open on the symbol at most (default: the ladder and its take-profit, numOfOrders + 1). */
  openOrders?: number;
}

export interface GridNumbers {
  numOfOrders: number;
  orderSize: number;
  interval: number;
  entryPrice: number;
  takeProfit: number;
  /** 1 for spot. */
  leverage?: number;
  /** Issue 14 (docs/risk.md): the rungs come from the grid engine's own `rungPrice`/`rungSize`. */
  spacing?: 'absolute' | 'percent';
  sizeScale?: number;
  /** Issue 32: a short grid's rungs rise from the entry (the engine's `rungPrice`). */
  direction?: 'long' | 'short';
}

const fmt = (x: number) => String(Number(x.toPrecision(12)));

/** Issue 32, neutral: a neutral grid's two halves as ladders (the grid engine's, libs/trading grid/spacing.ts). */
export { gridHalves };
/** x is a whole number of steps (to 1e-9 of a step: prices typed in decimal are not exact binary). */
const onStep = (x: number, step: number) => {
  if (!(step > 0)) return true;
  const k = x / step;
  return Math.abs(k - Math.round(k)) < 1e-9 * Math.max(1, Math.abs(k));
};
const money = (x: number) => Math.round(x * 1e8) / 1e8;

/**
 * The rungs of the ladder, highest first: entry − i × interval, each of the order size (the spec's);
 * with the optional spacing/sizeScale the engine's own rungs (grid/spacing.ts).
 */
export function ladderPreview(g: Pick<GridNumbers, 'numOfOrders' | 'orderSize' | 'interval' | 'entryPrice' | 'spacing' | 'sizeScale' | 'direction'>, maxRungs = 100): { price: number; size: number }[] {
  const n = Math.min(Math.floor(g.numOfOrders), maxRungs);
  const out: { price: number; size: number }[] = [];
  for (let i = 0; i < n; i++) out.push({ price: money(rungPrice(g, i)), size: money(rungSize(g, i)) });
  return out;
}

/**
 * The take-profit price once the first rung has filled: entry × (1 + takeProfit / 100); a short grid's
 * (issue 32) buys back below: entry × (1 − takeProfit / 100).
 */
export function takeProfitAfterFirstFill(g: Pick<GridNumbers, 'entryPrice' | 'takeProfit' | 'direction'>): number {
  return money(g.entryPrice * (g.direction === 'short' ? 1 - g.takeProfit / 100 : 1 + g.takeProfit / 100));
}

/** Σ size × price ÷ leverage over the ladder (the spec's total cost). */
export function ladderCostOf(g: GridNumbers): number {
  let total = 0;
  for (const r of ladderPreview(g, 1000)) total += (r.size * r.price) / (g.leverage ?? 1);
  return money(total);
}

/**
 * The largest grid size (1 to `cap`) whose ladder costs at most `available` and stays above 0,
 * or 0 when not even one rung fits.
 */
export function maxAffordableGrid(g: GridNumbers, available: number, cap = 99): number {
  let best = 0;
  let total = 0;
  for (let i = 0; i < cap; i++) {
    const price = rungPrice(g, i);
    if (price <= 0) break;
    total += (rungSize(g, i) * price) / (g.leverage ?? 1);
    if (money(total) > available) break;
    best = i + 1;
  }
  return best;
}

/**
 * What the market refuses of a grid whose fields are each valid on their own. `available` is the
 * quote balance the ladder may lock (null or undefined: not known, not checked).
 */
export function marketFieldErrors(g: GridNumbers, rules: MarketLimits, available?: number | null, context: MarketContext = {}): BotFieldErrors {
  const out: BotFieldErrors = {};
  const maxima = maximumErrors(g, rules, context);
  if (!onStep(g.entryPrice, rules.priceStep)) {
    out.entryPrice = `Entry Price must be a multiple of ${fmt(rules.priceStep)} (the market's price step)`;
  }
  if (g.spacing !== 'percent' && !onStep(g.interval, rules.priceStep)) {
    out.interval = `Price interval must be a multiple of ${fmt(rules.priceStep)} (the market's price step)`;
  }
  if (!onStep(g.orderSize, rules.amountStep)) {
    out.orderSize = `Order size must be a multiple of ${fmt(rules.amountStep)} (the market's amount step)`;
  } else if (rules.minAmount && g.orderSize < rules.minAmount) {
    out.orderSize = `Order size must be at least ${fmt(rules.minAmount)} (the market's minimum amount)`;
  }
  // (a ladder reaching 0 is the parse's rule, bot.rules.ts ladderBoundProblems: not repeated here)
  const last = Math.floor(g.numOfOrders) - 1;
  // (a short ladder rises from the entry: its lowest rung is the entry, issue 32)
  const lowest = g.direction === 'short' ? rungPrice(g, 0) : rungPrice(g, last);
  // the smallest order by value: the lowest with equal sizes; with a size scale, any rung (issue 14)
  let smallest = money(lowest * g.orderSize);
  if ((g.sizeScale ?? 1) !== 1) for (let i = 0; i <= last; i++) smallest = Math.min(smallest, money(rungPrice(g, i) * rungSize(g, i)));
  if (lowest > 0 && !out.orderSize && smallest < rules.minNotional) {
    out.orderSize = `The lowest order is worth ${fmt(smallest)} USDT, below the market's minimum order value of ${fmt(rules.minNotional)} USDT`;
  }
  // the market's own maker rate, when it reports one (the parse checked the venue's default)
  const feeError = rules.makerFee !== undefined ? takeProfitFeeError(g.takeProfit, rules.makerFee) : null;
  if (feeError) out.takeProfit = feeError.message;
  if (available !== null && available !== undefined && lowest > 0) {
    const cost = ladderCostOf(g);
    if (cost > available) {
      out.numOfOrders = `The ladder costs ${fmt(cost)} USDT, more than the ${fmt(money(available))} USDT available`;
    }
  }
  for (const field of Object.keys(maxima) as BotFormField[]) out[field] ??= maxima[field];
  return out;
}

/**
 * Issue 39, "Any pair the venue lists": what the venue's maximums refuse of the grid, each message naming
 * the venue's rule (venues/market-maximums.ts; sources in docs/exchanges.md):
 * - an order above the largest amount (LOT_SIZE maxQty) or value (NOTIONAL maxNotional) of one order;
 * - more orders open on the symbol than it allows (MAX_NUM_ORDERS);
 * - with the current price known, a rung outside the price band around it (PERCENT_PRICE_BY_SIDE /
 *   PERCENT_PRICE): a buy above bidUp × or below bidDown × the price, a sell above askUp × or below askDown ×.
 */
export function maximumErrors(g: GridNumbers, rules: MarketLimits, context: MarketContext = {}): BotFieldErrors {
  const out: BotFieldErrors = {};
  const venue = context.exchange ? `${context.exchange}'s` : "the venue's";
  const base = context.symbol ? context.symbol.toUpperCase().replace(/(USDT|USDC)$/, '') : '';
  const coin = (x: number) => (base ? `${fmt(x)} ${base}` : fmt(x));
  const rule = (k: keyof NonNullable<MarketLimits['ruleNames']>) => (rules.ruleNames?.[k] ? ` (${rules.ruleNames[k]})` : '');
  const n = Math.min(Math.floor(g.numOfOrders), 1000);
  if (!(n >= 1)) return out;
  const rungs = Array.from({ length: n }, (_, i) => ({ price: rungPrice(g, i), size: rungSize(g, i) }));
  const scaled = (g.sizeScale ?? 1) !== 1;
  const largest = rungs.reduce((m, r) => Math.max(m, r.size), 0);
  if (rules.maxAmount !== undefined && rules.maxAmount > 0 && money(largest) > rules.maxAmount) {
    out.orderSize = scaled
      ? `The largest order is ${coin(money(largest))}, above ${venue} maximum of ${coin(rules.maxAmount)} per order${rule('maxAmount')}`
      : `Order size ${coin(g.orderSize)} is above ${venue} maximum of ${coin(rules.maxAmount)} per order${rule('maxAmount')}`;
  }
  const worth = rungs.reduce((m, r) => Math.max(m, r.price * r.size), 0);
  if (!out.orderSize && rules.maxNotional !== undefined && rules.maxNotional > 0 && money(worth) > rules.maxNotional) {
    out.orderSize = `The largest order is worth ${fmt(money(worth))} USDT, above ${venue} maximum order value of ${fmt(rules.maxNotional)} USDT${rule('maxNotional')}`;
  }
  const open = context.openOrders ?? n + 1;
  if (rules.maxNumOrders !== undefined && rules.maxNumOrders > 0 && open > rules.maxNumOrders) {
    const where = context.symbol ? ` on ${context.symbol.toUpperCase()}` : '';
    out.numOfOrders = `Grid size ${n} keeps up to ${open} orders open${where}, more than ${venue} maximum of ${rules.maxNumOrders} open orders per symbol${rule('maxNumOrders')}`;
  }
  const price = context.price;
  const band = rules.percentPrice;
  if (band && typeof price === 'number' && Number.isFinite(price) && price > 0) {
    const short = g.direction === 'short';
    const up = short ? band.askUp : band.bidUp;
    const down = short ? band.askDown : band.bidDown;
    const kind = short ? 'sell' : 'buy';
    const prices = rungs.map((r) => r.price).filter((p) => p > 0);
    const high = Math.max(...prices);
    const low = Math.min(...prices);
    const at = `the current price of ${fmt(price)} USDT`;
    // a long ladder's highest buy is its entry, a short one's lowest sell (issue 32): those are the entry's field
    const highField: BotFormField = short ? 'numOfOrders' : 'entryPrice';
    const lowField: BotFormField = short ? 'entryPrice' : 'numOfOrders';
    if (up !== undefined && up > 0 && high > price * up && !out[highField]) {
      out[highField] = `The highest ${kind} order at ${fmt(money(high))} USDT is above ${venue} limit of ${fmt(money(price * up))} USDT, ${fmt(up)} × ${at}${rule('percentPrice')}`;
    }
    if (down !== undefined && down > 0 && prices.length && low < price * down && !out[lowField]) {
      out[lowField] = `The lowest ${kind} order at ${fmt(money(low))} USDT is below ${venue} limit of ${fmt(money(price * down))} USDT, ${fmt(down)} × ${at}${rule('percentPrice')}`;
    }
  }
  return out;
}

// ---- Entry price against the market (issue 29 finding 3, docs/risk.md "Entry price above the market") ----

/**
 * How far above the current price an entry may be without a confirmation: 0.5 %. The form pre-fills
 * the current price, which moves while the form is open, and a first rung at the market is how a grid
 * starts a deal (follow re-anchors that way). Beyond it, every rung at or above the price buys at once.
 */
export const ABOVE_MARKET_TOLERANCE = 0.005;

/** What an entry above the market would do at once. */
export interface AboveMarket {
  /** The current price the entry is compared with. */
  price: number;
  /** How far above it the entry is, in % (2 decimals). */
  percent: number;
  /** Rungs at or above the current price: they fill at once, as taker orders, at about the market price. */
  rungs: number;
  /** Rungs of the ladder. */
  of: number;
  /** Base amount those rungs buy. */
  amount: number;
  /** Issue 32: 'short' when the entry is BELOW the price and the rungs are sells (absent: the long grid's buys). */
  direction?: 'short';
  /** Their value at the current price, in quote (USDT). */
  cost: number;
  /** The taker fee on it (the market's taker rate; 0 when not known), in quote. */
  fee: number;
}

/**
 * The rungs an entry above the market buys at once, or null when the entry is at most
 * ABOVE_MARKET_TOLERANCE above `price` (or the price is not known). A limit buy above the best ask
 * fills at once at the ask, as a taker: its cost is its size × the market price, plus the taker fee.
 */
export function aboveMarket(g: Pick<GridNumbers, 'numOfOrders' | 'orderSize' | 'interval' | 'entryPrice' | 'spacing' | 'sizeScale' | 'direction'>, price: number | null | undefined, takerFee = 0): AboveMarket | null {
  if (typeof price !== 'number' || !Number.isFinite(price) || price <= 0) return null;
  const short = g.direction === 'short';
  // short (issue 32): a limit sell below the best bid fills at once at the bid, as a taker
  if (short ? !(g.entryPrice < price * (1 - ABOVE_MARKET_TOLERANCE)) : !(g.entryPrice > price * (1 + ABOVE_MARKET_TOLERANCE))) return null;
  const ladder = ladderPreview(g, 1000);
  const at = ladder.filter((r) => (short ? r.price <= price : r.price >= price));
  const amount = money(at.reduce((sum, r) => sum + r.size, 0));
  const cost = money(amount * price);
  return {
    price,
    percent: Math.round((Math.abs(g.entryPrice - price) / price) * 10000) / 100,
    rungs: at.length,
    of: ladder.length,
    amount,
    cost,
    fee: money(cost * (Number.isFinite(takerFee) && takerFee > 0 ? takerFee : 0)),
    ...(short ? { direction: 'short' as const } : {}),
  };
}

const usd = (x: number) => x.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/**
 * The warning of an entry above the market, in the form's words (the form shows it above its
 * confirmation checkbox; the server's 400 adds how to confirm). `base`: the coin (BTC).
 */
export function aboveMarketMessage(a: AboveMarket, base: string): string {
  const kind = a.direction === 'short' ? 'sell' : 'buy';
  const orders = a.rungs === 1 ? `1 of the ${a.of} ${kind} orders` : `${a.rungs} of the ${a.of} ${kind} orders`;
  const fee = a.fee > 0 ? ` plus ${usd(a.fee)} USDT taker fee` : '';
  return (
    `The entry price is ${a.percent} % ${a.direction === 'short' ? 'below' : 'above'} the current price of ${usd(a.price)} USDT: ` +
    `${orders} (${fmt(a.amount)} ${base}) would fill at once as taker orders, for about ${usd(a.cost)} USDT${fee}`
  );
}

/** The server's field message for an unconfirmed entry above the market. */
export function aboveMarketError(a: AboveMarket, base: string): string {
  return `${aboveMarketMessage(a, base)}. To place them anyway, confirm it (confirmAboveMarket: true).`;
}

/** The label of the form's confirmation checkbox. */
export const ABOVE_MARKET_CONFIRM_LABEL = 'I understand: these orders buy at once at the market price';
/** The same for a short grid's entry below the market (issue 32): its sells fill at once. */
export const BELOW_MARKET_CONFIRM_LABEL = 'I understand: these orders sell at once at the market price';
