// Prints one plain closing line, "N passed, N failed, N skipped", that CI and
// people can read at a glance whatever else jest printed.
class SummaryReporter {
  onRunComplete(_contexts, results) {
    const { numPassedTests: passed, numFailedTests: failed, numPendingTests: skipped, numTodoTests: todo, numRuntimeErrorTestSuites: broken } = results;
    const failures = failed + broken;
    process.stdout.write(`\n${passed} passed, ${failures} failed, ${skipped + todo} skipped\n`);
  }
}
module.exports = SummaryReporter;
