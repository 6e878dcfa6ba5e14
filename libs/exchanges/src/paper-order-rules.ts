/**
 * The venue rules as the paper exchange applies them to an order before anything is held: side,
 * client order id format (per venue) and uniqueness among open orders, position side (one-way only),
 * price and amount steps, minimum amount and notional, maximum amount and notional (issue 39) — the steps and minimums of the account's own
 * venue and market (venues/markets.ts: Binance's SOLUSDT perpetual is not its spot market). Pure: no
 * store, no feed.
 */
import { splitSymbol, type LimitOrderRequest, type MarketOrderRequest } from './exchange.port';
import { DuplicateOrderError, InvalidOrderError } from './exchange.errors';
import { isMultipleOf, notionalUnits, parseUnits, toUnits } from './fixed-point';
import type { Account, SymbolRules } from './paper-accounts';
import type { PaperSymbolSpec } from './paper.constants';
import { validClientOrderId, type VenueRules } from './venues/venue-rules';

export type PaperOrderRequest = LimitOrderRequest | (MarketOrderRequest & { price?: undefined });

export interface CheckedOrder {
  symbol: string;
  market: boolean;
  /** Units; a market order's is the current price. */
  price: number;
  amount: number;
  notional: number;
  reduceOnly: boolean;
}

export function symbolRulesOf(spec: PaperSymbolSpec): SymbolRules {
  const { base, quote } = splitSymbol(spec.symbol);
  const amountStep = parseUnits(spec.amountStep);
  const minAmount = spec.minAmount === undefined ? amountStep : parseUnits(spec.minAmount);
  const out: SymbolRules = { spec, base, quote, priceStep: parseUnits(spec.priceStep), amountStep, minNotional: parseUnits(spec.minNotional), minAmount };
  if (spec.maxAmount !== undefined) out.maxAmount = parseUnits(spec.maxAmount);
  if (spec.maxNotional !== undefined) out.maxNotional = parseUnits(spec.maxNotional);
  return out;
}

export function clientIdRule(venue: VenueRules): string {
  return venue.clientOrderId.words;
}

/** Checks `req` as the venue would; `current` is the market price in units. */
export function checkOrder(account: Account, rules: SymbolRules, venue: VenueRules, req: PaperOrderRequest, current: number): CheckedOrder {
  const market = req.price === undefined;
  if (req.side !== 'buy' && req.side !== 'sell') throw new InvalidOrderError('side must be buy or sell');
  if (!validClientOrderId(venue, req.clientOrderId)) throw new InvalidOrderError(clientIdRule(venue));
  if (account.open.has(req.clientOrderId)) throw new DuplicateOrderError(req.clientOrderId);
  if (req.positionSide !== undefined) {
    // one-way mode only: Binance refuses LONG/SHORT then (-4061); spot has no position side
    throw new InvalidOrderError("order's position side does not match the account's position mode (one-way)");
  }
  if ((!market && (!Number.isFinite(req.price) || req.price! <= 0)) || !Number.isFinite(req.amount) || req.amount <= 0) {
    throw new InvalidOrderError('price and amount must be positive numbers');
  }
  const price = market ? current : toUnits(req.price!);
  const amount = toUnits(req.amount);
  if (!market && !isMultipleOf(price, rules.priceStep)) throw new InvalidOrderError(`price must be a multiple of ${rules.spec.priceStep}`);
  if (!isMultipleOf(amount, rules.amountStep)) throw new InvalidOrderError(`amount must be a multiple of ${rules.spec.amountStep}`);
  if (amount < rules.minAmount) throw new InvalidOrderError(`amount must be at least ${rules.spec.minAmount ?? rules.spec.amountStep}`);
  // issue 39: Binance LOT_SIZE "quantity <= maxQty" (the stand-in answers -1013 "Filter failure: LOT_SIZE")
  if (rules.maxAmount !== undefined && amount > rules.maxAmount) throw new InvalidOrderError(`amount must be at most ${rules.spec.maxAmount}`);
  const reduceOnly = req.reduceOnly === true;
  const notional = notionalUnits(price, amount);
  if (!reduceOnly && venue.minNotional && notional < rules.minNotional) {
    throw new InvalidOrderError(`order value must be at least ${rules.spec.minNotional} ${rules.quote}`);
  }
  // issue 39: Binance NOTIONAL "price * quantity <= maxNotional", limit orders only (applyMaxToMarket false in BS-SNAP)
  if (!market && rules.maxNotional !== undefined && notional > rules.maxNotional) {
    throw new InvalidOrderError(`order value must be at most ${rules.spec.maxNotional} ${rules.quote}`);
  }
  return { symbol: rules.spec.symbol, market, price, amount, notional, reduceOnly };
}
