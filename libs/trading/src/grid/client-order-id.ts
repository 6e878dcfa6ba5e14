/**
 * Deterministic client order ids: the same (bot, cycle, level, side) always gives the same id, so a
 * runner that restarts can find its orders on the exchange instead of placing them twice.
 *
 *   buy of ladder level L placed in cycle C:      gr-<h>-<C>-b<L>
 *   its k-th replacement (cancelled outside):     gr-<h>-<C>-b<L>r<k>   (k ≥ 1, docs/watchdog.md)
 *   n-th take-profit (re)placement in cycle C:    gr-<h>-<C>-tp<n>
 *   stop-loss market sell of cycle C (risk.ts):   gr-<h>-<C>-sl<n>
 *
 * <h> is an 8-character base-36 hash of the bot id (bot ids are UUIDs, too long for the exchanges).
 * Ids use only [a-z0-9-] and are at most 32 characters (Binance allows 36, Kucoin 40).
 * An id is never re-used for a different order: a level re-armed in a new cycle gets the new cycle's
 * number, and each take-profit replacement gets the next n.
 */

export const CLIENT_ORDER_ID_MAX_LENGTH = 32;
const PREFIX = 'gr';
const ID_PATTERN = /^gr-([0-9a-z]{8})-([1-9]\d*)-(b|tp|sl)(0|[1-9]\d*)(?:r([1-9]\d*))?$/;

/** cyrb53: a fast, well-mixed 53-bit string hash (public domain). */
function cyrb53(text: string, seed = 0): number {
  let h1 = 0xdeadbeef ^ seed;
  let h2 = 0x41c6ce57 ^ seed;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507);
  h1 ^= Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507);
  h2 ^= Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

/** Hashes of the bot ids seen lately: every desired order of every converge asks for one (bounded). */
const hashes = new Map<string, string>();

/** The 8-character base-36 short hash of a bot id (about 41 bits). */
export function botHash(botId: string): string {
  let h = hashes.get(botId);
  if (h === undefined) {
    h = cyrb53(botId).toString(36).padStart(11, '0').slice(-8);
    if (hashes.size >= 100_000) hashes.clear();
    hashes.set(botId, h);
  }
  return h;
}

/** The prefix shared by every client order id of one bot: `gr-<h>-`. */
export function clientOrderIdPrefix(botId: string): string {
  return `${PREFIX}-${botHash(botId)}-`;
}

function checkCounter(name: string, value: number, min: number): void {
  if (!Number.isSafeInteger(value) || value < min) {
    throw new RangeError(`${name} must be a whole number ≥ ${min}, got ${value}`);
  }
}

function finish(id: string): string {
  if (id.length > CLIENT_ORDER_ID_MAX_LENGTH) {
    throw new RangeError(`Client order id ${id} is longer than ${CLIENT_ORDER_ID_MAX_LENGTH} characters`);
  }
  return id;
}

/**
 * Id of the buy at ladder `level` (0-based) placed in `cycle`; `rearm` > 0: its rearm-th replacement,
 * placed after the venue reported the order cancelled outside GridRocket (grid.engine.ts rearmOrder).
 */
export function buyOrderId(botId: string, cycle: number, level: number, rearm = 0): string {
  checkCounter('cycle', cycle, 1);
  checkCounter('level', level, 0);
  checkCounter('re-arm', rearm, 0);
  return finish(`${clientOrderIdPrefix(botId)}${cycle}-b${level}${rearm > 0 ? `r${rearm}` : ''}`);
}

/** Id of the `seq`-th take-profit (from 1) of `cycle`. */
export function takeProfitOrderId(botId: string, cycle: number, seq: number): string {
  checkCounter('cycle', cycle, 1);
  checkCounter('take-profit sequence', seq, 1);
  return finish(`${clientOrderIdPrefix(botId)}${cycle}-tp${seq}`);
}

export type ParsedClientOrderId =
  | { kind: 'buy'; hash: string; cycle: number; level: number; rearm: number }
  | { kind: 'take-profit'; hash: string; cycle: number; seq: number }
  | { kind: 'stop-loss'; hash: string; cycle: number; seq: number };

/** Id of the stop-loss market sell of `cycle` (one per cycle: its fixed id makes it never twice). */
export function stopLossOrderId(botId: string, cycle: number): string {
  checkCounter('cycle', cycle, 1);
  return finish(`${clientOrderIdPrefix(botId)}${cycle}-sl1`);
}

/** Reads a GridRocket client order id; null when the id is not one (e.g. a manual order). */
export function parseClientOrderId(id: string): ParsedClientOrderId | null {
  const m = ID_PATTERN.exec(id);
  if (!m) return null;
  const cycle = Number(m[2]);
  const n = Number(m[4]);
  const rearm = m[5] === undefined ? 0 : Number(m[5]);
  if (!Number.isSafeInteger(cycle) || !Number.isSafeInteger(n) || !Number.isSafeInteger(rearm)) return null;
  if (m[3] === 'b') return { kind: 'buy', hash: m[1], cycle, level: n, rearm };
  if (m[5] !== undefined) return null; // only a buy is re-armed under a suffix (a take-profit takes the next n)
  return m[3] === 'sl' ? { kind: 'stop-loss', hash: m[1], cycle, seq: n } : { kind: 'take-profit', hash: m[1], cycle, seq: n };
}

/** True when `id` is one of this bot's client order ids. */
export function isOwnClientOrderId(botId: string, id: string): boolean {
  const parsed = parseClientOrderId(id);
  return parsed !== null && parsed.hash === botHash(botId);
}
