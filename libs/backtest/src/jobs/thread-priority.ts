/**
 * CPU priority and CPU time of one thread (Linux; elsewhere these answer null/false and the pool falls
 * back to wall-clock time at normal priority).
 * - The calling thread's id is the target of /proc/thread-self (proc(5), Linux 3.17+).
 * - `setpriority(PRIO_PROCESS, tid, nice)` (Node's os.setPriority) changes only that thread on Linux:
 *   setpriority(2), BUGS: "under the current Linux/NPTL implementation of POSIX threads, the nice value
 *   is a per-thread attribute: different threads in the same process can have different nice values".
 *   Raising it needs no privilege; lowering it back would (RLIMIT_NICE), so a worker is niced once, for
 *   life. Under CFS a nice-10 thread weighs 110 against a nice-0 thread's 1024 (sched(7), the kernel's
 *   sched_prio_to_weight): the request thread gets about 90 % of a core it shares with a worker.
 * - Its CPU time is fields 14 and 15 (utime, stime) of /proc/<pid>/task/<tid>/stat, in clock ticks
 *   (USER_HZ, 100 on Linux: proc(5), "measured in clock ticks (divide by sysconf(_SC_CLK_TCK))").
 */
import { readFileSync, readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';

const USER_HZ = 100;

export function currentThreadId(): number | null {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    return Number.isInteger(tid) && tid > 0 ? tid : null;
  } catch {
    return null;
  }
}

/** Lowers the calling thread's CPU priority to `nice` (1–19): true when done. */
export function niceCurrentThread(nice: number): boolean {
  const tid = currentThreadId();
  if (tid === null || !(nice > 0)) return false;
  try {
    setPriority(tid, Math.min(19, Math.round(nice)));
    return true;
  } catch {
    return false;
  }
}

/** CPU time (user + system) thread `tid` of this process has used, in ms; null when it cannot be read. */
export function threadCpuMs(tid: number): number | null {
  try {
    const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' '); // after "pid (comm) ": field 3 is fields[0]
    const ticks = Number(fields[11]) + Number(fields[12]); // utime (14), stime (15)
    return Number.isFinite(ticks) ? (ticks * 1000) / USER_HZ : null;
  } catch {
    return null;
  }
}
