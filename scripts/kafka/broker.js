// @ts-check
/**
 * A real Apache Kafka broker for the tests and CI: the jars of the version pinned in
 * scripts/kafka/pom.xml, fetched with Maven (strict checksums, cached in ~/.m2 and in .kafka/),
 * one node that is both broker and controller (KRaft), listening on 127.0.0.1 only, in a folder
 * of its own. No Docker.
 *
 *   const broker = await KafkaBroker.start();      // format, spawn, wait until Admin answers
 *   broker.brokers                                  // ['127.0.0.1:<port>']
 *   await broker.stop();  await broker.start();      // a clean stop, and a restart on the same log
 *   broker.kill('SIGKILL')                           // a crash
 *
 * `npm run kafka:start` / `kafka:stop` (scripts/kafka/cli.js) keep one such broker running in the
 * background for `npm test` and CI; tests that restart the broker (the forwarder's outage, the
 * runners' scale-out) start their own.
 *
 * How it is set up comes from Kafka's own KRaft quick start (config/server.properties of the
 * distribution: process.roles=broker,controller, a CONTROLLER listener, controller.quorum.voters)
 * and from spring-kafka's EmbeddedKafkaKraftBroker (group.initial.rebalance.delay.ms=0, offsets
 * topic replication 1 on one node).
 */
const { spawn, spawnSync } = require('node:child_process');
const { existsSync, mkdirSync, mkdtempSync, openSync, closeSync, readFileSync, rmSync, writeFileSync } = require('node:fs');
const net = require('node:net');
const { tmpdir } = require('node:os');
const { join, resolve } = require('node:path');

const ROOT = resolve(__dirname, '../..');
const POM = join(__dirname, 'pom.xml');
const LOG4J = join(__dirname, 'log4j2.properties');
/** Any base64 UUID: the log folder is formatted for this cluster and a restart finds it again. */
const CLUSTER_ID = 'R3JpZFJvY2tldFRlc3RzAA';

/** The Kafka version the pom pins (the one place it is written). */
function kafkaVersion() {
  const m = /<kafka\.version>([^<]+)<\/kafka\.version>/.exec(readFileSync(POM, 'utf8'));
  if (!m) throw new Error(`no <kafka.version> in ${POM}`);
  return m[1];
}

/** Where the jars go: .kafka/lib-<version> in the repository (git-ignored), or KAFKA_LIB_DIR. */
function libDir(env = process.env) {
  return env.KAFKA_LIB_DIR || join(ROOT, '.kafka', `lib-${kafkaVersion()}`);
}

function javaBin(env = process.env) {
  if (env.KAFKA_JAVA) return env.KAFKA_JAVA;
  if (env.JAVA_HOME && existsSync(join(env.JAVA_HOME, 'bin', 'java'))) return join(env.JAVA_HOME, 'bin', 'java');
  return 'java';
}

/**
 * Whether a broker can run here: Java 17 or newer (Kafka 4 brokers need 17) and either the jars
 * already fetched or Maven to fetch them. `{ ok: true }` or `{ ok: false, reason }`.
 */
function brokerAvailability(env = process.env) {
  const java = spawnSync(javaBin(env), ['-version'], { encoding: 'utf8' });
  if (java.error || java.status !== 0) return { ok: false, reason: 'Java is not installed (a Kafka 4 broker needs Java 17 or newer)' };
  const m = /version "(\d+)(?:\.(\d+))?/.exec(java.stderr || java.stdout || '');
  const major = m ? (m[1] === '1' ? Number(m[2]) : Number(m[1])) : 0;
  if (major < 17) return { ok: false, reason: `Java ${major || '?'} found; a Kafka 4 broker needs Java 17 or newer` };
  if (jarsComplete(libDir(env))) return { ok: true };
  const mvn = spawnSync('mvn', ['-v'], { encoding: 'utf8' });
  if (mvn.error || mvn.status !== 0) return { ok: false, reason: 'Maven is not installed (it fetches the Kafka broker jars)' };
  return { ok: true };
}

/** Fetches the broker's jars once (Maven checks each file's checksum: -C fails on a mismatch). */
/** What the jars folder was fetched for: the version and the pom's dependencies (a new one fetches again). */
function jarsStamp() {
  return `${kafkaVersion()} ${require('node:crypto').createHash('sha256').update(readFileSync(POM)).digest('hex').slice(0, 16)}\n`;
}

function jarsComplete(dir) {
  try {
    return readFileSync(join(dir, '.complete'), 'utf8') === jarsStamp();
  } catch {
    return false;
  }
}

function ensureJars(env = process.env) {
  const dir = libDir(env);
  if (jarsComplete(dir)) return dir;
  mkdirSync(dir, { recursive: true });
  const r = spawnSync(
    'mvn',
    ['-q', '-B', '-C', '-f', POM, 'dependency:copy-dependencies', `-DoutputDirectory=${dir}`, '-DincludeScope=runtime'],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
  );
  if (r.status !== 0) throw new Error(`mvn could not fetch the Kafka jars (exit ${r.status}):\n${r.stdout}\n${r.stderr}`);
  writeFileSync(join(dir, '.complete'), jarsStamp());
  return dir;
}

/** A port the OS says is free on 127.0.0.1 now. */
function freePort() {
  return new Promise((res, rej) => {
    const s = net.createServer();
    s.once('error', rej);
    s.listen(0, '127.0.0.1', () => {
      const addr = s.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      s.close(() => res(port));
    });
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function alive(pid) {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  // a killed broker not yet reaped by its parent (a zombie: signal 0 still reaches it) is not running
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return true; // no /proc (not Linux): signal 0 is the answer
  }
}

/**
 * One broker+controller node. Its folder holds server.properties, the log (data/) and broker.log.
 */
class KafkaBroker {
  /**
   * @param {{ dir?: string, port?: number, controllerPort?: number, heapMb?: number, settings?: Record<string, string|number> }} [options]
   */
  constructor(options = {}) {
    this.dir = options.dir || mkdtempSync(join(tmpdir(), 'gridrocket-kafka-'));
    this.port = options.port || 0;
    this.controllerPort = options.controllerPort || 0;
    this.heapMb = options.heapMb || 512;
    this.settings = options.settings || {};
    /** @type {import('node:child_process').ChildProcess | null} */
    this.proc = null;
    /** @type {number | null} */
    this.pid = null;
    this.formatted = false;
  }

  /** Formats (once), spawns and waits until the broker answers. */
  static async start(options = {}) {
    const b = new KafkaBroker(options);
    await b.start();
    return b;
  }

  get brokers() {
    return [`127.0.0.1:${this.port}`];
  }

  get logFile() {
    return join(this.dir, 'broker.log');
  }

  writeConfig() {
    const props = {
      'process.roles': 'broker,controller',
      'node.id': 1,
      'controller.quorum.voters': `1@127.0.0.1:${this.controllerPort}`,
      listeners: `PLAINTEXT://127.0.0.1:${this.port},CONTROLLER://127.0.0.1:${this.controllerPort}`,
      'advertised.listeners': `PLAINTEXT://127.0.0.1:${this.port}`,
      'controller.listener.names': 'CONTROLLER',
      'inter.broker.listener.name': 'PLAINTEXT',
      'listener.security.protocol.map': 'PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT',
      'log.dirs': join(this.dir, 'data'),
      'num.partitions': 1,
      'auto.create.topics.enable': false,
      'delete.topic.enable': true,
      // one node: every internal topic has one replica
      'offsets.topic.replication.factor': 1,
      'offsets.topic.num.partitions': 5,
      'transaction.state.log.replication.factor': 1,
      'transaction.state.log.min.isr': 1,
      'share.coordinator.state.topic.replication.factor': 1,
      'share.coordinator.state.topic.min.isr': 1,
      // groups form at once (the default waits 3 s for more members)
      'group.initial.rebalance.delay.ms': 0,
      // tests use short sessions (the runners' ownership group: 6-10 s)
      'group.min.session.timeout.ms': 1000,
      ...this.settings,
    };
    writeFileSync(
      join(this.dir, 'server.properties'),
      Object.entries(props)
        .map(([k, v]) => `${k}=${v}`)
        .join('\n') + '\n',
    );
  }

  javaArgs(mainClass, args, log4j = LOG4J) {
    const lib = ensureJars();
    return [
      `-Xms${Math.min(256, this.heapMb)}m`,
      `-Xmx${this.heapMb}m`,
      '-XX:+UseG1GC',
      '-XX:MaxGCPauseMillis=20',
      '-Djava.awt.headless=true',
      `-Dlog4j2.configurationFile=${log4j}`,
      '-cp',
      `${lib}/*`,
      mainClass,
      ...args,
    ];
  }

  format() {
    const r = spawnSync(
      javaBin(),
      this.javaArgs('kafka.tools.StorageTool', ['format', '-t', CLUSTER_ID, '-c', join(this.dir, 'server.properties'), '--ignore-formatted']),
      { encoding: 'utf8' },
    );
    if (r.status !== 0) throw new Error(`kafka-storage format failed (exit ${r.status}):\n${r.stdout}\n${r.stderr}`);
    this.formatted = true;
  }

  /**
   * Spawns the broker (formatting its folder the first time) and resolves once Admin answers with
   * a live broker. The same ports and log folder on every start: a restart keeps the topics.
   * `detached`: the broker outlives this process (npm run kafka:start).
   */
  async start({ detached = false, timeoutMs = 90_000 } = {}) {
    if (this.pid && alive(this.pid)) throw new Error('the broker is already running');
    if (!this.port) this.port = await freePort();
    if (!this.controllerPort) this.controllerPort = await freePort();
    mkdirSync(this.dir, { recursive: true });
    this.writeConfig();
    if (!this.formatted) this.format();
    const out = openSync(this.logFile, 'a');
    const proc = spawn(javaBin(), this.javaArgs('kafka.Kafka', [join(this.dir, 'server.properties')]), {
      stdio: ['ignore', out, out],
      detached: true, // its own process group: stop() and kill() reach the JVM, not npm
    });
    closeSync(out);
    this.proc = proc;
    this.pid = proc.pid ?? null;
    if (detached) proc.unref();
    let exited = null;
    proc.once('exit', (code, signal) => {
      exited = { code, signal };
      if (this.proc === proc) this.proc = null;
    });
    const deadline = Date.now() + timeoutMs;
    let lastError = null;
    while (Date.now() < deadline) {
      if (exited) throw new Error(`the Kafka broker exited (${JSON.stringify(exited)}) before it answered; its log: ${this.logFile}\n${this.tail()}`);
      try {
        await this.probe(3_000);
        return this;
      } catch (err) {
        lastError = err;
        await sleep(250);
      }
    }
    this.kill('SIGKILL');
    throw new Error(`the Kafka broker did not answer within ${timeoutMs} ms (${lastError && lastError.message}); its log: ${this.logFile}\n${this.tail()}`);
  }

  /** Ready means Admin's metadata names this broker (not a line in the log). */
  async probe(timeoutMs = 3_000) {
    const { Kafka, logLevel } = require('kafkajs');
    const kafka = new Kafka({
      clientId: 'gridrocket-broker-probe',
      brokers: this.brokers,
      logLevel: logLevel.NOTHING,
      connectionTimeout: timeoutMs,
      requestTimeout: timeoutMs,
      retry: { retries: 0 },
    });
    const admin = kafka.admin();
    try {
      await admin.connect();
      const cluster = await admin.describeCluster();
      if (!cluster.brokers.length) throw new Error('no broker in the metadata yet');
    } finally {
      await admin.disconnect().catch(() => undefined);
    }
  }

  /** The last lines of the broker's log (for failure messages). */
  tail(lines = 30) {
    try {
      return readFileSync(this.logFile, 'utf8').split('\n').slice(-lines).join('\n');
    } catch {
      return '';
    }
  }

  /** Sends a signal to the broker's process group (SIGKILL: a crash; SIGSTOP/SIGCONT: a hang). */
  kill(signal = 'SIGKILL') {
    if (!this.pid) return;
    try {
      process.kill(-this.pid, signal);
    } catch {
      try {
        process.kill(this.pid, signal);
      } catch {
        /* gone */
      }
    }
  }

  get running() {
    return !!this.pid && alive(this.pid);
  }

  /** A clean stop (SIGTERM: the broker flushes and closes its log), SIGKILL after `timeoutMs`. */
  async stop(timeoutMs = 30_000) {
    const pid = this.pid;
    if (!pid || !alive(pid)) {
      this.pid = null;
      return;
    }
    this.kill('SIGTERM');
    const deadline = Date.now() + timeoutMs;
    while (alive(pid) && Date.now() < deadline) await sleep(100);
    if (alive(pid)) {
      this.kill('SIGKILL');
      while (alive(pid)) await sleep(50);
    }
    // the exit event of a child we spawned (reaps it)
    if (this.proc) await new Promise((r) => (this.proc ? this.proc.once('exit', r) : r(undefined)));
    this.pid = null;
  }

  /** Stops the broker and deletes its folder. */
  async destroy() {
    await this.stop();
    rmSync(this.dir, { recursive: true, force: true });
  }

  /** What cli.js writes to find a background broker again. */
  toJSON() {
    return { pid: this.pid, dir: this.dir, port: this.port, controllerPort: this.controllerPort, brokers: this.brokers };
  }

  static fromJSON(json) {
    const b = new KafkaBroker({ dir: json.dir, port: json.port, controllerPort: json.controllerPort });
    b.pid = json.pid;
    b.formatted = true;
    return b;
  }
}

module.exports = { KafkaBroker, brokerAvailability, ensureJars, javaBinary: javaBin, kafkaVersion, libDir, freePort, ROOT };
