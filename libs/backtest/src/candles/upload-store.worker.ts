/**
 * The upload store's worker thread (issue 28): parses uploaded CSVs as their chunks arrive, writes,
 * reads and deletes uploads in the candle store through its own SQLite connection, so none of it runs
 * on the request thread. Niced like the job pool's workers (`thread-priority.ts`). One message at a
 * time; writes and deletes go 2,000 rows per transaction, yielding between, so chunks of other uploads
 * and other writers of the file are not held up by one large file.
 */
import { randomUUID } from 'node:crypto';
import { StringDecoder } from 'node:string_decoder';
import { parentPort, workerData } from 'node:worker_threads';
import { allocateSeries, bufferOf } from '../domain/candle';
import { niceCurrentThread } from '../jobs/thread-priority';
import { CandleCache } from './candle-cache';
import { CandleCsvParser, CsvCandleError } from './csv.candles';
import { uploadKey, uploadQuotaProblem, type UploadLimits, type UploadSummary } from './upload.candles';
import type { UploadFailure, UploadStoreRequest } from './upload-store';

const { path, nice } = workerData as { path: string; nice: number };
if (nice > 0) niceCurrentThread(nice);
const cache = new CandleCache(path);
/** An upload a crash left half written (no one was given its id) is removed when the store starts. */
const STALE_PENDING_MS = 10 * 60_000;
void (async () => {
  for (const k of cache.stalePending(STALE_PENDING_MS)) await cache.removeInSteps(k);
})().catch(() => undefined);

interface Upload {
  userId: string;
  name: string | null;
  parser: CandleCsvParser;
  decoder: StringDecoder;
  failed: boolean;
}
const uploads = new Map<number, Upload>();

class QuotaProblem extends Error {
  constructor(readonly problem: 'uploads' | 'uploadBytes') {
    super(problem);
  }
}

const answer = (req: number, value: unknown) => parentPort!.postMessage({ req, ok: true, value });
const fail = (req: number, failure: UploadFailure) => parentPort!.postMessage({ req, ok: false, failure });

function failureOf(err: unknown): UploadFailure {
  if (err instanceof CsvCandleError) return { kind: 'csv', message: err.message };
  if (err instanceof QuotaProblem) return { kind: 'quota', message: err.message, problem: err.problem };
  return { kind: 'error', message: (err as Error)?.message ?? String(err) };
}

async function store(up: Upload, bytes: number, limits: UploadLimits): Promise<UploadSummary> {
  up.parser.push(up.decoder.end());
  const candles = up.parser.end();
  let from = Infinity;
  let to = -Infinity;
  for (const c of candles) {
    if (c.time < from) from = c.time;
    if (c.time > to) to = c.time;
  }
  const candlesId = randomUUID();
  // the quota is checked in the write transaction that records the upload (BEGIN IMMEDIATE: no other writer between)
  await cache.storeSizedInSteps(uploadKey(up.userId, candlesId), from, to + 1, candles, bytes, () => {
    const usage = cache.usage('upload', up.userId);
    const problem = uploadQuotaProblem({ files: usage.keys, bytes: usage.bytes }, limits, bytes);
    if (problem) throw new QuotaProblem(problem);
  }, undefined, up.name);
  return { candlesId, candles: candles.length, from, to, name: up.name };
}

/** The upload's candles in time order, as shared columns (the job pool's workers read them without a copy). */
function read(userId: string, candlesId: string): { buffer: SharedArrayBuffer; length: number } | null {
  const k = uploadKey(userId, candlesId);
  const [range] = cache.ranges(k);
  if (!range) return null;
  const series = cache.readSeries(k, range[0], range[1], (n) => allocateSeries(n, true));
  return { buffer: bufferOf(series) as SharedArrayBuffer, length: series.length };
}

parentPort!.on('message', async (m: UploadStoreRequest) => {
  try {
    switch (m.op) {
      case 'begin':
        uploads.set(m.req, { userId: m.userId, name: m.name, parser: new CandleCsvParser(), decoder: new StringDecoder('utf8'), failed: false });
        return;
      case 'chunk': {
        const up = uploads.get(m.req);
        if (!up || up.failed) return;
        try {
          up.parser.push(up.decoder.write(Buffer.from(m.chunk.buffer, m.chunk.byteOffset, m.chunk.byteLength)));
        } catch (err) {
          up.failed = true; // answered now: the request stops reading the body
          fail(m.req, failureOf(err));
        }
        return;
      }
      case 'end': {
        const up = uploads.get(m.req);
        uploads.delete(m.req);
        if (!up) return fail(m.req, { kind: 'error', message: 'The upload was lost (the candle store restarted); send it again' });
        if (up.failed) return;
        return answer(m.req, await store(up, m.bytes, m.limits));
      }
      case 'abort':
        uploads.delete(m.req);
        return;
      case 'read':
        return answer(m.req, read(m.userId, m.candlesId));
      case 'remove':
        return answer(m.req, await cache.removeInSteps(uploadKey(m.userId, m.candlesId)));
      case 'close':
        cache.close();
        return answer(m.req, true);
    }
  } catch (err) {
    fail(m.req, failureOf(err));
  }
});
