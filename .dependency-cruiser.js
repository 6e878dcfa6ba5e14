/**
 * GridRocket's dependency rules (dependency-cruiser). Run by libs/shared/src/boundaries/dependency-rules.spec.ts
 * in `npm test`, or by hand: `npx depcruise --config .dependency-cruiser.js apps libs test bench frontend/src`.
 *
 * A context is `libs/<ctx>/src`. Other code reaches it only through its entries:
 *   libs/<ctx>/src/index.ts   framework-free: domain, ports, pure functions, adapters without Nest
 *   libs/<ctx>/src/nest.ts    Nest modules, controllers, providers (apps and Nest modules import these)
 *   libs/shared/src/runtime.ts      server plumbing (executeCommand, keyring, config): loads drivers
 *   libs/shared/src/http/index.ts   the shared Nest HTTP layer (filter, request context, decorators)
 *   libs/trading/src/grid/index.ts  the pure grid engine alone
 *   libs/trading/src/styles/<style>/index.ts  a grid style's pure engine
 *   libs/<ctx>/src/testing/**       test helpers, for tests only
 * Pure code (domain folders, the grid engine, venue rules) imports no framework, no driver, no I/O.
 */

/**
 * Files of the context folders whose code must stay pure. $1 is the folder. A grid style's pure parts in
 * its folder (libs/trading/src/styles/<style>/: its engine, its halves, its chart levels, its stops, its parts
 * and its entry index.ts) are pure likewise, and so are the styles' pure registry and the parts' interface, and
 * the bots context's styles (libs/bots/src/styles/: the form's rules of each style, which the dashboard shares).
 */
const PURE_FOLDERS =
  '^(libs/[^/]+/src/domain/|libs/bots/src/styles/|libs/trading/src/grid/|libs/exchanges/src/venues/|libs/trading/src/styles/[^/]+/([^/]+[.](engine|halves|risk-levels|stops|parts)|index)[.]ts$|libs/trading/src/styles/(pure-registry|style-parts)[.]ts$)';

/** The sanctioned entries of every context (see above). */
const ENTRIES = [
  '^libs/[^/]+/src/(index|nest)\\.ts$',
  // The pure grid engine on its own (`@gridrocket/trading/grid`), for pure code of other contexts and the
  // dashboard: `@gridrocket/trading` also carries the runner, which loads the stores.
  '^libs/trading/src/grid/index\\.ts$',
  // A grid style's pure entry (`@gridrocket/trading/styles/<style>`: its engine), for the backtest's walks of
  // that style, the dashboard and the tests (issue 42: the grid engine's entry names no style).
  '^libs/trading/src/styles/[^/]+/index\\.ts$',
  // The venues' rules on their own (`@gridrocket/exchanges/venues`), for pure code (bot validation, the
  // dashboard): `@gridrocket/exchanges` also carries the ccxt adapter.
  '^libs/exchanges/src/venues/index\\.ts$',
  '^libs/shared/src/runtime\\.ts$',
  '^libs/shared/src/http/index\\.ts$',
  // The guarded way out to user-given URLs (`@gridrocket/shared/net`, issue 38): its rules are pure (node:net's BlockList).
  '^libs/shared/src/net/index\\.ts$',
];

/** Test code: specs, contract suites, fixtures, testing helpers, the test/ folder and the benchmarks. */
const TEST_CODE = ['\\.(spec|test|contract)\\.tsx?$', '\\.fixtures\\.ts$', '(^|/)testing/', '^test/', '^bench/', '^frontend/test/'];

/** Packages that are infrastructure: framework, drivers, transports, I/O libraries. */
const INFRASTRUCTURE_PACKAGES =
  '(^|/)node_modules/(@nestjs/|better-sqlite3/|@kurrent/|mongodb/|kafkajs/|ccxt/|express/|socket\\.io|nodemailer/|pino/|prom-client/|passport|rate-limiter-flexible/|@node-rs/|cookie-parser/|helmet/|compression/)';

/** Node's modules that do I/O (pure code may use node:crypto hashing, node:util and the like). */
const NODE_IO = '^(node:)?(fs|fs/promises|net|http|https|http2|child_process|dgram|dns|tls|worker_threads|cluster|readline|os)$';

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'The import graph has no cycles.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'pure-code-no-infrastructure',
      severity: 'error',
      comment: 'Domain folders, the grid engine and venue rules import no framework, driver or transport.',
      from: { path: PURE_FOLDERS },
      to: { path: INFRASTRUCTURE_PACKAGES },
    },
    {
      name: 'pure-code-no-io',
      severity: 'error',
      comment: 'Domain folders, the grid engine and venue rules do no I/O.',
      from: { path: PURE_FOLDERS, pathNot: TEST_CODE },
      to: { dependencyTypes: ['core'], path: NODE_IO },
    },
    {
      name: 'pure-code-no-server-entries',
      severity: 'error',
      comment: 'Pure code imports no Nest entry and no server plumbing (@gridrocket/<ctx>/nest, @gridrocket/shared/runtime, /http).',
      from: { path: PURE_FOLDERS },
      to: { path: ['^libs/[^/]+/src/nest\\.ts$', '^libs/shared/src/runtime\\.ts$', '^libs/shared/src/http/'] },
    },
    {
      name: 'pure-code-reaches-no-nest',
      severity: 'error',
      comment: 'Nothing pure code imports leads to Nest, however indirectly (a same-context adapter or handler included).',
      from: { path: PURE_FOLDERS },
      to: { path: '(^|/)node_modules/@nestjs/', reachable: true },
    },
    {
      name: 'no-deep-context-imports',
      severity: 'error',
      comment: "A context reaches another context only through its entries (index.ts, nest.ts), never its inner files.",
      from: { path: '^libs/([^/]+)/src/' },
      to: { path: '^libs/[^/]+/src/', pathNot: ['^libs/$1/src/', ...ENTRIES, '^libs/[^/]+/src/testing/'] },
    },
    {
      name: 'apps-and-tests-use-entries',
      severity: 'error',
      comment: 'Apps, tests and benchmarks import the contexts through their entries (tests may use testing/ helpers).',
      from: { path: '^(apps|test|bench)/' },
      to: { path: '^libs/', pathNot: [...ENTRIES, '^libs/[^/]+/src/testing/'] },
    },
    {
      name: 'testing-helpers-in-tests-only',
      severity: 'error',
      comment: 'testing/ helpers (and contract suites) are test code: production code does not load them.',
      from: { pathNot: TEST_CODE },
      to: { path: ['(^|/)testing/', '\\.contract\\.ts$'] },
    },
    {
      name: 'index-is-framework-free',
      severity: 'error',
      comment: "A context's index.ts loads no Nest, directly or through what it exports; Nest belongs in nest.ts.",
      from: { path: '^libs/[^/]+/src/index\\.ts$' },
      to: { path: '(^|/)node_modules/@nestjs/', reachable: true },
    },
    {
      name: 'frontend-pure-shared-only',
      severity: 'error',
      comment:
        'The dashboard shares only pure modules with the server (so both build from one rule instead of restating it): ' +
        'files of the pure folders (domain, grid engine, venue rules) and the pure shared kernel; nothing else of the server.',
      from: { path: '^frontend/src/' },
      // documented-as.ts: a WeakMap by which the shared bot rules name their JSON type for the API contract (issue 31)
      // bot-summary.ts: the bot page's figures as a pure function (it imports only the grid engine's decimals);
      // money/money.ts: the money view's figures and types (issue 29), pure likewise (grid decimals and spacing);
      // style-plugins.ts: the plug-in styles' table the bots' style registry asks (issue 42; empty in the browser)
      to: { path: '^(libs|apps)/', pathNot: [PURE_FOLDERS, '^libs/shared/src/(errors|decider|market|documented-as|style-plugins)\\.ts$', '^libs/trading/src/chart/bot-summary\\.ts$', '^libs/trading/src/money/money\\.ts$'] },
    },
  ],
  options: {
    doNotFollow: { path: '(^|/)node_modules/' },
    exclude: { path: '(^|/)(dist|coverage)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['require', 'node', 'default', 'import'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json', '.d.ts'],
    },
  },
};
