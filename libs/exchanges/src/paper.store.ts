/**
 * SQLite persistence of the paper exchange (better-sqlite3, WAL). Holds every account's balances,
 * futures positions and leverage, all orders, all fills and the price feed's position. Writes are
 * batched: the API calls of one event-loop turn share one transaction (the venue's group commit),
 * a feed advance commits with them, and nothing is acknowledged before its commit, so a SIGKILL loses
 * nothing that was acknowledged and never leaves half a tick behind.
 * Money columns are integers in 1e-8 units (see fixed-point.ts).
 */
import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { ExchangeName, Fill, MarketType, OrderSide, OrderStatus } from './exchange.port';

export interface AccountRow {
  userId: string;
  exchange: ExchangeName;
  market: MarketType;
}

export interface BalanceRow extends AccountRow {
  asset: string;
  total: number;
  locked: number;
}

export interface PositionRow extends AccountRow {
  symbol: string;
  /** Signed base amount: > 0 long, < 0 short. */
  qty: number;
  /** Entry value of the open position (quote units, positive). */
  cost: number;
  leverage: number;
  marginMode: 'isolated' | 'cross';
}

export interface OrderRow extends AccountRow {
  id: number;
  symbol: string;
  clientOrderId: string;
  side: OrderSide;
  price: number;
  amount: number;
  filled: number;
  status: OrderStatus;
  reduceOnly: boolean;
  /** Funds held while open (quote units; base units for a spot sell). */
  reserved: number;
  fee: number;
  /** Σ price × amount of the fills (quote units). */
  fillCost: number;
  createdAt: number;
  updatedAt: number;
}

/** A stored paper fill: the port's fill fields (fees in units), with the store's ids. */
export interface FillRow extends AccountRow, Pick<Fill, 'clientOrderId' | 'symbol' | 'side' | 'price' | 'amount' | 'fee' | 'feeAsset' | 'feeCost'> {
  id: number;
  orderId: number;
  realizedPnl: number | null;
  ts: number;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS accounts (
  user_id TEXT NOT NULL, exchange TEXT NOT NULL, market TEXT NOT NULL,
  PRIMARY KEY (user_id, exchange, market));
CREATE TABLE IF NOT EXISTS balances (
  user_id TEXT NOT NULL, exchange TEXT NOT NULL, market TEXT NOT NULL, asset TEXT NOT NULL,
  total INTEGER NOT NULL, locked INTEGER NOT NULL,
  PRIMARY KEY (user_id, exchange, market, asset));
CREATE TABLE IF NOT EXISTS positions (
  user_id TEXT NOT NULL, exchange TEXT NOT NULL, market TEXT NOT NULL, symbol TEXT NOT NULL,
  qty INTEGER NOT NULL, cost INTEGER NOT NULL, leverage INTEGER NOT NULL, margin_mode TEXT NOT NULL DEFAULT 'cross',
  PRIMARY KEY (user_id, exchange, market, symbol));
CREATE TABLE IF NOT EXISTS orders (
  id INTEGER PRIMARY KEY, user_id TEXT NOT NULL, exchange TEXT NOT NULL, market TEXT NOT NULL,
  symbol TEXT NOT NULL, client_order_id TEXT NOT NULL, side TEXT NOT NULL,
  price INTEGER NOT NULL, amount INTEGER NOT NULL, filled INTEGER NOT NULL, status TEXT NOT NULL,
  reduce_only INTEGER NOT NULL, reserved INTEGER NOT NULL, fee INTEGER NOT NULL, fill_cost INTEGER NOT NULL,
  created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS orders_by_client ON orders (user_id, exchange, market, client_order_id, id);
CREATE INDEX IF NOT EXISTS orders_open ON orders (status) WHERE status = 'open';
CREATE TABLE IF NOT EXISTS fills (
  id INTEGER PRIMARY KEY, user_id TEXT NOT NULL, exchange TEXT NOT NULL, market TEXT NOT NULL,
  order_id INTEGER NOT NULL, client_order_id TEXT NOT NULL, symbol TEXT NOT NULL, side TEXT NOT NULL,
  price INTEGER NOT NULL, amount INTEGER NOT NULL, fee INTEGER NOT NULL, realized_pnl INTEGER, ts INTEGER NOT NULL,
  fee_asset TEXT NOT NULL DEFAULT '', fee_cost INTEGER NOT NULL DEFAULT 0);
CREATE INDEX IF NOT EXISTS fills_by_account ON fills (user_id, exchange, market, symbol, ts);
`;

const ORDER_COLUMNS = `id, user_id AS userId, exchange, market, symbol, client_order_id AS clientOrderId, side,
  price, amount, filled, status, reduce_only AS reduceOnly, reserved, fee, fill_cost AS fillCost,
  created_at AS createdAt, updated_at AS updatedAt`;

const FILL_COLUMNS = `id, user_id AS userId, exchange, market, order_id AS orderId, client_order_id AS clientOrderId,
  symbol, side, price, amount, fee, fee_asset AS feeAsset, fee_cost AS feeCost, realized_pnl AS realizedPnl, ts`;

/** Columns added after the first release: added in place to an older file. */
const MIGRATIONS: Array<[table: string, column: string, ddl: string]> = [
  ['fills', 'fee_asset', "ALTER TABLE fills ADD COLUMN fee_asset TEXT NOT NULL DEFAULT ''"],
  ['fills', 'fee_cost', 'ALTER TABLE fills ADD COLUMN fee_cost INTEGER NOT NULL DEFAULT 0'],
  ['positions', 'margin_mode', "ALTER TABLE positions ADD COLUMN margin_mode TEXT NOT NULL DEFAULT 'cross'"],
];

/**
 * WAL checkpoints on a thread of their own (issue 16): half the cost of a commit was the checkpoint
 * SQLite runs in the committing call every 1,000 pages. A PASSIVE checkpoint never blocks the writer
 * and changes nothing about durability (the WAL holds every commit until it is copied back).
 */
const CHECKPOINT_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file);
db.pragma('busy_timeout = 1000');
const timer = setInterval(() => { try { db.pragma('wal_checkpoint(PASSIVE)'); } catch {} }, workerData.everyMs);
parentPort.on('message', () => { clearInterval(timer); db.close(); parentPort.close(); });
`;

export interface PaperStoreOptions {
  /** Checkpoint the WAL on a background thread every this many ms instead of in the committing call. */
  checkpointEveryMs?: number;
}

function toOrder(row: any): OrderRow {
  return { ...row, reduceOnly: row.reduceOnly === 1 };
}

export class PaperStore {
  private readonly db: Database.Database;
  private readonly stmt: Record<string, Database.Statement>;
  private readonly checkpointer: Worker | null = null;

  constructor(
    readonly path: string,
    options: PaperStoreOptions = {},
  ) {
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    this.db = new Database(path);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL');
    if (options.checkpointEveryMs && path !== ':memory:') {
      this.db.pragma('wal_autocheckpoint = 0');
      this.checkpointer = new Worker(CHECKPOINT_SOURCE, {
        eval: true,
        workerData: { file: path, driver: require.resolve('better-sqlite3'), everyMs: options.checkpointEveryMs },
      });
      this.checkpointer.unref();
      // without it (it could not open the file, or stopped): SQLite's own checkpoints again
      const fallBack = () => {
        if (this.db.open) this.db.pragma('wal_autocheckpoint = 1000');
      };
      this.checkpointer.on('error', fallBack);
    }
    this.db.exec(SCHEMA);
    for (const [table, column, ddl] of MIGRATIONS) {
      const cols = this.db.prepare(`PRAGMA table_info(${table})`).all() as Array<{ name: string }>;
      if (!cols.some((c) => c.name === column)) this.db.exec(ddl);
    }
    const p = (sql: string) => this.db.prepare(sql);
    this.stmt = {
      getMeta: p('SELECT value FROM meta WHERE key = ?'),
      setMeta: p('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value'),
      insertAccount: p('INSERT OR IGNORE INTO accounts (user_id, exchange, market) VALUES (@userId, @exchange, @market)'),
      upsertBalance: p(`INSERT INTO balances (user_id, exchange, market, asset, total, locked)
        VALUES (?, ?, ?, ?, ?, ?)
        ON CONFLICT (user_id, exchange, market, asset) DO UPDATE SET total = excluded.total, locked = excluded.locked`),
      upsertPosition: p(`INSERT INTO positions (user_id, exchange, market, symbol, qty, cost, leverage, margin_mode)
        VALUES (@userId, @exchange, @market, @symbol, @qty, @cost, @leverage, @marginMode)
        ON CONFLICT (user_id, exchange, market, symbol) DO UPDATE SET qty = excluded.qty, cost = excluded.cost,
          leverage = excluded.leverage, margin_mode = excluded.margin_mode`),
      upsertOrder: p(`INSERT INTO orders (id, user_id, exchange, market, symbol, client_order_id, side, price, amount,
          filled, status, reduce_only, reserved, fee, fill_cost, created_at, updated_at)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT (id) DO UPDATE SET filled = excluded.filled, status = excluded.status, reserved = excluded.reserved,
          fee = excluded.fee, fill_cost = excluded.fill_cost, updated_at = excluded.updated_at`),
      insertFill: p(`INSERT INTO fills (id, user_id, exchange, market, order_id, client_order_id, symbol, side, price,
          amount, fee, fee_asset, fee_cost, realized_pnl, ts)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
      orderByClientId: p(`SELECT ${ORDER_COLUMNS} FROM orders
        WHERE user_id = ? AND exchange = ? AND market = ? AND client_order_id = ? ORDER BY id DESC LIMIT 1`),
      orderById: p(`SELECT ${ORDER_COLUMNS} FROM orders WHERE user_id = ? AND exchange = ? AND market = ? AND id = ?`),
      fillsSince: p(`SELECT ${FILL_COLUMNS} FROM fills
        WHERE user_id = ? AND exchange = ? AND market = ? AND symbol = ? AND ts >= ? ORDER BY id`),
      allFills: p(`SELECT ${FILL_COLUMNS} FROM fills ORDER BY id`),
      maxOrderId: p('SELECT COALESCE(MAX(id), 0) AS n FROM orders'),
      maxFillId: p('SELECT COALESCE(MAX(id), 0) AS n FROM fills'),
    };
  }

  transaction<T>(fn: () => T): T {
    return this.db.transaction(fn)();
  }

  getMeta(key: string): string | undefined {
    return (this.stmt.getMeta.get(key) as { value: string } | undefined)?.value;
  }

  setMeta(key: string, value: string): void {
    this.stmt.setMeta.run(key, value);
  }

  insertAccount(a: AccountRow): void {
    this.stmt.insertAccount.run(a);
  }

  upsertBalance(b: BalanceRow): void {
    // positional parameters: the hot path of every order and fill (no object per row)
    this.stmt.upsertBalance.run(b.userId, b.exchange, b.market, b.asset, b.total, b.locked);
  }

  upsertPosition(p: PositionRow): void {
    this.stmt.upsertPosition.run({
      userId: p.userId, exchange: p.exchange, market: p.market, symbol: p.symbol, qty: p.qty, cost: p.cost, leverage: p.leverage,
      marginMode: p.marginMode,
    });
  }

  upsertOrder(o: OrderRow): void {
    this.stmt.upsertOrder.run(
      o.id, o.userId, o.exchange, o.market, o.symbol, o.clientOrderId, o.side, o.price, o.amount,
      o.filled, o.status, o.reduceOnly ? 1 : 0, o.reserved, o.fee, o.fillCost, o.createdAt, o.updatedAt,
    );
  }

  insertFill(f: FillRow): void {
    this.stmt.insertFill.run(
      f.id, f.userId, f.exchange, f.market, f.orderId, f.clientOrderId, f.symbol, f.side, f.price,
      f.amount, f.fee, f.feeAsset, f.feeCost, f.realizedPnl, f.ts,
    );
  }

  accounts(): AccountRow[] {
    return this.db.prepare('SELECT user_id AS userId, exchange, market FROM accounts').all() as AccountRow[];
  }

  balances(): BalanceRow[] {
    return this.db.prepare('SELECT user_id AS userId, exchange, market, asset, total, locked FROM balances').all() as BalanceRow[];
  }

  positions(): PositionRow[] {
    return this.db
      .prepare('SELECT user_id AS userId, exchange, market, symbol, qty, cost, leverage, margin_mode AS marginMode FROM positions')
      .all() as PositionRow[];
  }

  openOrders(): OrderRow[] {
    return (this.db.prepare(`SELECT ${ORDER_COLUMNS} FROM orders WHERE status = 'open' ORDER BY id`).all() as any[]).map(toOrder);
  }

  orderByClientId(a: AccountRow, clientOrderId: string): OrderRow | undefined {
    const row = this.stmt.orderByClientId.get(a.userId, a.exchange, a.market, clientOrderId);
    return row ? toOrder(row) : undefined;
  }

  orderById(a: AccountRow, id: number): OrderRow | undefined {
    const row = this.stmt.orderById.get(a.userId, a.exchange, a.market, id);
    return row ? toOrder(row) : undefined;
  }

  fillsSince(a: AccountRow, symbol: string, sinceMs: number): FillRow[] {
    return this.stmt.fillsSince.all(a.userId, a.exchange, a.market, symbol, sinceMs) as FillRow[];
  }

  /** Every fill of every account, in order (determinism checks, audits). */
  allFills(): FillRow[] {
    return this.stmt.allFills.all() as FillRow[];
  }

  maxOrderId(): number {
    return (this.stmt.maxOrderId.get() as { n: number }).n;
  }

  maxFillId(): number {
    return (this.stmt.maxFillId.get() as { n: number }).n;
  }

  get isOpen(): boolean {
    return this.db.open;
  }

  close(): void {
    this.checkpointer?.postMessage('close');
    if (this.db.open) this.db.close();
  }
}
