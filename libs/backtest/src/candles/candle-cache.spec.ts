import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CandleCache } from './candle-cache';
import { uploadKey } from './upload.candles';

const rows = (n: number) => Array.from({ length: n }, (_, i) => ({ time: 1_700_000_000_000 + i * 60_000, open: 140, high: 141, low: 139, close: 140 }));

describe('CandleCache uploads', () => {
  it('an upload is listed only once all its rows are written; one a crash left half written is found stale and removed', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'candles-')), 'candles.sqlite');
    const cache = new CandleCache(path);
    const k = uploadKey('u1', 'a');
    const candles = rows(100);
    const writing = cache.storeSizedInSteps(k, candles[0].time, candles[99].time + 1, candles, 5_000, undefined, 10, 'a.csv');
    // the first, synchronous step has recorded it (its room in the quota is taken) ...
    expect(cache.usage('upload', 'u1')).toEqual({ keys: 1, bytes: 5_000 });
    // ... but it is not listed while its rows are written
    expect(cache.uploadList('upload', 'u1')).toEqual([]);
    await writing;
    expect(cache.uploadList('upload', 'u1')).toEqual([expect.objectContaining({ symbol: 'a', rows: 100, name: 'a.csv' })]);
    expect(cache.stalePending(0)).toEqual([]);

    // a writer stopped after the first step (kill -9): the upload stays pending, with part of its rows
    const half = uploadKey('u1', 'b');
    const stopped = new CandleCache(path);
    void stopped.storeSizedInSteps(half, candles[0].time, candles[99].time + 1, candles, 5_000, undefined, 10, 'b.csv').catch(() => undefined);
    await new Promise((r) => setImmediate(r));
    await new Promise((r) => setImmediate(r));
    stopped.close(); // its next step fails: as if the process had died
    await new Promise((r) => setTimeout(r, 10));
    expect(cache.uploadList('upload', 'u1').map((u) => u.symbol)).toEqual(['a']);
    expect(cache.stalePending(10 * 60_000)).toEqual([]); // young: maybe another process's upload in progress
    const stale = cache.stalePending(10 * 60_000, Date.now() + 11 * 60_000);
    expect(stale).toEqual([half]);
    for (const s of stale) await cache.removeInSteps(s);
    expect(cache.count(half)).toBe(0);
    expect(cache.usage('upload', 'u1')).toEqual({ keys: 1, bytes: 5_000 });
    cache.close();
  });
});
