import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname } from 'node:path';

/**
 * One process runs a paper exchange's folder (issue 41): the paper venue matches orders in memory and
 * checkpoints to its SQLite file, so a second process on the same file (a `npm run start:runner` beside the
 * API in paper mode) would match the same orders twice and die on a unique-constraint error mid-trade. The
 * second one is refused at start with what to do instead. The lock is a file beside the store naming the
 * process; a lock whose process is gone (killed, crashed: kill -9 leaves it) is taken over.
 */
export class PaperExchangeInUseError extends Error {
  constructor(readonly file: string, readonly holder: { pid: number; host: string }) {
    super(
      `The paper exchange in ${dirname(file)} is in use by process ${holder.pid} on ${holder.host} (the API runs the paper ` +
        `exchange and its bots itself). A second process on it would match the same orders twice: in paper mode run ` +
        `one process (npm start); separate runners (npm run start:runner) need EXCHANGE_MODE=live or testnet, or their own DATA_DIR.`,
    );
    this.name = 'PaperExchangeInUseError';
  }
}

function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
  try {
    // a killed process not yet reaped (a zombie) is gone
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return true;
  }
}

/** Takes the lock `file` for this process (again, if it holds it already); a live other holder → PaperExchangeInUseError. Returns its release. */
export function lockPaperExchange(file: string): () => void {
  mkdirSync(dirname(file), { recursive: true });
  const me = { pid: process.pid, host: hostname() };
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(file, 'wx');
      writeSync(fd, JSON.stringify(me));
      closeSync(fd);
      return () => {
        try {
          const held = JSON.parse(readFileSync(file, 'utf8'));
          if (held.pid === me.pid && held.host === me.host) rmSync(file, { force: true });
        } catch {
          /* gone already */
        }
      };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    let holder: { pid: number; host: string } | null = null;
    try {
      holder = JSON.parse(readFileSync(file, 'utf8'));
    } catch {
      holder = null; // half-written or removed meanwhile: try again
    }
    if (holder && holder.host === me.host && holder.pid === me.pid) return () => rmSync(file, { force: true });
    if (holder && (holder.host !== me.host || running(holder.pid))) throw new PaperExchangeInUseError(file, holder);
    rmSync(file, { force: true }); // its process is gone
  }
  throw new Error(`could not take the paper exchange's lock ${file}`);
}
