import type { RecordedEvent } from '@gridrocket/event-store';
import type { Projection } from '@gridrocket/read-store';
import { BotStatus, LiveBot, evolveBot, initialBotState } from './domain/bot.decider';
import { emptyLedger } from './domain/bot-trading';
import { BotEvent } from './domain/bot.events';
import { BotSummary, BotView, botSummary, toBotView } from './domain/bot.view';

/**
 * The stored document: the folded state, plus the fields the list is queried and
 * ordered by. The lowercase view is derived from the state when it is read.
 */
export interface BotDoc {
  id: string;
  userid: string;
  createdat: string;
  updatedat: string;
  /** The lifecycle status, at the top so it can be counted and queried. */
  status: BotStatus;
  /** The bot's folded state without its trading ledger; `profit` is the lifetime profit. */
  s: BotSummary;
}

export const BOT_LIST_COLLECTION = 'bots';

export const botListProjection: Projection<BotDoc> = {
  name: 'bot-list',
  collection: BOT_LIST_COLLECTION,
  indexes: ['userid'],
  filter: { streamPrefixes: ['bot-'] },
  docId: (event: RecordedEvent) => event.streamId.slice('bot-'.length),
  // one document per bot stream: a rebuild may fold half the bots on a worker thread
  source: { module: __filename, exportName: 'botListProjection' },
  reduce(doc, event) {
    // The projection needs no ledger (it decides nothing): each event folds into an empty one.
    const before = doc ? ({ ...doc.s, kind: 'live', version: doc.s.version ?? 0, run: doc.s.run ?? -1, trading: emptyLedger() } as LiveBot) : initialBotState;
    const after = evolveBot(before, { type: event.type, data: event.data } as BotEvent);
    if (after.kind === 'absent') return undefined;
    if (after.kind === 'deleted') return null;
    // no change (but the version) is no change: compared in place, without building JSON (issue 16)
    if (doc && sameData(before, after, IGNORED)) return undefined;
    const s = botSummary(after);
    const at = event.metadata.occurredAt;
    return { id: after.botId, userid: after.userId, createdat: doc?.createdat ?? at, updatedat: at, status: after.status, s };
  },
  reduceInPlace: lifecycleInPlace,
};

/**
 * A rebuild's fold of the lifecycle events (most of a long log) into the document in place: exactly what
 * `reduce` gives (bot-list.in-place.spec.ts proves it over random histories), without copying the bot's
 * state four times per event (issue 16). Other events, and documents of another shape, are left to `reduce`.
 */
function lifecycleInPlace(doc: BotDoc, event: RecordedEvent): boolean {
  const s = doc.s as BotSummary & { [k: string]: unknown };
  // the keys reduce would keep in place (a key it would add goes last: left to reduce)
  if (s.kind !== 'live' || typeof s.version !== 'number' || typeof s.run !== 'number' || doc.createdat == null) return false;
  if (!('status' in s && 'pid' in s && 'lastError' in s && 'cancelAllOrders' in s && 'closePosition' in s)) return false;
  if (!('updatedat' in doc && 'status' in doc) || doc.id !== s.botId || doc.userid !== s.userId) return false;
  const d = event.data as { pid?: number; reason?: string; cancelAllOrders?: boolean; closePosition?: boolean; ordersLeftOpen?: number; thenStart?: boolean };
  // orders left open (issue 29): set by a stop or failure, cleared by the next: left to reduce (rare)
  if (d.ordersLeftOpen !== undefined || s.ordersLeftOpen !== undefined) return false;
  // a stop that sells the position for a start (issue 40): set by its request, cleared by its end: left to reduce (rare)
  if (d.thenStart !== undefined || s.startAfterStop !== undefined) return false;
  let { status, pid, lastError, run, cancelAllOrders, closePosition } = s;
  switch (event.type) {
    case 'BotStartRequested':
      status = 'starting';
      lastError = null;
      run = s.version;
      break;
    case 'BotStarted':
      status = 'running';
      pid = d.pid as number;
      break;
    case 'BotResumed':
      pid = d.pid as number;
      break;
    case 'BotStartFailed':
    case 'BotFailed':
      status = 'stopped';
      pid = -1;
      lastError = d.reason as string;
      break;
    case 'BotStopRequested':
      status = 'stopping';
      cancelAllOrders = d.cancelAllOrders as boolean;
      closePosition = d.closePosition === true;
      break;
    case 'BotStopped':
      status = 'stopped';
      pid = -1;
      break;
    default:
      return false;
  }
  // no change (but the version) is no change, as reduce decides it
  if (same(s.status, status) && same(s.pid, pid) && same(s.lastError, lastError) && same(s.run, run) && same(s.cancelAllOrders, cancelAllOrders) && same(s.closePosition, closePosition)) return true;
  s.status = status;
  s.pid = pid;
  s.lastError = lastError;
  s.run = run;
  s.cancelAllOrders = cancelAllOrders;
  s.closePosition = closePosition;
  s.version += 1;
  doc.updatedat = event.metadata.occurredAt;
  doc.status = status;
  return true;
}

/** What sameData answers for a field of two objects (a field whose value is undefined is not there). */
function same(a: unknown, b: unknown): boolean {
  return a === undefined || b === undefined ? a === b : sameData(a, b);
}

const IGNORED = new Set(['trading', 'version']);

/** A value as JSON writes it: undefined (and functions) are left out of objects, non-finite numbers become null. */
function jsonValue(v: unknown): unknown {
  if (typeof v === 'number' && !Number.isFinite(v)) return null;
  return v;
}

/**
 * Whether two plain data values have the same JSON, their objects' keys (other than `ignored` at the
 * top) and values compared in place: what `JSON.stringify(a) === JSON.stringify(b)` answers for the
 * folded states here, whose objects that have the same keys have them in the same order (each is a
 * spread of the one before).
 */
export function sameData(a: unknown, b: unknown, ignored?: ReadonlySet<string>): boolean {
  a = jsonValue(a);
  b = jsonValue(b);
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameData(a[i] === undefined ? null : a[i], b[i] === undefined ? null : b[i])) return false;
    return true;
  }
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  let inX = 0;
  for (const k in x) {
    const v = x[k];
    if (v === undefined || typeof v === 'function' || ignored?.has(k)) continue;
    inX++;
    if (!sameData(v, y[k])) return false;
  }
  let inY = 0;
  for (const k in y) {
    const v = y[k];
    if (v === undefined || typeof v === 'function' || ignored?.has(k)) continue;
    inY++;
  }
  return inX === inY;
}

export function publicBot(doc: BotDoc): BotView {
  return toBotView(doc.s);
}
