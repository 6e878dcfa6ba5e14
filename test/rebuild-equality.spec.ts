/**
 * Issue 16: the projection rebuild folds documents in memory and swaps fresh tables in; what it builds
 * must be exactly what incremental projection builds from the same log (documents, tombstones, the
 * revisions they reflect, their order, the checkpoints), with every projection the app registers and
 * every event type they handle, deletes and edits included; and a rebuild that fails leaves the read
 * model that was served as it was.
 */
import Database from 'better-sqlite3';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { NewEvent, SqliteEventStore } from '@gridrocket/event-store';
import { CollectionCommit, Projection, Projector, ReadStore, SqliteReadStore } from '@gridrocket/read-store';
import { startTestApp } from './support/test-app';

jest.setTimeout(120_000);

/** The compiled build of a projection a worker can load (its `source`), as `npm run projections:rebuild` runs it; the others as they are. */
function builtOf(p: Projection): Projection {
  if (!p.source) return p;
  const compiled = join(__dirname, '..', 'dist', relative(join(__dirname, '..'), p.source.module).replace(/\.ts$/, '.js'));
  return (require(compiled) as Record<string, Projection>)[p.source.exportName];
}

type E = { type: string; data: Record<string, unknown> };

/** A mixed log: bots (every lifecycle and trading event), users, sessions, tokens, credentials, backtests, and streams no projection reads. */
function mixedLog(): { stream: string; events: E[] }[] {
  const out: { stream: string; events: E[] }[] = [];
  const config = { exchange: 'Binance', symbol: 'BTCUSDT', numOfOrders: 5, orderSize: 0.01, interval: 1, entryPrice: 60000, takeProfit: 1, leverage: 1 };
  for (let b = 0; b < 12; b++) {
    const botId = randomUUID();
    const futures = b % 3 === 0;
    const order = (run: number, n: number) => ({ botId, run, clientOrderId: `c${run}-${n}`, exchangeOrderId: `x${n}`, side: 'buy', price: 59000 - n, amount: 0.01, cycle: 1, reduceOnly: false, at: 1000 + n });
    const fill = (run: number, n: number) => ({ botId, run, fillId: `f${run}-${n}`, clientOrderId: `c${run}-${n}`, side: 'buy', price: 59000 - n, amount: 0.01, fee: 0.01, at: 2000 + n });
    const events: E[] = [
      { type: 'BotCreated', data: { botId, userId: `u${b % 4}`, botType: futures ? 'Futures' : 'Spot', ...config, leverage: futures ? 3 : 1, ...(b % 2 ? { spacing: 'percent', stopLossPercent: 5 } : {}) } },
      { type: 'BotEdited', data: { botId, exchange: 'Binance', numOfOrders: 3, orderSize: 0.02, interval: 2, entryPrice: 59000, takeProfit: 2, leverage: futures ? 2 : 1, ...(b % 2 ? { stopLossPercent: null } : {}) } },
      // an edit that changes nothing: no change of the document
      { type: 'BotEdited', data: { botId, exchange: 'Binance', numOfOrders: 3, orderSize: 0.02, interval: 2, entryPrice: 59000, takeProfit: 2, leverage: futures ? 2 : 1 } },
      { type: 'BotStartRequested', data: { botId } },
    ];
    if (b % 4 === 1) events.push({ type: 'BotStartFailed', data: { botId, reason: 'no key' } }, { type: 'BotStartRequested', data: { botId } });
    const run = events.length - 1;
    events.push(
      { type: 'BotStarted', data: { botId, pid: 100 + b } },
      { type: 'BotResumed', data: { botId, pid: 200 + b } },
      { type: 'BotResumed', data: { botId, pid: 200 + b } }, // the same pid: no change
      // a signed signal taken, what it did, and refusals (issue 32): no projection reads them, the bot list folds past them
      { type: 'SignalReceived', data: { botId, signalId: `s-${b}`, action: 'start', auth: 'signature', signedAt: 1400, at: 1401 } },
      { type: 'SignalHandled', data: { botId, signalId: `s-${b}`, action: 'start', outcome: 'unchanged', status: 202, reason: null } },
      { type: 'SignalRefused', data: { botId, reason: 'replay', status: 409, message: 'replayed', signalId: `s-${b}`, suppressed: b, at: 1402 } },
      { type: 'BotCheckRequested', data: { botId, at: 1500 + b } }, // "Check now" (issue 29)
      { type: 'BotChecked', data: { botId, requestedAt: 1500 + b, found: b % 2, at: 1600 + b } },
      { type: 'OrderPlaced', data: { ...order(run, 1), role: 'buy', level: 1 } },
      { type: 'OrderPlaced', data: { ...order(run, 2), role: 'buy', level: 2 } },
      { type: 'OrderFilled', data: { ...fill(run, 1), level: 1, late: false } },
      { type: 'TakeProfitPlaced', data: { ...order(run, 3), side: 'sell', role: 'take-profit', tpSeq: 1 } },
      { type: 'TakeProfitFilled', data: { ...fill(run, 3), side: 'sell', tpSeq: 1, profit: 0.5 } },
      { type: 'ProfitRealized', data: { botId, amount: 0.5, totalProfit: 0.5, cycle: 1, run } },
      { type: 'CycleCompleted', data: { botId, run, cycle: 1, profit: 0.5, nextCycle: 2 } },
      { type: 'GridReanchored', data: { botId, run, from: 59000, to: 58000, cycle: 2 } },
      { type: 'StopLossStarted', data: { botId, run, cycle: 2, price: 57000, level: 1 } },
      { type: 'StopLossTriggered', data: { ...fill(run, 2), side: 'sell', loss: 0.2, level: 1 } },
      { type: 'OrderCancelled', data: { botId, run, clientOrderId: `c${run}-2`, filled: 0, at: 3000 } },
    );
    if (b % 4 === 2) events.push({ type: 'BotFailed', data: { botId, reason: 'venue down' } });
    else events.push({ type: 'BotStopRequested', data: { botId, cancelAllOrders: b % 2 === 0, ...(futures ? { closePosition: true } : {}) } }, { type: 'BotStopped', data: { botId, pid: -1 } });
    if (b % 3 === 2) events.push({ type: 'BotDeleted', data: { botId } });
    out.push({ stream: `bot-${botId}`, events });
    // its signal webhook's settings (issue 32): a stream no projection reads
    if (b % 2 === 0) {
      const secret = { botId, userId: `u${b % 4}`, sealedSecret: 'v1.x.y.z', secretLast4: 'abcd', allowBodySecret: b % 4 === 0 };
      out.push({ stream: `signal-webhook-${botId}`, events: [{ type: 'SignalWebhookEnabled', data: { ...secret, generation: 1 } }, { type: 'SignalWebhookRotated', data: { ...secret, generation: 2 } }, { type: 'SignalWebhookDisabled', data: { botId, userId: `u${b % 4}` } }] });
    }
  }
  for (let u = 0; u < 4; u++) {
    const uid = randomUUID();
    const s1 = randomUUID();
    const s2 = randomUUID();
    out.push({
      stream: `user-${uid}`,
      events: [
        { type: 'UserRegistered', data: { uid, email: `u${u}@example.com`, displayName: `User ${u}`, photoURL: null, passwordHash: 'x' } },
        { type: 'EmailVerificationRequested', data: { tokenDigest: `v-${uid}`, expiresAt: '2030-01-01T00:00:00.000Z' } },
        { type: 'EmailVerified', data: {} },
        { type: 'UserSignedIn', data: { sessionId: s1, expiresAt: '2030-01-01T00:00:00.000Z', method: 'password' } },
        { type: 'ProfileUpdated', data: { displayName: `Renamed ${u}`, photoURL: 'https://example.com/p.png' } },
        { type: 'UserSignedIn', data: { sessionId: s2, expiresAt: '2030-01-02T00:00:00.000Z', method: 'password' } },
        { type: 'UserSignedOut', data: { sessionId: s1 } },
        { type: 'PasswordResetRequested', data: { tokenDigest: `r-${uid}`, expiresAt: '2030-01-01T00:00:00.000Z' } },
        // issue 31: personal access tokens, one kept and one revoked (a delete)
        { type: 'AccessTokenCreated', data: { tokenId: `t1-${uid}`, digest: `d1-${uid}`, name: 'script', scopes: ['read', 'trade'], expiresAt: '2030-01-01T00:00:00.000Z' } },
        { type: 'AccessTokenCreated', data: { tokenId: `t2-${uid}`, digest: `d2-${uid}`, name: 'old script', scopes: ['read'], expiresAt: '2030-01-01T00:00:00.000Z' } },
        { type: 'AccessTokenRevoked', data: { tokenId: `t2-${uid}`, digest: `d2-${uid}`, reason: 'revoked' } },
      ],
    });
    const credentialId = randomUUID();
    out.push({
      stream: `credential-${credentialId}`,
      events: [
        { type: 'CredentialAdded', data: { credentialId, userId: uid, exchange: 'Binance', apiKeyId: `key-${u}`, sealedSecret: 's', sealedPassphrase: null, keyId: 'k1' } },
        // issue 30: the venue's answers, a good one and a failed daily one (which keeps the facts)
        { type: 'CredentialPermissionsChecked', data: { credentialId, checkedAt: '2025-01-01T00:00:00.000Z', source: 'add', permissions: { withdraw: false, read: true, spot: true, futures: u % 3 === 0, ipRestricted: u % 2 === 0 }, failure: null } },
        ...(u % 3 ? [{ type: 'CredentialPermissionsChecked', data: { credentialId, checkedAt: '2025-01-02T00:00:00.000Z', source: 'daily', permissions: null, failure: 'refused' } }] : []),
        ...(u % 2 ? [{ type: 'CredentialRemoved', data: { credentialId, keyId: 'k1' } }] : []),
      ],
    });
    const backtestId = randomUUID();
    const request = { symbol: 'BTCUSDT', from: '2025-01-01', to: '2025-02-01' };
    out.push({
      stream: `backtest-${backtestId}`,
      events: [
        { type: 'BacktestRequested', data: { backtestId, userId: uid, kind: 'single', request } },
        u % 2
          ? { type: 'BacktestCompleted', data: { backtestId, terms: { fee: 0.001 }, candles: 100, result: { profit: 1.5, trades: 3 } } }
          : { type: 'BacktestFailed', data: { backtestId, reason: 'no candles' } },
      ],
    });
    out.push({ stream: `runner-${u}`, events: [{ type: 'RunnerClaimed', data: { owner: 'x' } }] });
    // issue 32: bot templates, two saved and one of them deleted (a delete)
    const settings = { botType: 'Spot', exchange: 'Binance', symbol: 'BTCUSDT', numOfOrders: 5, orderSize: 0.01, interval: 2.5, entryPrice: 60000, takeProfit: 1, leverage: 1, spacing: 'percent' };
    out.push({
      stream: `templates-${uid}`,
      events: [
        { type: 'BotTemplateSaved', data: { templateId: randomUUID(), name: 'wide', settings, fromBotId: randomUUID() } },
        { type: 'BotTemplateSaved', data: { templateId: `tpl-${uid}`, name: 'narrow', settings: { ...settings, spacing: undefined, interval: 100 } } },
        { type: 'BotTemplateDeleted', data: { templateId: `tpl-${uid}` } },
      ],
    });
    // an alert delivery of each status the log shows (issue 29)
    const status = (['delivered', 'failed', 'rate-limited', 'refused'] as const)[u];
    const deliveryId = `${randomUUID()}:webhook`;
    out.push({
      stream: `alert-delivery-${randomUUID().replace(/-/g, '')}`,
      events: [
        {
          type: 'AlertDeliveryRecorded',
          data: { deliveryId, userId: uid, channel: 'webhook', kind: 'cycle', eventType: 'CycleCompleted', botId: randomUUID(), symbol: 'BTCUSDT', title: 'Cycle', status, code: status === 'delivered' ? 200 : null, attempts: 1, error: status === 'failed' ? 'HTTP 500' : null, at: '2025-01-01T00:00:00.000Z' },
        },
      ],
    });
  }
  return out;
}

/** Appends the streams interleaved, a few events at a time (as a live system writes them). */
async function append(store: SqliteEventStore, log: { stream: string; events: E[] }[]): Promise<void> {
  const cursors = log.map(() => 0);
  let t = Date.parse('2025-01-01T00:00:00.000Z');
  for (let round = 0; cursors.some((c, i) => c < log[i].events.length); round++) {
    for (const [i, { stream, events }] of log.entries()) {
      if (cursors[i] >= events.length) continue;
      const n = 1 + ((round + i) % 3);
      const slice = events.slice(cursors[i], cursors[i] + n);
      const batch: NewEvent[] = slice.map((e) => ({
        id: randomUUID(),
        type: e.type,
        data: e.data,
        metadata: { userId: 'u', correlationId: randomUUID(), causationId: null, occurredAt: new Date((t += 1000)).toISOString(), schemaVersion: 1 },
      }));
      await store.append(stream, batch, cursors[i] === 0 ? 'no_stream' : BigInt(cursors[i] - 1));
      cursors[i] += slice.length;
    }
  }
}

/** Every row of every collection (tombstones and revisions included, in table order) and the checkpoints. */
function dump(file: string, projections: readonly Projection<any>[]) {
  const db = new Database(file, { readonly: true });
  try {
    const tables = Object.fromEntries(projections.map((p) => [p.collection, db.prepare(`SELECT id, rev, deleted, doc FROM "c_${p.collection}" ORDER BY rowid`).all()]));
    const checkpoints = db.prepare('SELECT name, position FROM checkpoints ORDER BY name').all();
    const leftovers = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'r\\_%' ESCAPE '\\'").all();
    return { tables, checkpoints, leftovers };
  } finally {
    db.close();
  }
}

describe('projection rebuild equals incremental projection', () => {
  let projections: Projection<any>[];
  let dir: string;
  let events: SqliteEventStore;

  beforeAll(async () => {
    // the projections exactly as the app registers them
    const app = await startTestApp();
    try {
      projections = [...app.app.get(Projector).registered];
    } finally {
      await app.close();
    }
    dir = mkdtempSync(join(tmpdir(), 'gr-rebuild-eq-'));
    events = new SqliteEventStore(join(dir, 'events.sqlite'), 5);
    await append(events, mixedLog());
    await incremental(join(dir, 'live.sqlite'));
  });

  afterAll(async () => {
    await events?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  async function incremental(file: string, from = events): Promise<void> {
    const reads = new SqliteReadStore(file);
    const projector = new Projector(from, reads, [...projections]);
    await projector.start();
    expect(await projector.waitFor(await from.headPosition(), 30_000)).toBe(true);
    await projector.stop();
    await reads.close();
  }

  it('with every projection the app registers and every event type they handle, in one window or in many small ones', async () => {
    expect(projections.map((p) => p.name).sort()).toEqual(['access-tokens', 'alert-deliveries', 'audit-bots', 'backtest-list', 'bot-list', 'bot-money', 'bot-templates', 'credential-list', 'sessions', 'user-tokens', 'users']);
    const live = dump(join(dir, 'live.sqlite'), projections);
    // the log reached every projection, with deletes (tombstones) in the collections that have them
    for (const p of projections) expect({ collection: p.collection, docs: live.tables[p.collection].length > 0 }).toEqual({ collection: p.collection, docs: true });
    for (const c of ['bots', 'sessions', 'credentials', 'bot_templates']) expect(live.tables[c].some((r: any) => r.deleted === 1)).toBe(true);

    for (const window of [undefined, { events: 7, docs: 5 }]) {
      const file = join(dir, `rebuilt-${window ? 'small' : 'default'}.sqlite`);
      const reads = new SqliteReadStore(file);
      const count = await new Projector(events, reads, [...projections]).rebuild(undefined, window);
      await reads.close();
      expect(count).toBeGreaterThan(0);
      expect(dump(file, projections)).toEqual(live);
    }
  });

  it('with the bot list folded on worker threads (the compiled build, as `npm run projections:rebuild` runs it)', async () => {
    // worker threads load compiled JavaScript: this runs the build of these sources (npm test builds it first)
    const dist = join(__dirname, '..', 'dist', 'libs');
    if (!existsSync(join(dist, 'read-store', 'src', 'rebuild-fold.js'))) throw new Error('Build first: npm run build:server (npm test does)');
    const built = require(join(dist, 'read-store', 'src', 'projector.js')) as typeof import('@gridrocket/read-store');
    const onThreads = projections.map(builtOf);
    for (const name of ['bot-list', 'bot-money']) expect(onThreads.find((p) => p.name === name)!.source!.module).toMatch(/\.js$/);
    const live = dump(join(dir, 'live.sqlite'), projections);
    const oneThread = new SqliteReadStore(join(dir, 'one-thread.sqlite'));
    const folded = await new Projector(events, oneThread, [...projections]).rebuild();
    await oneThread.close();
    // small windows: documents written out and read back; or held, written out early and again when they change
    const windows = [{ events: 7, docs: 5, threads: 2 }, { events: 7, docs: 5, threads: 3 }, { events: 7, docs: 10_000, threads: 2, early: 3 }, { events: 7, docs: 20, threads: 2, early: 2 }];
    for (const window of windows) {
      const file = join(dir, `rebuilt-threads-${window.threads}-${window.docs}-${window.early ?? 0}.sqlite`);
      const reads = new SqliteReadStore(file);
      const progress: bigint[] = [];
      const count = await new built.Projector(events, reads, onThreads).rebuild((done) => progress.push(done), window);
      await reads.close();
      expect(count).toBe(folded); // every event counted once
      expect(progress[progress.length - 1]).toBe(await events.headPosition());
      expect(dump(file, projections)).toEqual(live);
    }
  });

  it('with documents written out early on the worker threads: streams that end (written once) and streams that go on (written again)', async () => {
    const dist = join(__dirname, '..', 'dist', 'libs');
    if (!existsSync(join(dist, 'read-store', 'src', 'rebuild-fold.js'))) throw new Error('Build first: npm run build:server (npm test does)');
    const built = require(join(dist, 'read-store', 'src', 'projector.js')) as typeof import('@gridrocket/read-store');
    const onThreads = projections.map(builtOf);
    // each stream appended whole, one after another (bots created, run, stopped and left), then a mixed log interleaved
    const store = new SqliteEventStore(join(dir, 'whole-streams.sqlite'), 5);
    try {
      let t = Date.parse('2025-02-01T00:00:00.000Z');
      const again = () => mixedLog().filter((s) => !s.stream.startsWith('runner-')); // the runner streams' names are fixed
      for (const { stream, events: es } of [...mixedLog(), ...again()]) {
        const batch: NewEvent[] = es.map((e) => ({
          id: randomUUID(),
          type: e.type,
          data: e.data,
          metadata: { userId: 'u', correlationId: randomUUID(), causationId: null, occurredAt: new Date((t += 1000)).toISOString(), schemaVersion: 1 },
        }));
        await store.append(stream, batch, 'no_stream');
      }
      await append(store, again());
      await incremental(join(dir, 'whole-live.sqlite'), store);
      const live = dump(join(dir, 'whole-live.sqlite'), projections);
      const file = join(dir, 'whole-rebuilt.sqlite');
      const reads = new SqliteReadStore(file);
      // the writes the rebuild makes: more than one per thread when documents are written out early
      let writes = 0;
      const begin = reads.beginRebuild.bind(reads);
      reads.beginRebuild = async (collections) => {
        const session = await begin(collections);
        return { ...session, write: (w, upTo) => (writes++, session.write(w, upTo)) };
      };
      await new built.Projector(store, reads, onThreads).rebuild(undefined, { events: 5, docs: 10_000, threads: 2, early: 2 });
      await reads.close();
      expect(writes).toBeGreaterThan(3);
      expect(dump(file, projections)).toEqual(live);
    } finally {
      await store.close();
    }
  });

  it('answers a caller waiting for a position once the rebuild has reached it (the rebuild CLI waited 57 s for a backtest resume to time out)', async () => {
    const reads = new SqliteReadStore(join(dir, 'waited.sqlite'));
    const projector = new Projector(events, reads, [...projections]);
    const waited = projector.waitFor(await events.headPosition(), 60_000);
    await projector.rebuild();
    const answer = await Promise.race([waited, new Promise<string>((resolve) => setTimeout(() => resolve('still waiting'), 2_000))]);
    await reads.close();
    expect(answer).toBe(true);
  });

  it('over a read model already served: replaced in whole, leftovers of a crashed rebuild dropped', async () => {
    const file = join(dir, 'served.sqlite');
    await incremental(file);
    const live = dump(file, projections);
    // a stale document and a leftover fresh table of a rebuild that was killed
    const db = new Database(file);
    db.prepare(`INSERT INTO c_bots (id, rev, deleted, doc) VALUES ('stale', 99, 0, '{"id":"stale"}')`).run();
    db.exec(`CREATE TABLE r_bots (id TEXT PRIMARY KEY, rev INTEGER NOT NULL, deleted INTEGER NOT NULL DEFAULT 0, doc TEXT); INSERT INTO r_bots VALUES ('junk', 1, 0, '{}')`);
    db.close();
    const reads = new SqliteReadStore(file);
    await new Projector(events, reads, [...projections]).rebuild();
    // served afterwards through the same store: queries by indexed fields work on the swapped tables
    const someBot = JSON.parse((live.tables.bots as { doc: string | null }[]).find((r) => r.doc)!.doc!);
    expect((await reads.find<{ id: string }>('bots', { userid: someBot.userid })).map((d) => d.id)).toContain(someBot.id);
    await reads.close();
    expect(dump(file, projections)).toEqual(live);
  });

  it('in place, on a store without fresh copies (as on Mongo): emptied, then documents and checkpoints written together', async () => {
    const file = join(dir, 'in-place.sqlite');
    await incremental(file);
    const live = dump(file, projections);
    const reads = new SqliteReadStore(file);
    const withoutCopies: ReadStore = Object.assign(Object.create(reads) as ReadStore, { beginRebuild: undefined });
    const checkpoints: bigint[] = [];
    const commitMany = reads.commitMany.bind(reads);
    withoutCopies.commitMany = async (commits: CollectionCommit[]) => {
      checkpoints.push(commits[0].checkpoint.position);
      return commitMany(commits);
    };
    await new Projector(events, withoutCopies, [...projections]).rebuild(undefined, { events: 7, docs: 5 });
    await reads.close();
    expect(checkpoints.length).toBeGreaterThan(2); // written a window at a time, checkpoints moving with the documents
    expect(dump(file, projections)).toEqual(live);
  });

  it('a rebuild that fails halfway leaves the read model and the checkpoints that were served', async () => {
    const file = join(dir, 'failing.sqlite');
    await incremental(file);
    const before = dump(file, projections);
    let seen = 0;
    const failing = projections.map((p) =>
      p.name === 'bot-list'
        ? {
            ...p,
            reduce: (doc: any, event: any) => {
              if (++seen === 40) throw new Error('disk full');
              return p.reduce(doc, event);
            },
          }
        : p,
    );
    const reads = new SqliteReadStore(file);
    await expect(new Projector(events, reads, failing).rebuild(undefined, { events: 7, docs: 5 })).rejects.toThrow('disk full');
    await reads.close();
    expect(seen).toBe(40);
    expect(dump(file, projections)).toEqual(before);
  });
});
