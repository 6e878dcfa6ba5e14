/**
 * Row → port shapes of the paper exchange (orders and fills as the port reports them).
 */
import { splitSymbol, type Fill, type Order } from './exchange.port';
import { fromUnits, mulDiv, SCALE } from './fixed-point';
import type { FillRow, OrderRow } from './paper.store';

export function toOrder(o: OrderRow): Order {
  const order: Order = {
    clientOrderId: o.clientOrderId,
    exchangeOrderId: String(o.id),
    symbol: o.symbol,
    side: o.side,
    price: fromUnits(o.price),
    amount: fromUnits(o.amount),
    filled: fromUnits(o.filled),
    status: o.status,
    updatedAt: o.updatedAt,
  };
  if (o.filled > 0) {
    order.avgFillPrice = fromUnits(mulDiv(o.fillCost, SCALE, o.filled));
    order.fee = fromUnits(o.fee);
  }
  if (o.reduceOnly) order.reduceOnly = true;
  return order;
}

export function toFill(f: FillRow): Fill {
  const fill: Fill = {
    fillId: String(f.id),
    clientOrderId: f.clientOrderId,
    exchangeOrderId: String(f.orderId),
    symbol: f.symbol,
    side: f.side,
    price: fromUnits(f.price),
    amount: fromUnits(f.amount),
    fee: fromUnits(f.fee),
    feeAsset: f.feeAsset || splitSymbol(f.symbol).quote,
    feeCost: fromUnits(f.feeAsset ? f.feeCost : f.fee),
    timestamp: f.ts,
  };
  if (f.realizedPnl !== null && f.realizedPnl !== undefined) fill.realizedPnl = fromUnits(f.realizedPnl);
  return fill;
}
