import { Global, Module } from '@nestjs/common';
import { createHash, createHmac } from 'node:crypto';
import { updateDoc } from '@gridrocket/identity';
import { ValidationError, statusError } from '@gridrocket/shared';
import { AppRequest, BODY_TOO_DEEP, IDEMPOTENCY_HANDLER, IDEMPOTENCY_HEADER, IdempotencyHandler, MAX_BODY_DEPTH, nestedDeeperThan } from '@gridrocket/shared/http';
import { READ_STORE, type ReadStore } from '@gridrocket/read-store';
import { KEYRING_TOKEN, type Keyring } from '@gridrocket/shared/runtime';

export const IDEMPOTENCY_COLLECTION = 'idempotency_keys';
const KEY = /^[\x21-\x7e]{1,200}$/;
/** How long a key is remembered. */
const KEEP_MS = 24 * 3600_000;
/** A claim older than this belongs to a request that died: a retry may take it over. */
const STALE_MS = 60_000;

export class IdempotencyMismatchError extends statusError(422, 'IdempotencyMismatchError', 'This Idempotency-Key was already used with a different request; use a new key for a new request') {}
export class IdempotencyInProgressError extends statusError(409, 'IdempotencyInProgressError', 'A request with this Idempotency-Key is still being processed; retry in a moment') {}

interface IdempotencyDoc {
  id: string;
  fingerprint: string;
  state: 'pending' | 'done';
  at: number;
  body?: unknown;
}

/** JSON with sorted keys, so two equal bodies give one fingerprint. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value as object)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** A UUID (version 4 layout) derived from a digest. */
function uuidFrom(digest: Buffer): string {
  const h = Buffer.from(digest.subarray(0, 16));
  h[6] = (h[6] & 0x0f) | 0x40;
  h[8] = (h[8] & 0x3f) | 0x80;
  const x = h.toString('hex');
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20)}`;
}

/**
 * `Idempotency-Key` on the creates of bots and API keys, whose handlers run their work through it
 * (`idempotently`). Per user and route, a key is remembered 24 h in the read store (so
 * replicas share it):
 * - first use: the request runs; its answer is stored;
 * - same key, same request (method, route, body, query): the stored answer, nothing runs again;
 * - same key, different request: 422; same key while the first is still running: 409.
 * The created resource's id is derived from the user and key (idempotentIdOf), so a retry after a crash
 * between the write and the stored answer finds the same resource instead of making a second one.
 */
export class IdempotencyService implements IdempotencyHandler {
  private ready: Promise<void> | null = null;

  constructor(
    private readonly store: ReadStore,
    private readonly idKey: Buffer,
  ) {}

  async run<T>(req: AppRequest & { idempotentId?: string }, route: string, work: () => Promise<T>): Promise<T> {
    const key = req.header(IDEMPOTENCY_HEADER);
    if (key === undefined || !req.user) return work();
    if (!KEY.test(key)) {
      throw new ValidationError([{ field: 'Idempotency-Key', message: 'Idempotency-Key must be 1 to 200 visible ASCII characters' }]);
    }
    // canonical() recurses: the app refuses deeper bodies before routing (bodyDepthLimit); so does this, whoever calls it
    if (nestedDeeperThan(req.body, MAX_BODY_DEPTH)) throw new ValidationError([{ field: 'body', message: BODY_TOO_DEEP }], BODY_TOO_DEEP);
    const scope = `${req.user.uid}|${route}|${key}`;
    const id = createHash('sha256').update(scope).digest('hex');
    const fingerprint = createHash('sha256').update(canonical({ method: req.method, body: req.body ?? null, query: req.query ?? {} })).digest('hex');
    req.idempotentId = uuidFrom(createHmac('sha256', this.idKey).update(scope).digest());

    const stored = await this.claim(id, fingerprint);
    if (stored) {
      req.res?.setHeader('Idempotent-Replayed', 'true');
      return stored.body as T;
    }
    let body: T;
    try {
      body = await work();
    } catch (err) {
      await this.release(id);
      throw err;
    }
    await this.finish(id, fingerprint, body);
    return body;
  }

  private init(): Promise<void> {
    this.ready ??= this.store.ensureCollection(IDEMPOTENCY_COLLECTION);
    return this.ready;
  }

  /** Claims the key (null: go ahead) or returns the stored answer; throws on a mismatch or a running twin. */
  private async claim(id: string, fingerprint: string): Promise<IdempotencyDoc | null> {
    await this.init();
    const outcome = await updateDoc<IdempotencyDoc, IdempotencyDoc | null | 'mismatch' | 'running'>(this.store, IDEMPOTENCY_COLLECTION, id, (doc) => {
      const now = Date.now();
      const live = doc && now - doc.at < KEEP_MS ? doc : null;
      if (live && live.fingerprint !== fingerprint) return { next: undefined, result: 'mismatch' };
      if (live?.state === 'done') return { next: undefined, result: live };
      if (live?.state === 'pending' && now - live.at < STALE_MS) return { next: undefined, result: 'running' };
      return { next: { id, fingerprint, state: 'pending', at: now }, result: null };
    });
    if (outcome === 'mismatch') throw new IdempotencyMismatchError();
    if (outcome === 'running') throw new IdempotencyInProgressError();
    return outcome;
  }

  private async finish(id: string, fingerprint: string, body: unknown): Promise<void> {
    await updateDoc<IdempotencyDoc, void>(this.store, IDEMPOTENCY_COLLECTION, id, () => ({
      next: { id, fingerprint, state: 'done', at: Date.now(), body: body ?? null },
      result: undefined,
    }));
  }

  /** The request failed: forget the claim, so a retry runs it again. */
  private async release(id: string): Promise<void> {
    await updateDoc<IdempotencyDoc, void>(this.store, IDEMPOTENCY_COLLECTION, id, (doc) => ({ next: doc?.state === 'pending' ? null : undefined, result: undefined }));
  }
}

/** Provides the app's IdempotencyService to the create handlers (IDEMPOTENCY_HANDLER). */
@Global()
@Module({
  providers: [
    {
      provide: IDEMPOTENCY_HANDLER,
      inject: [READ_STORE, KEYRING_TOKEN],
      useFactory: (store: ReadStore, keyring: Keyring) => new IdempotencyService(store, keyring.deriveKey('idempotency')),
    },
  ],
  exports: [IDEMPOTENCY_HANDLER],
})
export class IdempotencyModule {}
