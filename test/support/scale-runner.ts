import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';

const root = join(__dirname, '../..');

export interface RunnerStatus {
  owned: number[];
  running: string[];
  epochs: Record<string, string>;
  at: number;
}

export interface FencedAppend {
  runner: string;
  streamId: string;
  fence: { streamId: string; revision: string } | null;
  actual: string;
  types: string[];
}

/**
 * A grid runner of the scale-out test in a process of its own (test/support/scale-runner.child.ts),
 * which the test starts, stops cleanly, SIGKILLs, pauses (SIGSTOP) and resumes (SIGCONT). It reads the
 * child's "@@ " lines: its ownership status (every 250 ms) and the appends the event store fenced off.
 */
export class RunnerProcess {
  proc: ChildProcess | null = null;
  status: RunnerStatus | null = null;
  readonly fenced: FencedAppend[] = [];
  /** The last stderr lines of every incarnation (diagnostics). */
  private stderr: string[] = [];
  private kafkaLog: string[] = [];
  starts = 0;
  /** The runner's operators' port (its /health and /metrics), once ready. */
  url: string | null = null;

  constructor(
    readonly name: string,
    private readonly env: Record<string, string>,
  ) {}

  get pid(): number | undefined {
    return this.proc?.pid;
  }

  get alive(): boolean {
    return !!this.proc && this.proc.exitCode === null && this.proc.signalCode === null;
  }

  /** Spawns the runner and resolves once it has started (joined the group or on its way to). */
  start(timeoutMs = 60_000): Promise<void> {
    if (this.alive) throw new Error(`${this.name} is already running`);
    this.status = null;
    this.starts++;
    const child = spawn(process.execPath, ['-r', join(root, 'libs/streaming/src/testing/ts-register.js'), join(root, 'test/support/scale-runner.child.ts')], {
      env: { ...process.env, ...this.env, RUNNER_NAME: this.name },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.proc = child;
    let out = '';
    let resolveReady: () => void = () => undefined;
    const ready = new Promise<void>((r) => (resolveReady = r));
    child.stdout!.on('data', (d) => {
      out += d;
      let nl: number;
      while ((nl = out.indexOf('\n')) >= 0) {
        const line = out.slice(0, nl);
        out = out.slice(nl + 1);
        if (!line.startsWith('@@ ')) continue;
        const [kind, ...rest] = line.slice(3).split(' ');
        const body = rest.join(' ');
        if (kind === 'ready') {
          this.url = rest[1] ?? null;
          resolveReady();
        }
        else if (kind === 'status' && child === this.proc) this.status = { ...JSON.parse(body), at: Date.now() };
        else if (kind === 'fenced') this.fenced.push({ runner: this.name, ...JSON.parse(body) });
      }
    });
    child.stderr!.on('data', (d) => {
      // the runner's own warnings kept apart from kafkajs' (which are many while the broker is away)
      for (const line of String(d).split('\n').filter(Boolean)) (line.startsWith('[kafkajs') ? this.kafkaLog : this.stderr).push(line);
      if (this.stderr.length > 400) this.stderr.splice(0, this.stderr.length - 400);
      if (this.kafkaLog.length > 100) this.kafkaLog.splice(0, this.kafkaLog.length - 100);
    });
    const exited = new Promise<never>((_, reject) =>
      child.once('exit', (code, signal) => reject(new Error(`${this.name} exited (${code ?? signal}) before it was ready:\n${this.tail()}`))),
    );
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${this.name} not ready within ${timeoutMs} ms:\n${this.tail()}`)), timeoutMs);
    });
    return Promise.race([ready, exited, timeout]).finally(() => clearTimeout(timer));
  }

  /** A clean stop: SIGTERM, the runner leaves the group and exits. */
  async stop(timeoutMs = 30_000): Promise<void> {
    const child = this.proc;
    if (!child || !this.alive) return;
    const exited = new Promise<void>((r) => child.once('exit', () => r()));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    await exited;
    clearTimeout(timer);
    this.status = null;
    if (child.exitCode !== 0) throw new Error(`${this.name} did not stop cleanly (${child.exitCode ?? child.signalCode}):\n${this.tail()}`);
  }

  /** A crash. */
  async kill(): Promise<void> {
    const child = this.proc;
    if (!child || !this.alive) return;
    const exited = new Promise<void>((r) => child.once('exit', () => r()));
    child.kill('SIGCONT'); // a paused process dies on SIGKILL anyway; harmless otherwise
    child.kill('SIGKILL');
    await exited;
    this.status = null;
  }

  /** GET on the runner's operators' port: its /health (JSON) or /metrics (text). */
  async get(path: '/health' | '/metrics'): Promise<{ status: number; text: string; json(): any }> {
    const res = await fetch(`${this.url}${path}`);
    const text = await res.text();
    return { status: res.status, text, json: () => JSON.parse(text) };
  }

  pause(): void {
    this.proc?.kill('SIGSTOP');
  }

  resume(): void {
    this.proc?.kill('SIGCONT');
  }

  /** The runner's last stderr lines, then kafkajs' last ones. */
  tail(lines = 40): string {
    return [...this.stderr.slice(-lines), ...this.kafkaLog.slice(-10)].join('\n');
  }
}
