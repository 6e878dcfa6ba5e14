// @ts-check
/**
 * jest globalSetup: the Kafka suites run against a real broker.
 * - KAFKA_BROKERS set (CI: `.ci/run` starts one with `npm run kafka:start`): they use it.
 * - else, where Java 17+ (and Maven, or jars already fetched) are here: a broker of this run's own is
 *   started (scripts/kafka/broker.js) and stopped by the teardown. KAFKA_TESTS=off opts out.
 * - else they skip, and KAFKA_SKIP_REASON says why: each skipped suite's title and the summary line
 *   at the end of `npm test` (scripts/summary-reporter.js) print it.
 */
const { KafkaBroker, brokerAvailability } = require('../../scripts/kafka/broker');

module.exports = async function kafkaGlobalSetup() {
  if ((process.env.KAFKA_BROKERS ?? '').trim()) return;
  if (process.env.KAFKA_TESTS === 'off') {
    process.env.KAFKA_SKIP_REASON = 'KAFKA_TESTS=off';
    return;
  }
  const available = brokerAvailability();
  if (!available.ok) {
    process.env.KAFKA_SKIP_REASON = available.reason;
    return;
  }
  try {
    const broker = await KafkaBroker.start();
    /** @type {any} */ (globalThis).__GRIDROCKET_KAFKA__ = broker;
    process.env.KAFKA_BROKERS = broker.brokers.join(',');
    process.env.KAFKA_STARTED_BY_JEST = '1';
  } catch (err) {
    process.env.KAFKA_SKIP_REASON = `the Kafka broker could not start: ${String(/** @type {Error} */ (err).message).split('\n')[0]}`;
  }
};
