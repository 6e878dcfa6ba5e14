import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { spotBot } from '../test/support/http-client';
import { LightClient } from './light-client';
import { statusPush } from './bench-support';
import { spawnServer, stop } from '../test/support/server-process';
import { Figure, percentile, round } from './stats';


/**
 * create + start + stop + delete over HTTP on the embedded stack, by `workers`
 * concurrent users, each waiting for the pushes as the dashboard does.
 */
export async function httpCommands(cycles: number, workers: number, options: { floor?: boolean } = {}): Promise<Figure[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'gr-bench-'));
  // The server runs as its own process (as `npm start` does), so the load generator does not share its core.
  // BENCH_TARGET points the load at a server that is already running (e.g. one being profiled).
  // `floor`: the same load on bare Express + socket.io with no work behind it (floor-server.ts).
  const server = options.floor
    ? await spawnServer(dataDir, {}, { main: join(__dirname, 'floor-server.js') })
    : process.env.BENCH_TARGET
      ? null
      : await spawnServer(dataDir, { LOG_LEVEL: 'error', WEB_DIST: join(dataDir, 'none') });
  const app = { url: process.env.BENCH_TARGET ?? server!.url };
  try {
    const users = await Promise.all(
      Array.from({ length: workers }, async (_, i) => {
        const c = new LightClient(app.url);
        await c.signUp(`bench${i}-${randomUUID().slice(0, 8)}@example.com`);
        // a bot starts only with an API key for its exchange (the paper exchange is the key's sandbox)
        await c.send('POST', '/api/api-credentials', { access: { exchange: 'Binance', apiKey: `bench-key-${i}`, keySecret: 'bench-secret-0123456789', passPhrase: '', userId: (await c.send('GET', '/api/auth/me')).body.uid } });
        return { c, socket: await c.socket() };
      }),
    );
    const latencies: number[] = [];
    const pushes: number[] = [];
    let next = 0;
    const serverCpu0 = server ? processCpuSeconds(server.proc.pid) : null;
    const clientCpu0 = process.cpuUsage();
    const started = performance.now();
    await Promise.all(
      users.map(async ({ c, socket }) => {
        while (next < cycles) {
          next++;
          const t0 = performance.now();
          const created = await c.send('POST', '/api/bots', spotBot);
          const t1 = performance.now();
          const id = created.body.id;
          const running = statusPush(socket, id, true);
          const t2 = performance.now();
          await c.send('GET', `/api/startBot?id=${id}`);
          const t3 = performance.now();
          pushes.push((await running) - t2);
          const stopped = statusPush(socket, id, false);
          const t4 = performance.now();
          await c.send('GET', `/api/stopBot?id=${id}&cancelAllOrders=true`);
          const t5 = performance.now();
          pushes.push((await stopped) - t4);
          const t6 = performance.now();
          const del = await c.send('DELETE', `/api/bots/${id}`);
          const t7 = performance.now();
          if (del.status !== 204) throw new Error(`delete ${del.status}`);
          latencies.push(t1 - t0, t3 - t2, t5 - t4, t7 - t6);
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    const serverCpu = server && serverCpu0 !== null ? processCpuSeconds(server.proc.pid)! - serverCpu0 : null;
    const clientCpu = process.cpuUsage(clientCpu0);
    const who = (workers === 1 ? '1 user' : `${workers} users at once`) + (options.floor ? ', FLOOR (bare Express + socket.io, no work)' : '');
    const aimed = workers === 32 && !options.floor;
    users.forEach((u) => {
      u.socket.close();
      u.c.close();
    });
    return [
      { name: `HTTP commands create/start/stop/delete, ${who}`, value: round(latencies.length / seconds, 0), unit: 'commands/s', aim: aimed ? '≥ 2000' : undefined },
      { name: `HTTP command latency p50, ${who}`, value: round(percentile(latencies, 50), 2), unit: 'ms' },
      { name: `HTTP command latency p99, ${who}`, value: round(percentile(latencies, 99), 2), unit: 'ms' },
      { name: `push latency start/stop request → bot:status p50, ${who}`, value: round(percentile(pushes, 50), 2), unit: 'ms' },
      { name: `push latency start/stop request → bot:status p99, ${who}`, value: round(percentile(pushes, 99), 2), unit: 'ms', aim: aimed ? '≤ 25' : undefined },
      // Where the time goes (same run): CPU per command of the server process (every thread) and of the
      // load generator. On 2 cores, N commands/s need (server + generator) × N ≤ 2 CPU-seconds per second.
      ...(serverCpu === null
        ? []
        : [{ name: `server CPU per command (all threads), ${who}`, value: round((1000 * serverCpu) / latencies.length, 3), unit: 'ms' }]),
      { name: `load generator CPU per command, ${who}`, value: round((clientCpu.user + clientCpu.system) / 1000 / latencies.length, 3), unit: 'ms' },
    ];
  } finally {
    if (server) await stop(server.proc);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** CPU seconds (user + system, every thread) a process has used, from /proc (Linux); null elsewhere. */
function processCpuSeconds(pid: number | undefined): number | null {
  try {
    // fields after the command's closing parenthesis: state is the 3rd field, utime the 14th, stime the 15th
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return null;
  }
}
/** USER_HZ: 100 on every Linux this runs on (sysconf(_SC_CLK_TCK)). */
const CLOCK_TICKS = 100;

export async function lifecycleBench(options: { cycles: number; workers: number }): Promise<Figure[]> {
  // one user alone (what a trader feels), then many at once (what the server sustains)
  const alone = await httpCommands(Math.min(300, options.cycles), 1);
  const eight = options.workers > 8 ? await httpCommands(Math.min(1000, options.cycles), 8) : [];
  const loaded = await httpCommands(options.cycles, options.workers);
  // the same load with nothing behind it, in the same run: what HTTP, socket.io and the load generator
  // cost by themselves on this machine; everything the product costs above it is its own work
  const floor = await httpCommands(options.cycles, options.workers, { floor: true });
  return [...alone, ...eight, ...loaded, ...floor, ...againstFloor(loaded, floor, options.workers)];
}

/**
 * The product's figures under load as a share of the floor's, from the same run. The host's speed moves
 * both alike (BENCHMARKS.md, issue 16: the same code's floor measured 8,776 commands/s on one day and about
 * 5,300 two days later), so these say what the product itself costs, whatever the day's machine.
 */
function againstFloor(product: Figure[], floor: Figure[], workers: number): Figure[] {
  const pick = (figures: Figure[], start: string) => figures.find((f) => f.name.startsWith(start))?.value;
  const rate = [pick(product, 'HTTP commands'), pick(floor, 'HTTP commands')];
  const push = [pick(product, 'push latency start/stop request → bot:status p99'), pick(floor, 'push latency start/stop request → bot:status p99')];
  const out: Figure[] = [];
  if (rate[0] !== undefined && rate[1]) out.push({ name: `commands/s, ${workers} users, as a share of the floor's (same run)`, value: round((100 * rate[0]) / rate[1], 1), unit: '%' });
  if (push[0] !== undefined && push[1]) out.push({ name: `push p99, ${workers} users, over the floor's push p99 (same run)`, value: round(push[0] / push[1], 2), unit: '×' });
  return out;
}
