import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gcraReserve } from './rate-limit.port';
import { rateLimitContract } from './rate-limit.contract';
import { SqliteRateLimitStore } from './sqlite.rate-limit';
import { MongoRateLimitStore } from './mongo.rate-limit';

describe('GCRA reservation (pure)', () => {
  it('a burst of capacity, then one per interval', () => {
    let tat = 0;
    const waits: number[] = [];
    for (let i = 0; i < 5; i++) {
      const r = gcraReserve(tat, 1000, 3, 10);
      tat = r.tat;
      waits.push(r.waitMs);
    }
    expect(waits).toEqual([0, 0, 0, 100, 200]);
    expect(gcraReserve(tat, 1000 + 10_000, 3, 10).waitMs).toBe(0); // refilled after a pause
  });
});

describe('shared rate limit, SQLite (two runners on one host open the same file)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gr-rl-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  rateLimitContract(async () => [new SqliteRateLimitStore(join(dir, 'limits.sqlite')), new SqliteRateLimitStore(join(dir, 'limits.sqlite'))]);
});

const url = process.env.MONGO_URL;
(url ? describe : describe.skip)(`shared rate limit, MongoDB (${url ? url : 'skipped: MONGO_URL not set'})`, () => {
  const db = `gridrocket_rl_${Date.now()}`;
  rateLimitContract(async () => [await new MongoRateLimitStore(url!, db).connect(), await new MongoRateLimitStore(url!, db).connect()]);
});
