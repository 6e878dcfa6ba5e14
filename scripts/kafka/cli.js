#!/usr/bin/env node
// @ts-check
/**
 * npm run kafka:start   starts one Kafka broker in the background (127.0.0.1:19092, or KAFKA_PORT),
 *                       fetching its jars with Maven the first time; prints KAFKA_BROKERS=...
 *                       A broker of ours that stopped or crashed is started again on its folder, its
 *                       ports and its log: the topics and their events are kept (issue 41: a restart
 *                       that deleted the log lost 81 % of the events). `-- --fresh` starts an empty one.
 * npm run kafka:stop    stops it cleanly (SIGTERM, then SIGKILL after 30 s); its log is kept for the next
 *                       start; `-- --fresh` deletes it
 * npm run kafka:status  says whether it runs (and where a stopped broker's log is)
 * npm run kafka:console -- --topic gridrocket.bots --from-beginning
 *                       Kafka's console consumer (org.apache.kafka.tools.consumer.ConsoleConsumer, from the
 *                       kafka-tools jar fetched with the broker) on KAFKA_BROKERS or our running broker
 *
 * Then `KAFKA_BROKERS=127.0.0.1:19092 npm test` runs the Kafka suites against it (npm test also
 * starts a broker of its own when KAFKA_BROKERS is unset and Java is here: test/support/kafka-global-setup.js).
 */
const { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');
const net = require('node:net');
const { KafkaBroker, brokerAvailability, freePort, javaBinary, kafkaVersion, ROOT } = require('./broker');

/** True when nothing listens on 127.0.0.1:port. */
function portFree(port) {
  return new Promise((res) => {
    const s = net.createServer();
    s.once('error', () => res(false));
    s.listen(port, '127.0.0.1', () => s.close(() => res(true)));
  });
}

/** The broker's home: its state file and its folder (KAFKA_HOME; default .kafka in the checkout). */
const HOME = process.env.KAFKA_HOME || join(ROOT, '.kafka');
const STATE = join(HOME, 'broker.json');

function saved() {
  if (!existsSync(STATE)) return null;
  try {
    return KafkaBroker.fromJSON(JSON.parse(readFileSync(STATE, 'utf8')));
  } catch {
    return null;
  }
}

async function main(command, flags) {
  const fresh = flags.includes('--fresh');
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
    if (existing && !fresh && existsSync(join(existing.dir, 'data'))) {
      // stopped or crashed: the same folder, ports and log (its clients know the address; the events stay)
      if (!(await portFree(existing.port)) || !(await portFree(existing.controllerPort))) {
        throw new Error(`the broker's port ${existing.port} or ${existing.controllerPort} is taken: free it, or start an empty broker on other ports with: npm run kafka:start -- --fresh`);
      }
      const again = new KafkaBroker({ dir: existing.dir, port: existing.port, controllerPort: existing.controllerPort });
      again.formatted = true;
      const t0 = Date.now();
      await again.start({ detached: true });
      writeFileSync(STATE, JSON.stringify(again.toJSON(), null, 2));
      console.log(`Kafka ${kafkaVersion()} started again on its log in ${((Date.now() - t0) / 1000).toFixed(1)} s (pid ${again.pid}, log ${again.logFile}; npm run kafka:start -- --fresh starts an empty one)`);
      console.log(`KAFKA_BROKERS=${again.brokers.join(',')}`);
      return;
    }
    if (existing) rmSync(existing.dir, { recursive: true, force: true });
    // 127.0.0.1:19092 (and 19093 for the controller) unless KAFKA_PORT says otherwise; when either
    // is taken (another checkout's broker), two free ports
    let port = Number(process.env.KAFKA_PORT || 19092);
    let controllerPort = Number(process.env.KAFKA_CONTROLLER_PORT || port + 1);
    if (!(await portFree(port)) || !(await portFree(controllerPort))) {
      if (process.env.KAFKA_PORT) throw new Error(`port ${port} or ${controllerPort} is taken`);
      port = await freePort();
      controllerPort = await freePort();
    }
    const broker = new KafkaBroker({ dir: join(HOME, 'run'), port, controllerPort });
    rmSync(broker.dir, { recursive: true, force: true });
    const t0 = Date.now();
    await broker.start({ detached: true });
    mkdirSync(HOME, { recursive: true });
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
    if (existing && fresh) {
      rmSync(existing.dir, { recursive: true, force: true });
      rmSync(STATE, { force: true });
      console.log('its log is deleted');
    } else if (existing) {
      writeFileSync(STATE, JSON.stringify({ ...existing.toJSON(), pid: null }, null, 2));
      console.log(`its log is kept in ${existing.dir} for the next npm run kafka:start (npm run kafka:stop -- --fresh deletes it)`);
    }
    return;
  }
  if (command === 'status') {
    const existing = saved();
    if (existing && existing.running) console.log(`Kafka runs: pid ${existing.pid}, KAFKA_BROKERS=${existing.brokers.join(',')}`);
    else {
      console.log(existing ? `no Kafka broker of ours runs; a stopped one's log is in ${existing.dir}` : 'no Kafka broker of ours runs');
      process.exitCode = 1;
    }
    return;
  }
  if (command === 'console') {
    const existing = saved();
    const brokers = (process.env.KAFKA_BROKERS || '').trim() || (existing && existing.running ? existing.brokers.join(',') : '');
    if (!brokers) throw new Error('no broker: set KAFKA_BROKERS, or npm run kafka:start');
    const args = flags.includes('--bootstrap-server') ? flags : ['--bootstrap-server', brokers, ...flags];
    const tool = new KafkaBroker({ heapMb: 256 });
    const r = require('node:child_process').spawnSync(javaBinary(), tool.javaArgs('org.apache.kafka.tools.consumer.ConsoleConsumer', args, join(__dirname, 'log4j2-tools.properties')), { stdio: 'inherit' });
    rmSync(tool.dir, { recursive: true, force: true });
    process.exitCode = r.status ?? 1;
    return;
  }
  throw new Error('usage: node scripts/kafka/cli.js start|stop|status [--fresh] | console [ConsoleConsumer options]');
}

main(process.argv[2], process.argv.slice(3)).then(
  () => process.exit(),
  (err) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  },
);
