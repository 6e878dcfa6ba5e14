/** What the backtest API suites (test/backtest-api.spec.ts, test/backtest-jobs.spec.ts) do again and again. */
import { until } from '@gridrocket/shared/testing/until';
import { Client } from './http-client';

/** A new session on the app at `url`, signed up as `email`. */
export async function signedUpClient(url: string, email: string): Promise<Client> {
  const c = new Client(url);
  await c.signUp(email);
  return c;
}

/** The backtest `id` as `c` reads it, once `settled` holds for it (by default: no longer running). */
export function backtestOnce(c: Client, id: string, what: string, settled: (doc: any) => boolean = (doc) => doc.status !== 'running', timeoutMs?: number) {
  return until(
    what,
    async () => {
      const r = await c.get(`/api/backtests/${id}`);
      return settled(r.body) && r.body;
    },
    timeoutMs,
  );
}

/** The backtest of `body` posted to `path` (answered 202), as `c` reads it once it no longer runs. */
export async function backtestDone(c: Client, path: string, body: object, what: string, timeoutMs: number) {
  const res = await c.post(path, body);
  expect(res.status).toBe(202);
  return backtestOnce(c, res.body.id, what, undefined, timeoutMs);
}
