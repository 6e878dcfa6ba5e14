/**
 * The paper exchange's index of open limit orders per market key (exchange + symbol), kept sorted by
 * price so that a tick finds every crossing order with one binary search and takes them as a slice:
 * O(log n + k) per tick, nothing at all when nothing crosses.
 *   buys  ascending by price  → a tick at P fills the suffix with price ≥ P
 *   sells descending by price → a tick at P fills the suffix with price ≤ P
 */
import type { OrderSide } from './exchange.port';

export interface BookOrder {
  id: number;
  side: OrderSide;
  price: number;
}

interface Sides<T> {
  buys: T[];
  sells: T[];
}

/** First index whose price is "at or past" `price` in the array's direction. */
function lowerBound<T extends BookOrder>(arr: T[], price: number, ascending: boolean): number {
  let lo = 0;
  let hi = arr.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const before = ascending ? arr[mid].price < price : arr[mid].price > price;
    if (before) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export class PaperOrderBook<T extends BookOrder> {
  private readonly books = new Map<string, Sides<T>>();
  private count = 0;

  private sides(key: string): Sides<T> {
    let s = this.books.get(key);
    if (!s) {
      s = { buys: [], sells: [] };
      this.books.set(key, s);
    }
    return s;
  }

  add(key: string, order: T): void {
    const s = this.sides(key);
    const asc = order.side === 'buy';
    const arr = asc ? s.buys : s.sells;
    arr.splice(lowerBound(arr, order.price, asc), 0, order);
    this.count++;
  }

  remove(key: string, order: T): boolean {
    const s = this.books.get(key);
    if (!s) return false;
    const asc = order.side === 'buy';
    const arr = asc ? s.buys : s.sells;
    for (let i = lowerBound(arr, order.price, asc); i < arr.length && arr[i].price === order.price; i++) {
      if (arr[i] === order) {
        arr.splice(i, 1);
        this.count--;
        return true;
      }
    }
    return false;
  }

  /** Removes and returns every order that a trade at `price` fills, oldest (lowest id) first. */
  takeCrossed(key: string, price: number): T[] {
    const s = this.books.get(key);
    if (!s) return [];
    let taken: T[] = [];
    if (s.buys.length && s.buys[s.buys.length - 1].price >= price) {
      taken = s.buys.splice(lowerBound(s.buys, price, true));
    }
    if (s.sells.length && s.sells[s.sells.length - 1].price <= price) {
      taken = taken.concat(s.sells.splice(lowerBound(s.sells, price, false)));
    }
    if (taken.length > 1) taken.sort((a, b) => a.id - b.id);
    this.count -= taken.length;
    return taken;
  }

  /** Would a trade at `price` fill this order? */
  static crosses(order: BookOrder, price: number): boolean {
    return order.side === 'buy' ? price <= order.price : price >= order.price;
  }

  size(): number {
    return this.count;
  }
}
