// Two projects: the server (Node, swc transform with decorator metadata) and the
// dashboard (jsdom, React). `npm test` runs both; `npx jest libs/bots` runs a part.
const serverSwc = ['@swc/jest', {
  jsc: {
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
    target: 'es2022',
    keepClassNames: true,
  },
  module: { type: 'commonjs' },
}];
const webSwc = ['@swc/jest', {
  jsc: {
    parser: { syntax: 'typescript', tsx: true },
    transform: { react: { runtime: 'automatic' } },
    target: 'es2022',
  },
  module: { type: 'commonjs' },
}];
const aliases = {
  '^@gridrocket/(shared|event-store|read-store|bots|identity|credentials|exchanges|trading|streaming|backtest|alerts)$': '<rootDir>/libs/$1/src',
  '^@gridrocket/(shared|event-store|read-store|bots|identity|credentials|exchanges|trading|streaming|backtest|alerts)/(.*)$': '<rootDir>/libs/$1/src/$2',
};
module.exports = {
  // Hooks and tests wait up to 60 s (jest's 5 s default): an app start on a loaded 2-core CI machine took longer
  // and failed suites in their beforeAll (auditor, malformed-input) although nothing was wrong. A test's verdict
  // must not depend on the machine's speed; tests that need longer set their own.
  testTimeout: 60_000,
  // With one worker (jest's default on 2 cores) the suites run in jest's own process, and a handle a test left
  // open (a socket, a timer) kept it from ever exiting: a CI run hung after its last suite. The teardown
  // (test/support/kafka-global-teardown.js) lists what is still open, then jest exits.
  forceExit: true,
  // Two workers on the 2-core CI machine (jest's default there is one: cores - 1). Most suites wait on
  // sockets, child processes and timers rather than compute (a one-worker CI run spent 17 min of CPU in 36 min
  // of wall time), so two overlap that waiting. Suites share nothing but the Kafka broker, on which each uses
  // topics and groups of its own (a random prefix); no verdict depends on the machine's speed.
  maxWorkers: 2,
  // a real Kafka broker for the Kafka suites, or the reason they skip (test/support/kafka-global-setup.js)
  globalSetup: '<rootDir>/test/support/kafka-global-setup.js',
  globalTeardown: '<rootDir>/test/support/kafka-global-teardown.js',
  reporters: ['default', '<rootDir>/scripts/summary-reporter.js'],
  projects: [
    {
      displayName: 'server',
      testEnvironment: 'node',
      rootDir: __dirname,
      roots: ['<rootDir>/apps', '<rootDir>/libs', '<rootDir>/test'],
      testMatch: ['**/*.spec.ts'],
      transform: { '^.+\\.ts$': serverSwc },
      moduleNameMapper: aliases,
    },
    {
      displayName: 'web',
      testEnvironment: 'jsdom',
      rootDir: __dirname,
      roots: ['<rootDir>/frontend/src'],
      testMatch: ['**/*.test.ts', '**/*.test.tsx'],
      transform: { '^.+\\.(t|j)sx?$': webSwc },
      moduleNameMapper: {
        ...aliases,
        '\\.(css|svg|png|jpg|webp)$': '<rootDir>/frontend/test/file-stub.js',
      },
      setupFilesAfterEnv: ['<rootDir>/frontend/test/setup.ts'],
    },
  ],
};
