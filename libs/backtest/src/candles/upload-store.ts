/**
 * The request thread's side of the upload store (issue 28): uploaded CSVs are parsed as they stream in,
 * and written, read for a backtest and deleted, in one worker thread of their own
 * (`upload-store.worker.ts`, its own SQLite connection, niced). Before, each 8 MB upload held the
 * request thread about 1.3 s in steps, and other users' commands waited behind every step.
 * The worker is started when first needed; if it stops, what was in flight fails and the next call
 * starts a new one.
 */
import { Worker } from 'node:worker_threads';
import { seriesOver, type CandleSeries } from '../domain/candle';
import { workerEntry } from '../jobs/worker-entry';

export interface UploadSummary {
  candlesId: string;
  candles: number;
  /** The first candle's time and the last's, ms. */
  from: number;
  to: number;
  /** The file's name, as the uploader gave it (`?name=`), or null. */
  name: string | null;
}

/** A user's upload quota (UPLOAD_MAX_FILES, UPLOAD_MAX_BYTES). */
export interface UploadLimits {
  maxFiles: number;
  maxBytes: number;
}

export type UploadStoreRequest =
  | { op: 'begin'; req: number; userId: string; name: string | null }
  | { op: 'chunk'; req: number; chunk: Uint8Array }
  | { op: 'end'; req: number; bytes: number; limits: UploadLimits }
  | { op: 'abort'; req: number }
  | { op: 'read'; req: number; userId: string; candlesId: string }
  | { op: 'remove'; req: number; userId: string; candlesId: string }
  | { op: 'close'; req: number };

/** Why the worker refused: a bad CSV line (`csv`), the quota (`quota`, with the limit passed), or else. */
export interface UploadFailure {
  kind: 'csv' | 'quota' | 'error';
  message: string;
  problem?: 'uploads' | 'uploadBytes';
}
export class UploadStoreError extends Error {
  constructor(readonly failure: UploadFailure) {
    super(failure.message);
  }
}

type Answer = { req: number; ok: true; value: unknown } | { req: number; ok: false; failure: UploadFailure };

/** One upload on its way in: `push` its chunks as they arrive, then `end`. */
export interface UploadSession {
  /** Set once the worker refused it (a bad line): stop reading the body. */
  readonly failed: boolean;
  push(chunk: Buffer): void;
  end(bytes: number, limits: UploadLimits): Promise<UploadSummary>;
  abort(): void;
}

export class UploadStore {
  private worker: Worker | null = null;
  private readonly pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  private seq = 0;
  private readonly entry = workerEntry(__dirname, __filename, 'upload-store.worker');

  constructor(
    private readonly path: string,
    private readonly nice = 10,
  ) {}

  begin(userId: string, name: string | null = null): UploadSession {
    const req = ++this.seq;
    let failed = false;
    const result = this.expect(req).catch((err: Error) => {
      failed = true;
      throw err;
    });
    result.catch(() => undefined); // read by `end`; a refusal before it must not be an unhandled rejection
    this.post({ op: 'begin', req, userId, name });
    return {
      get failed() {
        return failed;
      },
      push: (chunk) => {
        const copy = new Uint8Array(chunk); // its own buffer (a socket's chunk can be a slice of a pooled one), moved, not copied again
        this.post({ op: 'chunk', req, chunk: copy }, [copy.buffer]);
      },
      end: (bytes, limits) => {
        this.post({ op: 'end', req, bytes, limits });
        return result as Promise<UploadSummary>;
      },
      abort: () => {
        this.pending.delete(req);
        this.post({ op: 'abort', req });
      },
    };
  }

  /** The upload's candles (shared columns), or null when it is not the user's or is gone. */
  async read(userId: string, candlesId: string): Promise<CandleSeries | null> {
    const value = (await this.call({ op: 'read', userId, candlesId })) as { buffer: SharedArrayBuffer; length: number } | null;
    return value ? seriesOver(value.buffer, value.length) : null;
  }

  /** Deletes the user's upload (its room in the quota at once, its rows in steps): false when unknown or another user's. */
  async remove(userId: string, candlesId: string): Promise<boolean> {
    return (await this.call({ op: 'remove', userId, candlesId })) as boolean;
  }

  async close(): Promise<void> {
    const worker = this.worker;
    if (!worker) return;
    await Promise.race([this.call({ op: 'close' }).catch(() => undefined), new Promise((r) => setTimeout(r, 2000))]);
    this.worker = null;
    await worker.terminate();
  }

  private call(message: { op: 'read' | 'remove' | 'close' } & Record<string, unknown>): Promise<unknown> {
    const req = ++this.seq;
    const p = this.expect(req);
    this.post({ ...message, req } as UploadStoreRequest);
    return p;
  }

  private expect(req: number): Promise<unknown> {
    return new Promise((resolve, reject) => this.pending.set(req, { resolve, reject }));
  }

  private post(message: UploadStoreRequest, transfer: ArrayBuffer[] = []): void {
    this.spawned().postMessage(message, transfer);
  }

  private spawned(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(this.entry.file, { execArgv: this.entry.execArgv, workerData: { path: this.path, nice: this.nice } });
    worker.unref();
    this.worker = worker;
    worker.on('message', (m: Answer) => {
      const waiting = this.pending.get(m.req);
      if (!waiting) return;
      this.pending.delete(m.req);
      if (m.ok) waiting.resolve(m.value);
      else waiting.reject(new UploadStoreError(m.failure));
    });
    const lost = (why: string) => {
      if (this.worker !== worker) return;
      this.worker = null;
      const error = new UploadStoreError({ kind: 'error', message: `The candle store worker stopped (${why}); send the upload again` });
      for (const w of this.pending.values()) w.reject(error);
      this.pending.clear();
    };
    worker.on('error', (err) => lost(err.message));
    worker.on('exit', (code) => lost(`exit code ${code}`));
    return worker;
  }
}
