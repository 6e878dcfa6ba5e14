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
