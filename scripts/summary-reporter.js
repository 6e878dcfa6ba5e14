// Prints one plain closing line, "N passed, N failed, N skipped", that CI and
// people can read at a glance whatever else jest printed.
class SummaryReporter {
  onRunComplete(_contexts, results) {
    const { numPassedTests: passed, numFailedTests: failed, numPendingTests: skipped, numTodoTests: todo, numRuntimeErrorTestSuites: broken } = results;
    const failures = failed + broken;
    // what ran against a real server and what did not (README, "What the tests ran here")
    const kafka = process.env.KAFKA_BROKERS
      ? `Kafka suites ran against the broker at ${process.env.KAFKA_BROKERS}${process.env.KAFKA_STARTED_BY_JEST ? ' (started for this run)' : ''}`
      : `Kafka suites skipped: ${process.env.KAFKA_SKIP_REASON || 'KAFKA_BROKERS not set'}`;
    const others = ['KURRENTDB_URL', 'MONGO_URL'].map((v) => (process.env[v] ? `${v} suites ran` : `${v} suites skipped (not set)`));
    process.stdout.write(`\n${[kafka, ...others].join('; ')}\n`);
    process.stdout.write(`\n${passed} passed, ${failures} failed, ${skipped + todo} skipped\n`);
  }
}
module.exports = SummaryReporter;
