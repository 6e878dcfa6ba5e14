/**
 * The paper exchange liquidates an isolated futures position as the venue does (issue 40 point 3), pure
 * over the account (no I/O: the venue commits what it touched in its unit of work).
 *
 * When: at a price P of the symbol (the paper feed's price stands for the mark price), the position's
 * margin balance — its isolated margin W (entry value ÷ leverage) plus its unrealised P&L at P — is at
 * or below its maintenance margin, notional(P) × rate − amount of the tier of that notional (the venue's
 * tiers: venues/margin-tiers.ts; Binance "Maintenance Margin = Notional Position Value × Maintenance
 * Margin Rate − Maintenance Amount", "Liquidation occurs when the Mark Price hits the liquidation price";
 * sources in docs/exchanges.md "Liquidation"). That is the price liquidation.ts computes for the form.
 * What: every open order of the symbol is cancelled first, then the position is closed in full at its
 * bankruptcy price, where its margin is used up (long (C − W) ÷ Q, short (C + W) ÷ Q): the trader loses
 * the whole isolated margin; what was left of it at the liquidation price (the maintenance margin) is
 * the venue's liquidation clearance fee, so the fill itself carries no fee. The order's client id is
 * Binance's for liquidations, `autoclose-<time><n>` (the user data stream: "starts with "autoclose-":
 * liquidation order"; GET /fapi/v1/forceOrders), for either venue.
 * Not simulated: partial liquidation of the larger tiers ("Smart Liquidation" reduces the position first),
 * the insurance fund and ADL, the cross-margin account's liquidation (the whole futures wallet).
 */
import type { Account, SymbolRules, UnitOfWork } from './paper-accounts';
import { fromUnits, mulDiv, notionalUnits, SCALE } from './fixed-point';
import { marginTiers, tierFor } from './venues/margin-tiers';
import type { FillRow, OrderRow } from './paper.store';

export interface LiquidationHost {
  nextOrderId(): number;
  nextFillId(): number;
  /** Takes an open order off the book. */
  cancel(order: OrderRow): void;
  rules(symbol: string): SymbolRules;
}

/** Whether the position's margin balance at `priceUnits` is at or below its maintenance margin (units throughout). */
export function isolatedUnderMaintenance(p: { qty: number; cost: number; leverage: number }, priceUnits: number, exchange: Account['exchange'], symbol: string): boolean {
  const q = Math.abs(p.qty);
  const notional = notionalUnits(priceUnits, q);
  const margin = mulDiv(p.cost, 1, p.leverage);
  const unrealised = p.qty > 0 ? notional - p.cost : p.cost - notional;
  const tier = tierFor(marginTiers(exchange, symbol), fromUnits(notional));
  const maintenance = Math.round(notional * tier.maintenanceRate) - Math.round(tier.maintenanceAmount * SCALE);
  return margin + unrealised <= maintenance;
}

/** Liquidates the account's isolated position in `symbol` if `priceUnits` calls for it; the liquidation order, or null. */
export function liquidateIsolated(account: Account, symbol: string, priceUnits: number, ms: number, host: LiquidationHost, uow: UnitOfWork): OrderRow | null {
  const pos = account.positions.get(symbol);
  if (!pos || pos.qty === 0 || pos.marginMode !== 'isolated') return null;
  if (!isolatedUnderMaintenance(pos, priceUnits, account.exchange, symbol)) return null;
  // the symbol's open orders first (what they held is released)
  for (const o of [...account.open.values()]) {
    if (o.symbol !== symbol) continue;
    host.cancel(o);
    account.open.delete(o.clientOrderId);
    const usdt = account.assets.get('USDT');
    if (usdt) usdt.locked -= o.reserved;
    o.reserved = 0;
    o.status = 'cancelled';
    o.updatedAt = ms;
    uow.balance(account, 'USDT');
    uow.orders.add(o);
    uow.updates.push({ account, order: o });
  }
  const long = pos.qty > 0;
  const q = Math.abs(pos.qty);
  const margin = mulDiv(pos.cost, 1, pos.leverage);
  const rules = host.rules(symbol);
  // the bankruptcy price, on the price step (rounded against the trader: the margin is all gone)
  const raw = mulDiv(long ? pos.cost - margin : pos.cost + margin, SCALE, q);
  const step = rules.priceStep > 0 ? rules.priceStep : 1;
  const price = long ? Math.ceil(raw / step) * step : Math.floor(raw / step) * step;
  const value = notionalUnits(price, q);
  const pnl = long ? value - pos.cost : pos.cost - value;
  const usdt = account.assets.get('USDT')!;
  usdt.total += pnl;
  if (usdt.total < 0) usdt.total = 0; // a bankrupt account is balanced back to 0 by the insurance fund
  pos.qty = 0;
  pos.cost = 0;
  uow.balance(account, 'USDT');
  uow.position(account, symbol);
  const id = host.nextOrderId();
  const order: OrderRow = {
    id, userId: account.userId, exchange: account.exchange, market: account.market, symbol, clientOrderId: `autoclose-${ms}${id}`,
    side: long ? 'sell' : 'buy', price, amount: q, filled: q, status: 'filled', reduceOnly: true, reserved: 0, fee: 0, fillCost: value, createdAt: ms, updatedAt: ms,
  };
  const fill: FillRow = {
    id: host.nextFillId(), userId: account.userId, exchange: account.exchange, market: account.market, orderId: id, clientOrderId: order.clientOrderId, symbol,
    side: order.side, price, amount: q, fee: 0, feeAsset: 'USDT', feeCost: 0, realizedPnl: pnl, ts: ms,
  };
  uow.orders.add(order);
  uow.fills.push(fill);
  uow.updates.push({ account, order, fill });
  return order;
}
