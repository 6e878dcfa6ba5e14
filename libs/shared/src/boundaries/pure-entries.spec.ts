/**
 * What loading an entry really loads: a plain `node` child requires each entry in a fresh module
 * registry (require.cache emptied before each one) and reports the packages that entered
 * `require.cache`. Deciders and the shared kernel must load no driver and no framework; every
 * context's index must load no Nest (its Nest wiring is its `nest.ts`).
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

const root = join(__dirname, '../../../..');
const DRIVERS = ['better-sqlite3', '@kurrent/kurrentdb-client', 'mongodb', 'kafkajs', 'ccxt'];
const NEST = ['@nestjs/core', '@nestjs/common', '@nestjs/cqrs'];
const CONTEXTS = ['shared', 'event-store', 'read-store', 'bots', 'identity', 'credentials', 'exchanges', 'trading', 'streaming'];
const DECIDERS = {
  bots: '@gridrocket/bots/domain/bot.decider',
  credentials: '@gridrocket/credentials/domain/credential.decider',
  identity: '@gridrocket/identity/domain/user.decider',
  'trading (grid engine)': '@gridrocket/trading/grid',
  // issue 42: a grid style's pure entry (its engine), which the backtest's walks, the dashboard and the tests import
  'trading (neutral grid engine)': '@gridrocket/trading/styles/neutral',
  'trading (infinity grid engine)': '@gridrocket/trading/styles/infinity',
};

const probe = `
const entries = JSON.parse(process.argv[1]);
const keep = new Set(Object.keys(require.cache));
const out = {};
for (const entry of entries) {
  for (const k of Object.keys(require.cache)) if (!keep.has(k)) delete require.cache[k];
  require(entry);
  const packages = new Set();
  for (const k of Object.keys(require.cache)) {
    if (keep.has(k)) continue;
    const m = k.match(/node_modules[\\\\/]((?:@[^\\\\/]+[\\\\/])?[^\\\\/]+)[\\\\/]/);
    if (m) packages.add(m[1].replace('\\\\', '/'));
  }
  out[entry] = [...packages].sort();
}
process.stdout.write(JSON.stringify(out));
`;

let loaded: Record<string, string[]>;

beforeAll(() => {
  const entries = [
    ...CONTEXTS.map((c) => `@gridrocket/${c}`),
    ...Object.values(DECIDERS),
    '@gridrocket/shared/runtime',
    '@gridrocket/bots/nest',
  ];
  const stdout = execFileSync(process.execPath, ['-r', join(root, 'libs/streaming/src/testing/ts-register.js'), '-e', probe, JSON.stringify(entries)], {
    cwd: root,
    encoding: 'utf8',
    timeout: 120_000,
  });
  loaded = JSON.parse(stdout);
}, 150_000);

function offending(entry: string, forbidden: string[]): string[] {
  return forbidden.filter((p) => loaded[entry].includes(p));
}

describe('pure entries load no driver and no framework', () => {
  it('@gridrocket/shared loads neither the event store drivers nor Nest', () => {
    expect(offending('@gridrocket/shared', [...DRIVERS, ...NEST])).toEqual([]);
  });

  it.each(Object.entries(DECIDERS))('the %s decider loads no driver and no framework', (_name, entry) => {
    expect(offending(entry, [...DRIVERS, ...NEST])).toEqual([]);
  });

  it.each(CONTEXTS)('@gridrocket/%s (the index) loads no Nest', (ctx) => {
    expect(offending(`@gridrocket/${ctx}`, NEST)).toEqual([]);
  });

  it('the event store loads the KurrentDB client only when a KurrentDB store is built (issue 16: not in every rebuild worker)', () => {
    expect(loaded['@gridrocket/event-store']).toContain('better-sqlite3');
    expect(loaded['@gridrocket/event-store']).not.toContain('@kurrent/kurrentdb-client');
  });

  it('the probe sees drivers and Nest where they are loaded (so the checks above can fail)', () => {
    expect(offending('@gridrocket/shared/runtime', DRIVERS)).toEqual(expect.arrayContaining(['better-sqlite3']));
    expect(offending('@gridrocket/bots/nest', NEST)).toEqual(expect.arrayContaining(['@nestjs/core', '@nestjs/common']));
  });
});
