import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { AppError, ConflictError, FieldError, ValidationError, UnauthorizedError } from '@gridrocket/shared';
import { SignalAction, SignalAuth, SignalRefusalReason } from './signal.events';

/**
 * The rules of a signal request (issue 32, docs/signals.md), pure: what a request must carry, how its
 * signature is checked, how fresh its timestamp must be. No I/O (HMAC is computation).
 *
 * What TradingView can send decided the second form (source: "How to configure webhook alerts",
 * https://in.tradingview.com/support/solutions/43000529348-how-to-configure-webhook-alerts/): an alert
 * POSTs "the alert message in the body of the request", with `Content-Type: application/json` when the
 * message is valid JSON and `text/plain` otherwise; only ports 80 and 443; a request taking over 3 s is
 * cancelled. No custom header can be set, so no HMAC can be sent (and the message cannot compute one):
 * the message may carry the secret itself, which the owner allows per bot (`allowBodySecret`).
 * `{{timenow}}` is "current fire time of the alert, formatted in the same way as {{time}}", i.e.
 * `yyyy-MM-ddTHH:mm:ssZ` in UTC, "to the nearest second"
 * (https://in.tradingview.com/support/solutions/43000531021-how-to-use-a-variable-value-in-alert/).
 */

/** How far a signal's timestamp may be from the server's clock, either way (seconds). */
export const SIGNAL_WINDOW_SECONDS = 300;
/**
 * How long a taken id is remembered (ms): twice the window. A signal whose id was forgotten is older
 * than the window by then, so its timestamp is refused as stale: each signed signal is taken once.
 */
export const SIGNAL_ID_MEMORY_MS = 2 * SIGNAL_WINDOW_SECONDS * 1000;
/** Refused requests recorded in a bot's history per window; the rest are counted into the next record. */
export const SIGNAL_REFUSALS_PER_WINDOW = 5;
export const SIGNAL_REFUSAL_WINDOW_MS = 60_000;
/**
 * Signals per bot per minute that prove the owner's secret; beyond: 429. Refusals of requests that do
 * not (unsigned, badly signed, malformed) are counted apart, in SIGNAL_JUNK_PER_MINUTE, and never in
 * this: junk cannot make the owner's signals wait (issue 38, break 5).
 */
export const SIGNAL_REQUESTS_PER_MINUTE = 30;
/** Refused (not authentic) requests per bot per minute answered with their reason; beyond: 429, nothing recorded. */
export const SIGNAL_JUNK_PER_MINUTE = 30;
/** The largest body read (bytes): a signal is a few words. */
export const SIGNAL_BODY_LIMIT = 8 * 1024;

export const SIGNATURE_HEADER = 'x-signature';
export const TIMESTAMP_HEADER = 'x-signal-timestamp';
export const ID_HEADER = 'x-signal-id';

/** A signal id: what a sender can put in a header or a JSON string (TradingView's {{timenow}} fits). */
export const SIGNAL_ID = /^[A-Za-z0-9._:@+-]{1,100}$/;
const UNIX_SECONDS = /^\d{1,12}$/;
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?Z$/;
const SIGNATURE = /^sha256=([0-9a-f]{64})$/i;

export const SIGNAL_MESSAGES = {
  action: 'action must be "start" or "stop"',
  id: 'id must be 1 to 100 letters, digits or . _ : @ + - (a new one for each signal)',
  timestamp: 'timestamp must be the time of the signal: Unix seconds, or ISO 8601 in UTC such as TradingView\'s {{timenow}} (2019-08-27T09:56:00Z)',
  secret: 'secret must be the bot\'s signal secret',
  cancelAllOrders: 'cancelAllOrders must be true or false',
  body: 'Send {"action":"start"} or {"action":"stop"} as JSON (or the word start or stop as text)',
  bodyMode: 'Without X-Signature the body must be JSON with action, id, timestamp and secret (docs/signals.md)',
  signatureHeader: 'X-Signature must be sha256=<64 hex digits>: the HMAC-SHA256 of "<X-Signal-Timestamp>.<body>" with the bot\'s signal secret',
  timestampHeader: 'X-Signal-Timestamp must be the time of the signal in Unix seconds',
  idHeader: 'X-Signal-Id must be 1 to 100 letters, digits or . _ : @ + - (a new one for each signal)',
  badSignature: 'The signature does not match: X-Signature must be sha256=<hex HMAC-SHA256 of "<X-Signal-Timestamp>.<body>" with the bot\'s signal secret>',
  badSecret: 'The secret does not match this bot\'s signal secret',
  bodySecretOff: 'This bot takes signed signals only: send X-Signature, or allow the secret in the message on the bot page',
  stale: `The signal's timestamp is more than ${SIGNAL_WINDOW_SECONDS} seconds away from the server's time: send the time of the signal (check the sender's clock)`,
  replay: 'A signal with this id was already taken for this bot: each signal needs an id of its own',
  replaySignature: 'This signed request was already taken for this bot (a copy under another id is the same signal): each signal needs its own id, timestamp and signature',
} as const;

const action = z.preprocess((v) => (typeof v === 'string' ? v.trim().toLowerCase() : v), z.enum(['start', 'stop'], { errorMap: () => ({ message: SIGNAL_MESSAGES.action }) }));

/**
 * The JSON body of a signal (the request schema of POST /api/signals/{botId}). With X-Signature only
 * `action` (and `cancelAllOrders`) is read from it; without, `id`, `timestamp` and `secret` are needed
 * too. Other fields (a TradingView message's {{ticker}}, {{close}} …) are allowed and ignored.
 */
export const signalBodySchema = z.object({
  action,
  id: z.string({ invalid_type_error: SIGNAL_MESSAGES.id }).regex(SIGNAL_ID, SIGNAL_MESSAGES.id).optional(),
  timestamp: z.union([z.number().int().nonnegative(), z.string().max(40)], { errorMap: () => ({ message: SIGNAL_MESSAGES.timestamp }) }).optional(),
  secret: z.string({ invalid_type_error: SIGNAL_MESSAGES.secret }).max(200, SIGNAL_MESSAGES.secret).optional(),
  cancelAllOrders: z.boolean({ invalid_type_error: SIGNAL_MESSAGES.cancelAllOrders }).optional(),
});

/** A refusal: its HTTP status, its reason in the bot's history, and the signal id when it had one. */
export class SignalRefusal extends AppError {
  readonly status: number;
  constructor(
    readonly reason: SignalRefusalReason,
    readonly error: AppError,
    readonly signalId: string | null = null,
  ) {
    super(error.message);
    this.status = error.status;
    this.name = 'SignalRefusal';
  }
  /** The field messages of a 400. */
  get errors(): FieldError[] | undefined {
    return this.error instanceof ValidationError ? this.error.errors : undefined;
  }
}

const malformed = (errors: FieldError[], signalId: string | null = null) => new SignalRefusal('malformed', new ValidationError(errors, 'The signal is malformed'), signalId);

/** What a request says, before it is checked against the secret. */
export interface SignalRequest {
  auth: SignalAuth;
  action: SignalAction;
  cancelAllOrders: boolean;
  signalId: string;
  /** The timestamp as sent (what the signature covers), and in ms. */
  timestampText: string;
  signedAt: number;
  /** signature: the hex digest sent; body-secret: the secret sent. */
  proof: string;
}

export type SignalHeaders = Record<string, string | string[] | undefined>;
const header = (h: SignalHeaders, name: string): string | undefined => {
  const v = h[name];
  return Array.isArray(v) ? v[0] : v;
};

/** Unix seconds or ISO 8601 UTC → ms; null when neither. */
export function parseSignalTime(v: unknown): number | null {
  if (typeof v === 'number') return Number.isInteger(v) && v >= 0 && v < 1e12 ? v * 1000 : null;
  if (typeof v !== 'string') return null;
  const s = v.trim();
  if (UNIX_SECONDS.test(s)) return Number(s) * 1000;
  if (!ISO_UTC.test(s)) return null;
  const ms = Date.parse(s);
  return Number.isFinite(ms) ? ms : null;
}

function parseBody(raw: Buffer, contentType: string | undefined): { value: unknown; json: boolean } {
  const text = raw.toString('utf8');
  const trimmed = text.trim();
  // TradingView sends JSON as application/json and anything else as text/plain; a JSON object is read as
  // JSON whatever the type says (a relay may label it text/plain).
  if (trimmed.startsWith('{') || /json/i.test(contentType ?? '')) {
    try {
      return { value: JSON.parse(trimmed), json: true };
    } catch {
      throw malformed([{ field: 'body', message: 'The body is not valid JSON' }]);
    }
  }
  return { value: trimmed, json: false };
}

function fieldErrors(error: z.ZodError): FieldError[] {
  return error.issues.map((i) => ({ field: i.path.join('.') || 'body', message: i.message }));
}

/**
 * Reads a signal request: headers (lower-case names) and the raw body. Throws a `malformed` refusal
 * (400 with field messages) for what no secret could make valid.
 */
export function readSignalRequest(headers: SignalHeaders, raw: Buffer, contentType?: string): SignalRequest {
  const { value, json } = parseBody(raw, contentType);
  const signature = header(headers, SIGNATURE_HEADER);
  if (signature !== undefined) {
    const errors: FieldError[] = [];
    const m = SIGNATURE.exec(signature.trim());
    if (!m) errors.push({ field: 'X-Signature', message: SIGNAL_MESSAGES.signatureHeader });
    const ts = header(headers, TIMESTAMP_HEADER)?.trim() ?? '';
    if (!UNIX_SECONDS.test(ts)) errors.push({ field: 'X-Signal-Timestamp', message: SIGNAL_MESSAGES.timestampHeader });
    const id = header(headers, ID_HEADER)?.trim() ?? '';
    const idOk = SIGNAL_ID.test(id);
    if (!idOk) errors.push({ field: 'X-Signal-Id', message: SIGNAL_MESSAGES.idHeader });
    let act: SignalAction | null = null;
    let cancelAllOrders = false;
    if (json) {
      const parsed = signalBodySchema.safeParse(value);
      if (!parsed.success) errors.push(...fieldErrors(parsed.error));
      else {
        act = parsed.data.action;
        cancelAllOrders = parsed.data.cancelAllOrders === true;
      }
    } else {
      const word = String(value).toLowerCase();
      if (word === 'start' || word === 'stop') act = word;
      else errors.push({ field: 'body', message: SIGNAL_MESSAGES.body });
    }
    if (errors.length || !m || !act) throw malformed(errors, idOk ? id : null);
    return { auth: 'signature', action: act, cancelAllOrders, signalId: id, timestampText: ts, signedAt: Number(ts) * 1000, proof: m[1].toLowerCase() };
  }
  // No signature header: the TradingView form, everything in the JSON message.
  if (!json || typeof value !== 'object' || value === null || Array.isArray(value)) throw malformed([{ field: 'body', message: SIGNAL_MESSAGES.bodyMode }]);
  const parsed = signalBodySchema.safeParse(value);
  const errors: FieldError[] = parsed.success ? [] : fieldErrors(parsed.error);
  const d = parsed.success ? parsed.data : null;
  if (d && d.id === undefined) errors.push({ field: 'id', message: SIGNAL_MESSAGES.id });
  const signedAt = d ? parseSignalTime(d.timestamp) : null;
  if (d && signedAt === null) errors.push({ field: 'timestamp', message: SIGNAL_MESSAGES.timestamp });
  if (d && !d.secret) errors.push({ field: 'secret', message: SIGNAL_MESSAGES.secret });
  if (errors.length || !d || signedAt === null) throw malformed(errors, d?.id ?? null);
  return { auth: 'body-secret', action: d.action, cancelAllOrders: d.cancelAllOrders === true, signalId: d.id!, timestampText: String(d.timestamp), signedAt, proof: d.secret! };
}

/** The signature a sender computes: hex HMAC-SHA256 of `<timestamp>.<raw body>` with the secret. */
export function signSignal(secret: string, timestamp: string, raw: Buffer | string): string {
  return createHmac('sha256', secret).update(`${timestamp}.`).update(raw).digest('hex');
}

/** Equal, in constant time: compared through their HMACs (equal lengths whatever was sent). */
function same(a: string, b: string): boolean {
  const x = createHmac('sha256', 'gridrocket:signal-compare').update(a).digest();
  const y = createHmac('sha256', 'gridrocket:signal-compare').update(b).digest();
  return timingSafeEqual(x, y);
}

/** Whether the request proves it knows `secret`; a 401 refusal otherwise. */
export function assertAuthentic(req: SignalRequest, raw: Buffer, secret: string, allowBodySecret: boolean): void {
  if (req.auth === 'signature') {
    if (!same(signSignal(secret, req.timestampText, raw), req.proof)) throw new SignalRefusal('bad-signature', new UnauthorizedError(SIGNAL_MESSAGES.badSignature), req.signalId);
    return;
  }
  if (!allowBodySecret) throw new SignalRefusal('bad-signature', new UnauthorizedError(SIGNAL_MESSAGES.bodySecretOff), req.signalId);
  if (!same(req.proof, secret)) throw new SignalRefusal('bad-signature', new UnauthorizedError(SIGNAL_MESSAGES.badSecret), req.signalId);
}

/** The timestamp is within SIGNAL_WINDOW_SECONDS of `now` (either way); a 400 refusal otherwise. */
export function assertFresh(req: SignalRequest, now: number): void {
  if (Math.abs(now - req.signedAt) > SIGNAL_WINDOW_SECONDS * 1000) {
    throw new SignalRefusal('stale', new ValidationError([{ field: req.auth === 'signature' ? 'X-Signal-Timestamp' : 'timestamp', message: SIGNAL_MESSAGES.stale }], SIGNAL_MESSAGES.stale), req.signalId);
  }
}

/** The replay refusal (409), raised by the signal log's decider. */
export const replayRefusal = (signalId: string, sameSignature = false) =>
  new SignalRefusal('replay', new ConflictError(sameSignature ? SIGNAL_MESSAGES.replaySignature : SIGNAL_MESSAGES.replay), signalId);

/** What a signed signal is remembered by (issue 38): the SHA-256 of its signature, never the signature. */
export function signatureDigest(req: SignalRequest): string | undefined {
  return req.auth === 'signature' ? createHash('sha256').update(req.proof.toLowerCase()).digest('hex') : undefined;
}
