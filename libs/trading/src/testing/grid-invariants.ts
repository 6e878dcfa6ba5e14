/**
 * What the crash and hand-over tests check, computed independently of the runner: from the
 * EXCHANGE's own fills (the truth), the pure engine says which orders should rest; the exchange's
 * open orders of the bot must be exactly those (no duplicate, no orphan, nothing missing).
 */
import type { ExchangePort, Fill as ExchangeFill, Order } from '@gridrocket/exchanges';
import { applyFills, desiredOrders, initialState } from '../grid/grid.engine';
import { isOwnClientOrderId } from '../grid/client-order-id';
import type { GridConfig, GridState, MarketRules } from '../grid/grid.types';
import { splitSymbol } from '@gridrocket/exchanges';
import { toEngineFill } from '../runner/bot-workflow';

export interface GridCheck {
  ok: boolean;
  /** The engine's state from the exchange's fills. */
  state: GridState;
  expected: string[];
  actual: string[];
  duplicates: string[];
}

const line = (o: { clientOrderId: string; side: string; price: number; amount: number }) => `${o.side} ${o.clientOrderId} ${o.price} ${o.amount}`;

export function checkGrid(config: GridConfig, rules: MarketRules, engineId: string, fills: ExchangeFill[], open: Order[]): GridCheck {
  const own = fills.filter((f) => isOwnClientOrderId(engineId, f.clientOrderId)).sort((a, b) => Number(a.fillId) - Number(b.fillId));
  // What the account received: a buy fee taken in the coin (Binance spot) leaves less (issue 10 finding 2).
  const state = applyFills(initialState(config, rules, engineId), own.map((f) => toEngineFill(f, config.botType === 'Spot' ? splitSymbol(f.symbol).base : undefined)));
  const expected = desiredOrders(config, rules, state).map(line).sort();
  const mine = open.filter((o) => isOwnClientOrderId(engineId, o.clientOrderId));
  const actual = mine.map(line).sort();
  const counts = new Map<string, number>();
  for (const o of mine) counts.set(o.clientOrderId, (counts.get(o.clientOrderId) ?? 0) + 1);
  const duplicates = [...counts].filter(([, n]) => n > 1).map(([id]) => id);
  return { ok: duplicates.length === 0 && JSON.stringify(expected) === JSON.stringify(actual), state, expected, actual, duplicates };
}

export async function checkGridOnPort(port: ExchangePort, symbol: string, config: GridConfig, rules: MarketRules, engineId: string): Promise<GridCheck> {
  const [fills, open] = [await port.recentFills(symbol, 0), await port.openOrders(symbol)];
  return checkGrid(config, rules, engineId, fills, open);
}
