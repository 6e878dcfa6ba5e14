#!/usr/bin/env node
// @ts-check
/**
 * npm run kafka:start   starts one Kafka broker in the background (127.0.0.1:19092, or KAFKA_PORT),
 *                       fetching its jars with Maven the first time; prints KAFKA_BROKERS=...
 * npm run kafka:stop    stops it cleanly (SIGTERM, then SIGKILL after 30 s) and deletes its folder
 * npm run kafka:status  says whether it runs
 *
 * Then `KAFKA_BROKERS=127.0.0.1:19092 npm test` runs the Kafka suites against it (npm test also
 * starts a broker of its own when KAFKA_BROKERS is unset and Java is here: test/support/kafka-global-setup.js).
 */
const { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');
const net = require('node:net');
const { KafkaBroker, brokerAvailability, freePort, kafkaVersion, ROOT } = require('./broker');

/** True when nothing listens on 127.0.0.1:port. */
function portFree(port) {
  return new Promise((res) => {
    const s = net.createServer();
    s.once('error', () => res(false));
    s.listen(port, '127.0.0.1', () => s.close(() => res(true)));
  });
}

const STATE = join(ROOT, '.kafka', 'broker.json');

function saved() {
  if (!existsSync(STATE)) return null;
  try {
    return KafkaBroker.fromJSON(JSON.parse(readFileSync(STATE, 'utf8')));
  } catch {
    return null;
  }
}

async function main(command) {
  if (command === 'start') {
    const existing = saved();
    if (existing && existing.running) {
      await existing.probe(5_000);
      console.log(`Kafka ${kafkaVersion()} already runs (pid ${existing.pid})`);
      console.log(`KAFKA_BROKERS=${existing.brokers.join(',')}`);
      return;
    }
    const available = brokerAvailability();
    if (!available.ok) throw new Error(`cannot start a Kafka broker here: ${available.reason}`);
    // 127.0.0.1:19092 (and 19093 for the controller) unless KAFKA_PORT says otherwise; when either
    // is taken (another checkout's broker), two free ports
    let port = Number(process.env.KAFKA_PORT || 19092);
    let controllerPort = Number(process.env.KAFKA_CONTROLLER_PORT || port + 1);
    if (!(await portFree(port)) || !(await portFree(controllerPort))) {
      if (process.env.KAFKA_PORT) throw new Error(`port ${port} or ${controllerPort} is taken`);
      port = await freePort();
      controllerPort = await freePort();
    }
    const broker = new KafkaBroker({ dir: join(ROOT, '.kafka', 'run'), port, controllerPort });
    rmSync(broker.dir, { recursive: true, force: true });
    const t0 = Date.now();
    await broker.start({ detached: true });
    mkdirSync(join(ROOT, '.kafka'), { recursive: true });
    writeFileSync(STATE, JSON.stringify(broker.toJSON(), null, 2));
    console.log(`Kafka ${kafkaVersion()} started in ${((Date.now() - t0) / 1000).toFixed(1)} s (pid ${broker.pid}, log ${broker.logFile})`);
    console.log(`KAFKA_BROKERS=${broker.brokers.join(',')}`);
    return;
  }
  if (command === 'stop') {
    const existing = saved();
    if (!existing || !existing.running) {
      console.log('no Kafka broker of ours runs');
    } else {
      const pid = existing.pid;
      await existing.stop();
      console.log(`Kafka stopped (pid ${pid})`);
    }
    if (existing) rmSync(existing.dir, { recursive: true, force: true });
    rmSync(STATE, { force: true });
    return;
  }
  if (command === 'status') {
    const existing = saved();
    if (existing && existing.running) console.log(`Kafka runs: pid ${existing.pid}, KAFKA_BROKERS=${existing.brokers.join(',')}`);
    else {
      console.log('no Kafka broker of ours runs');
      process.exitCode = 1;
    }
    return;
  }
  throw new Error('usage: node scripts/kafka/cli.js start|stop|status');
}

main(process.argv[2]).then(
  () => process.exit(),
  (err) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  },
);
