import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { OrderUpdate } from './exchange.port';
import { PaperExchangeProvider, PaperVenue, type PaperExchange } from './paper.exchange';
import { CsvReplayFeed } from './paper-price-feed';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

const T0 = 1_700_000_000_000;

function setup() {
  const dir = mkdtempSync(join(tmpdir(), 'paper-group-'));
  dirs.push(dir);
  const file = join(dir, 'paper-exchange.sqlite');
  const venue = new PaperVenue({ store: file, feed: new CsvReplayFeed(`ms,exchange,symbol,price\n${T0},Binance,BTCUSDT,95000\n${T0 + 1000},Binance,BTCUSDT,93000\n`) });
  venue.advanceTo(T0);
  /** What another process opening the file would see now (committed rows only). */
  const onDisk = (clientOrderId: string) => {
    const db = new Database(file, { readonly: true });
    try {
      return db.prepare('SELECT status FROM orders WHERE client_order_id = ? ORDER BY id DESC LIMIT 1').get(clientOrderId) as { status: string } | undefined;
    } finally {
      db.close();
    }
  };
  return { venue, onDisk };
}

async function port(venue: PaperVenue) {
  const p = (await new PaperExchangeProvider(venue).for({ userId: 'u1', exchange: 'Binance', market: 'spot' })) as PaperExchange;
  await p.balances(); // the account exists (its creation is a transaction of its own)
  return p;
}
const buy = (id: string, price: number) => ({ symbol: 'BTCUSDT', side: 'buy' as const, price, amount: 0.001, clientOrderId: id });

describe('paper venue: group commit (orders of one event-loop turn in one transaction)', () => {
  it('commits the orders placed in one turn in one transaction, and acknowledges each only once it is on disk', async () => {
    const { venue, onDisk } = setup();
    const p = await port(venue);
    const transactions = jest.spyOn(venue.store, 'transaction');
    const placing = [p.createLimitOrder(buy('a', 94000)), p.createLimitOrder(buy('b', 93500)), p.createLimitOrder(buy('c', 93000))];
    expect(onDisk('a')).toBeUndefined(); // not acknowledged yet, not written yet
    const placed = await Promise.all(placing);
    expect(placed.map((o) => o.status)).toEqual(['open', 'open', 'open']);
    expect(transactions).toHaveBeenCalledTimes(1);
    expect(['a', 'b', 'c'].map((id) => onDisk(id)?.status)).toEqual(['open', 'open', 'open']);
    venue.close();
  });

  it('reports an open order placed this turn only once it is on disk', async () => {
    const { venue, onDisk } = setup();
    const p = await port(venue);
    void p.createLimitOrder(buy('a', 94000));
    const open = await p.openOrders('BTCUSDT');
    expect(open.map((o) => o.clientOrderId)).toEqual(['a']);
    expect(onDisk('a')?.status).toBe('open');
    venue.close();
  });

  it('pushes an order update only after its commit', async () => {
    const { venue, onDisk } = setup();
    const p = await port(venue);
    const seen: Array<string | undefined> = [];
    p.watchOrders((u: OrderUpdate) => seen.push(onDisk(u.order.clientOrderId)?.status));
    await p.createLimitOrder(buy('a', 94000));
    await p.cancelOrder('BTCUSDT', 'a');
    expect(seen).toEqual(['open', 'cancelled']);
    venue.close();
  });

  it('sees an order placed and cancelled in the same turn before the commit (a lookup, a second cancel)', async () => {
    const { venue, onDisk } = setup();
    const p = await port(venue);
    const placing = p.createLimitOrder(buy('a', 94000));
    const cancelling = p.cancelOrder('BTCUSDT', 'a');
    expect((await p.orderByClientId('BTCUSDT', 'a'))?.status).toBe('cancelled');
    expect(onDisk('a')?.status).toBe('cancelled'); // answered only once on disk
    const again = p.cancelOrder('BTCUSDT', 'a'); // already closed: answered as it stands
    expect((await placing).status).toBe('open');
    expect((await cancelling).status).toBe('cancelled');
    expect((await again).status).toBe('cancelled');
    expect(onDisk('a')?.status).toBe('cancelled');
    venue.close();
  });

  it('a feed advance commits the pending orders with its fills in one transaction', async () => {
    const { venue, onDisk } = setup();
    const p = await port(venue);
    const transactions = jest.spyOn(venue.store, 'transaction');
    const placing = p.createLimitOrder(buy('a', 94000));
    venue.advanceTo(T0 + 1000); // 93000: fills the order placed this turn
    expect(transactions).toHaveBeenCalledTimes(1);
    expect(onDisk('a')?.status).toBe('filled');
    expect((await placing).status).toBe('open'); // as it was placed
    expect(venue.store.allFills().map((f) => f.clientOrderId)).toEqual(['a']);
    venue.close();
  });
});
