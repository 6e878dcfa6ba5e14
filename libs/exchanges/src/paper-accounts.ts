/**
 * The paper exchange's accounts: balances, held funds, futures positions and margin, and the
 * settlement of a fill (money moves as the venue moves it: fee asset and rate from the venue rules).
 * In memory; the venue (paper-venue.ts) persists what a unit of work touched in one transaction.
 * Money is integer 1e-8 units (fixed-point.ts).
 */
import type { BalanceRecord, ExchangeName, MarginMode, MarketType, OrderSide, OrderUpdate, Position } from './exchange.port';
import { FuturesSettingRefusedError, InsufficientFundsError, InvalidOrderError } from './exchange.errors';
import { feeUnits, fromUnits, mulDiv, notionalUnits, SCALE } from './fixed-point';
import { PAPER_DEFAULT_LEVERAGE, PAPER_MAX_LEVERAGE, type PaperSymbolSpec } from './paper.constants';
import type { AccountRow, FillRow, OrderRow } from './paper.store';
import type { VenueRules } from './venues/venue-rules';

/** A symbol's market rules in units. */
export interface SymbolRules {
  spec: PaperSymbolSpec;
  base: string;
  quote: string;
  priceStep: number;
  amountStep: number;
  minNotional: number;
  minAmount: number;
  /** Issue 39: largest amount and value of one order, units (absent: none). */
  maxAmount?: number;
  maxNotional?: number;
}

export interface Asset {
  total: number;
  locked: number;
}

export interface PaperPosition {
  /** Signed base amount: > 0 long, < 0 short. */
  qty: number;
  /** Entry value of the open position (quote units). */
  cost: number;
  leverage: number;
  marginMode: MarginMode;
}

export interface Account extends AccountRow {
  key: string;
  assets: Map<string, Asset>;
  positions: Map<string, PaperPosition>;
  /** Open orders by client order id. */
  open: Map<string, OrderRow>;
  listeners: Set<(u: OrderUpdate) => void>;
}

/** What changed during one call or one feed advance; written in one transaction. */
export class UnitOfWork {
  readonly balances = new Map<string, { account: Account; asset: string }>();
  readonly positions = new Map<string, { account: Account; symbol: string }>();
  readonly orders = new Set<OrderRow>();
  readonly fills: FillRow[] = [];
  readonly updates: Array<{ account: Account; order: OrderRow; fill?: FillRow }> = [];

  balance(account: Account, asset: string): void {
    this.balances.set(`${account.key}|${asset}`, { account, asset });
  }
  position(account: Account, symbol: string): void {
    this.positions.set(`${account.key}|${symbol}`, { account, symbol });
  }
}

export const accountKey = (userId: string, exchange: ExchangeName, market: MarketType) => `${userId}\u0001${exchange}\u0001${market}`;

export function newAccount(userId: string, exchange: ExchangeName, market: MarketType): Account {
  return { key: accountKey(userId, exchange, market), userId, exchange, market, assets: new Map(), positions: new Map(), open: new Map(), listeners: new Set() };
}

/** A venue's fee rate as integer basis points (0.001 → 10). */
export const bps = (rate: number) => Math.round(rate * 10_000);

export function assetOf(account: Account, asset: string): Asset {
  let a = account.assets.get(asset);
  if (!a) account.assets.set(asset, (a = { total: 0, locked: 0 }));
  return a;
}

export function positionOf(account: Account, symbol: string): PaperPosition {
  let p = account.positions.get(symbol);
  if (!p) account.positions.set(symbol, (p = { qty: 0, cost: 0, leverage: PAPER_DEFAULT_LEVERAGE, marginMode: 'cross' }));
  return p;
}

/** Margin held by the open positions: entry value ÷ leverage. */
export function positionMargin(account: Account): number {
  let sum = 0;
  for (const p of account.positions.values()) if (p.qty !== 0) sum += mulDiv(p.cost, 1, p.leverage);
  return sum;
}

/** Futures: the wallet less what open orders hold and the positions' margin. */
export function futuresAvailable(account: Account): number {
  const usdt = assetOf(account, 'USDT');
  return usdt.total - usdt.locked - positionMargin(account);
}

/** The venue's answer to a futures setting it refuses (venue rules `answers.futuresSettings`), as our error. */
export function settingRefused(venue: VenueRules, setting: FuturesSettingRefusedError['setting'], arg?: number): FuturesSettingRefusedError | null {
  const a = venue.answers.futuresSettings?.[setting];
  return a ? new FuturesSettingRefusedError(setting, a.msg.replace('%s', arg === undefined ? '' : String(arg)), a.code) : null;
}

/**
 * Whether the margin mode of a futures symbol may change now, as the venue rules it (issue 40; Binance
 * POST /fapi/v1/marginType: -4047 with open orders, -4048 with a position): throws the venue's refusal.
 * Returns false when the mode is already the one asked (Binance answers -4046 to that; the port's
 * setLeverage takes it as done).
 */
export function checkMarginModeChange(account: Account, symbol: string, marginMode: MarginMode, venue: VenueRules): boolean {
  if (marginMode !== 'isolated' && marginMode !== 'cross') throw new InvalidOrderError('margin mode must be isolated or cross');
  if (account.market !== 'futures') throw new InvalidOrderError('leverage applies to futures only');
  const pos = positionOf(account, symbol);
  if (pos.marginMode === marginMode) return false;
  if ([...account.open.values()].some((o) => o.symbol === symbol)) throw settingRefused(venue, 'marginModeWithOpenOrders') ?? new InvalidOrderError('margin mode cannot change with open orders');
  if (pos.qty !== 0) throw settingRefused(venue, 'marginModeWithPosition') ?? new InvalidOrderError('margin mode cannot change with a position');
  return true;
}

/**
 * Sets a futures symbol's leverage and margin mode as the venue would (issue 40): the margin mode change
 * (checkMarginModeChange), a leverage above the highest the symbol's tier allows for the position now
 * (`maxLeverage`: margin-tiers.ts; Binance -4028, Kucoin 300016), a lower leverage of an isolated
 * position (Binance -4161), and a lower leverage needs the margin for it.
 */
export function changeLeverage(account: Account, symbol: string, leverage: number, marginMode: MarginMode, venue?: VenueRules, maxLeverage?: number | null): void {
  if (marginMode !== 'isolated' && marginMode !== 'cross') throw new InvalidOrderError('margin mode must be isolated or cross');
  if (account.market !== 'futures') throw new InvalidOrderError('leverage applies to futures only');
  const max = Math.min(PAPER_MAX_LEVERAGE, maxLeverage ?? PAPER_MAX_LEVERAGE);
  if (!Number.isInteger(leverage) || leverage < 1 || leverage > max) {
    const refused = venue && Number.isInteger(leverage) && leverage > max ? settingRefused(venue, 'leverageInvalid', venue.answers.futuresSettings?.leverageInvalidNames === 'max' ? max : leverage) : null;
    throw refused ?? new InvalidOrderError(`leverage must be an integer from 1 to ${max}`);
  }
  const pos = positionOf(account, symbol);
  if (venue) checkMarginModeChange(account, symbol, marginMode, venue);
  if (venue && pos.qty !== 0 && pos.marginMode === 'isolated' && marginMode === 'isolated' && leverage < pos.leverage) {
    const refused = settingRefused(venue, 'leverageReductionWithPosition');
    if (refused) throw refused;
  }
  const previous = pos.leverage;
  pos.leverage = leverage;
  pos.marginMode = marginMode;
  if (pos.qty !== 0 && futuresAvailable(account) < 0) {
    pos.leverage = previous;
    throw new InsufficientFundsError('not enough margin for the lower leverage');
  }
}

/** The account's balances as the port reports them (USDT first; empty coins left out). */
export function balanceRecords(account: Account): BalanceRecord[] {
  const out: BalanceRecord[] = [];
  const names = [...account.assets.keys()].sort((a, b) => (a === 'USDT' ? -1 : b === 'USDT' ? 1 : a.localeCompare(b)));
  for (const name of names) {
    const a = account.assets.get(name)!;
    if (name !== 'USDT' && a.total === 0) continue;
    const available = account.market === 'futures' && name === 'USDT' ? futuresAvailable(account) : a.total - a.locked;
    out.push({ symbol: name, exchange: account.exchange, balance: fromUnits(a.total), available: fromUnits(available) });
  }
  return out;
}

/** Open futures positions, in base units (one-way: no position side). */
export function openPositions(account: Account, onlySymbol?: string): Position[] {
  if (account.market !== 'futures') return [];
  return [...account.positions.entries()]
    .filter(([s, p]) => p.qty !== 0 && (onlySymbol === undefined || s === onlySymbol))
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([s, p]) => ({ symbol: s, amount: fromUnits(p.qty), entryPrice: fromUnits(mulDiv(p.cost, SCALE, Math.abs(p.qty))), leverage: p.leverage, marginMode: p.marginMode }));
}

/**
 * Holds what an order needs until it fills or is cancelled, and returns the amount held. Spot: a
 * buy holds the notional (+ the fee when the venue charges it in quote), a sell the coins. Futures:
 * margin (notional ÷ leverage) + fee; a reduce-only order only its fee. Not enough → InsufficientFunds.
 */
export function hold(
  account: Account,
  rules: SymbolRules,
  venue: VenueRules,
  order: { symbol: string; side: OrderSide; reduceOnly: boolean; amount: number; notional: number; feeBps: number },
  uow: UnitOfWork,
): number {
  const { notional, feeBps } = order;
  if (account.market === 'spot') {
    if (order.reduceOnly) throw new InvalidOrderError('reduce-only applies to futures orders');
    const asset = order.side === 'buy' ? rules.quote : rules.base;
    const reserved = order.side === 'buy' ? notional + (venue.fees.buyFeeIn === 'base' ? 0 : feeUnits(notional, feeBps)) : order.amount;
    const a = assetOf(account, asset);
    if (a.total - a.locked < reserved) throw new InsufficientFundsError(`not enough ${asset}`);
    a.locked += reserved;
    uow.balance(account, asset);
    return reserved;
  }
  if (rules.quote !== 'USDT') throw new InvalidOrderError('paper futures are USDT-margined only');
  const pos = positionOf(account, order.symbol);
  const fee = feeUnits(notional, feeBps);
  let reserved: number;
  if (order.reduceOnly) {
    const sign = order.side === 'buy' ? 1 : -1;
    if (Math.sign(pos.qty) !== -sign) throw new InvalidOrderError('reduce-only order would not reduce the position');
    reserved = fee;
  } else {
    reserved = mulDiv(notional, 1, pos.leverage) + fee;
  }
  if (futuresAvailable(account) < reserved) throw new InsufficientFundsError('not enough USDT margin');
  assetOf(account, 'USDT').locked += reserved;
  uow.balance(account, 'USDT');
  return reserved;
}

/** Releases what a cancelled order held. */
export function release(account: Account, rules: SymbolRules, order: OrderRow, uow: UnitOfWork): void {
  const asset = order.market === 'futures' ? 'USDT' : order.side === 'buy' ? rules.quote : rules.base;
  assetOf(account, asset).locked -= order.reserved;
  uow.balance(account, asset);
  order.reserved = 0;
}

export interface Settlement {
  /** Base units filled (reduce-only: capped at the position; 0 = nothing to reduce). */
  amount: number;
  /** Fee in quote units, and as charged: asset and amount. */
  fee: number;
  feeAsset: string;
  feeCost: number;
  realizedPnl: number | null;
}

/**
 * Settles `order` filled in full at `price` with the fee rate `rateBps` (maker or taker): releases
 * what it held, moves the balances (spot) or the position and wallet (futures).
 */
export function settle(account: Account, rules: SymbolRules, venue: VenueRules, order: OrderRow, price: number, rateBps: number, uow: UnitOfWork): Settlement {
  let amount = order.amount;
  if (order.market === 'spot') {
    const notional = notionalUnits(price, amount);
    const base = assetOf(account, rules.base);
    const quote = assetOf(account, rules.quote);
    let out: Settlement;
    if (order.side === 'buy' && venue.fees.buyFeeIn === 'base') {
      // Binance spot: the fee comes out of the coin received
      const feeBase = mulDiv(amount, rateBps, 10_000);
      quote.locked -= order.reserved;
      quote.total -= notional;
      base.total += amount - feeBase;
      out = { amount, fee: notionalUnits(price, feeBase), feeAsset: rules.base, feeCost: feeBase, realizedPnl: null };
    } else if (order.side === 'buy') {
      const fee = feeUnits(notional, rateBps);
      quote.locked -= order.reserved;
      quote.total -= notional + fee;
      base.total += amount;
      out = { amount, fee, feeAsset: rules.quote, feeCost: fee, realizedPnl: null };
    } else {
      const fee = feeUnits(notional, rateBps);
      base.locked -= order.reserved;
      base.total -= amount;
      quote.total += notional - fee;
      out = { amount, fee, feeAsset: rules.quote, feeCost: fee, realizedPnl: null };
    }
    uow.balance(account, rules.base);
    uow.balance(account, rules.quote);
    order.fee += out.fee;
    order.fillCost += notional;
    return out;
  }
  const usdt = assetOf(account, 'USDT');
  const pos = positionOf(account, order.symbol);
  const sign = order.side === 'buy' ? 1 : -1;
  if (order.reduceOnly) {
    const reducible = Math.sign(pos.qty) === -sign ? Math.abs(pos.qty) : 0;
    amount = Math.min(amount, reducible);
  }
  usdt.locked -= order.reserved;
  uow.balance(account, 'USDT');
  if (amount <= 0) return { amount: 0, fee: 0, feeAsset: rules.quote, feeCost: 0, realizedPnl: null };
  const notional = notionalUnits(price, amount);
  const fee = feeUnits(notional, rateBps);
  let pnl = 0;
  if (pos.qty === 0 || Math.sign(pos.qty) === sign) {
    pos.qty += sign * amount;
    pos.cost += notional;
  } else {
    const open = Math.abs(pos.qty);
    const closeQty = Math.min(amount, open);
    const closedCost = closeQty === open ? pos.cost : mulDiv(pos.cost, closeQty, open);
    const closeValue = notionalUnits(price, closeQty);
    pnl = pos.qty > 0 ? closeValue - closedCost : closedCost - closeValue;
    pos.cost -= closedCost;
    pos.qty += sign * closeQty;
    const rest = amount - closeQty;
    if (rest > 0) {
      pos.qty = sign * rest;
      pos.cost = notionalUnits(price, rest);
    }
  }
  usdt.total += pnl - fee;
  uow.position(account, order.symbol);
  order.fee += fee;
  order.fillCost += notional;
  return { amount, fee, feeAsset: rules.quote, feeCost: fee, realizedPnl: pnl };
}
