/**
 * The dependency rules of .dependency-cruiser.js, run in `npm test`: the repository passes them, and
 * a fixture tree with one deliberate violation per rule makes each of them fail (and only where it
 * should). dependency-cruiser is ESM-only, so it runs as its own CLI in a child process.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const root = join(__dirname, '../../../..');
const CLI = join(root, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs');

interface Violation {
  from: string;
  to: string;
  rule: { name: string; severity: string };
}

function cruise(cwd: string, folders: string[]): Violation[] {
  const run = spawnSync(process.execPath, [CLI, '--config', '.dependency-cruiser.js', '--output-type', 'json', ...folders], {
    cwd,
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
    timeout: 240_000,
  });
  if (!run.stdout) throw new Error(`dependency-cruiser did not answer: ${run.stderr || run.error}`);
  return JSON.parse(run.stdout).summary.violations;
}

const describeViolation = (v: Violation) => `${v.rule.name}: ${v.from} → ${v.to}`;

describe('dependency rules (.dependency-cruiser.js)', () => {
  it('hold on apps, libs, tests, benchmarks and the dashboard', () => {
    const violations = cruise(root, ['apps', 'libs', 'test', 'bench', 'frontend/src']);
    expect(violations.map(describeViolation)).toEqual([]);
  }, 300_000);

  describe('on a tree with deliberate violations', () => {
    let dir: string;
    const files: Record<string, string> = {
      'libs/shared/src/index.ts': 'export const kernel = 1;\n',
      'libs/shared/src/runtime.ts': "export { Db } from '@gridrocket/event-store';\n",
      'libs/event-store/src/index.ts': "export * from './sqlite.event-store';\n",
      'libs/event-store/src/sqlite.event-store.ts': "import Database from 'better-sqlite3';\nexport const Db = Database;\n",
      // A clean decider: its own folder and the pure shared kernel.
      'libs/bots/src/domain/bot.events.ts': 'export const created = 1;\n',
      'libs/bots/src/domain/good.decider.ts':
        "import { kernel } from '@gridrocket/shared';\nimport { created } from './bot.events';\nexport const good = kernel + created;\n",
      // A decider that loads Nest, the file system and an adapter's inner file.
      'libs/bots/src/domain/bad.decider.ts':
        "import { Injectable } from '@nestjs/common';\nimport { readFileSync } from 'node:fs';\nimport { Db } from '@gridrocket/event-store/sqlite.event-store';\nexport const bad = [Injectable, readFileSync, Db];\n",
      // A decider that imports a Nest entry, and one that reaches Nest through a handler of its own context.
      'libs/bots/src/domain/wired.decider.ts': "import { TradingModule } from '@gridrocket/trading/nest';\nexport const wired = TradingModule;\n",
      'libs/bots/src/domain/sneaky.decider.ts': "import { handler } from '../application/start-bot.handler';\nexport const sneaky = handler;\n",
      'libs/bots/src/application/start-bot.handler.ts': "import { CommandHandler } from '@nestjs/cqrs';\nexport const handler = CommandHandler;\n",
      'libs/bots/src/index.ts': "export * from './domain/good.decider';\n",
      'libs/bots/src/bots.module.ts': "import { helper } from '@gridrocket/trading/testing/helper';\nexport const mod = helper;\n",
      'libs/trading/src/testing/helper.ts': 'export const helper = 1;\n',
      // An index that exports Nest code.
      'libs/trading/src/index.ts': "export * from './trading.module';\n",
      'libs/trading/src/trading.module.ts': "import { Module } from '@nestjs/common';\nexport const TradingModule = Module;\n",
      'libs/trading/src/nest.ts': "export * from './trading.module';\n",
      // A cycle.
      'libs/trading/src/a.ts': "import { b } from './b';\nexport const a = () => b;\n",
      'libs/trading/src/b.ts': "import { a } from './a';\nexport const b = () => a;\n",
      // Runner files reach other contexts only through their entries, like every other file.
      'libs/trading/src/runner/grid-runner.ts': "import { good } from '@gridrocket/bots/domain/good.decider';\nexport const runner = good;\n",
      'libs/trading/src/runner/other.ts': "import { good } from '@gridrocket/bots/domain/good.decider';\nexport const other = good;\n",
      // Entries are fine from apps; inner files are not.
      'apps/api/src/main.ts':
        "import { good } from '@gridrocket/bots';\nimport { created } from '@gridrocket/bots/domain/bot.events';\nexport const app = good + created;\n",
      // The dashboard takes pure modules only (the grid cost, a domain rule), not a context's index.
      'libs/trading/src/grid/cost.ts': 'export const gridCost = 1;\n',
      'frontend/src/App.tsx':
        "import { gridCost } from '@gridrocket/trading/grid/cost';\nimport { created } from '@gridrocket/bots/domain/bot.events';\nimport { good } from '@gridrocket/bots';\nexport const App = () => gridCost + created + good;\n",
    };

    beforeAll(() => {
      dir = mkdtempSync(join(tmpdir(), 'gr-depcruise-'));
      for (const [file, text] of Object.entries(files)) {
        mkdirSync(dirname(join(dir, file)), { recursive: true });
        writeFileSync(join(dir, file), text);
      }
      copyFileSync(join(root, '.dependency-cruiser.js'), join(dir, '.dependency-cruiser.js'));
      copyFileSync(join(root, 'tsconfig.json'), join(dir, 'tsconfig.json'));
      symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'), 'dir');
    });
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it('make each rule fail where it is broken, and nowhere else', () => {
      const found = cruise(dir, ['apps', 'libs', 'frontend/src']).map((v) => `${v.rule.name}: ${v.from} → ${v.to.replace(/^.*node_modules\//, 'node_modules/')}`);
      expect([...new Set(found)].sort()).toEqual(
        [
          'apps-and-tests-use-entries: apps/api/src/main.ts → libs/bots/src/domain/bot.events.ts',
          'frontend-pure-shared-only: frontend/src/App.tsx → libs/bots/src/index.ts',
          'index-is-framework-free: libs/trading/src/index.ts → node_modules/@nestjs/common/index.js',
          'no-circular: libs/trading/src/a.ts → libs/trading/src/b.ts',
          'no-deep-context-imports: libs/bots/src/domain/bad.decider.ts → libs/event-store/src/sqlite.event-store.ts',
          'no-deep-context-imports: libs/trading/src/runner/grid-runner.ts → libs/bots/src/domain/good.decider.ts',
          'no-deep-context-imports: libs/trading/src/runner/other.ts → libs/bots/src/domain/good.decider.ts',
          'pure-code-no-infrastructure: libs/bots/src/domain/bad.decider.ts → node_modules/@nestjs/common/index.js',
          'pure-code-no-io: libs/bots/src/domain/bad.decider.ts → fs',
          'pure-code-no-server-entries: libs/bots/src/domain/wired.decider.ts → libs/trading/src/nest.ts',
          'pure-code-reaches-no-nest: libs/bots/src/domain/bad.decider.ts → node_modules/@nestjs/common/index.js',
          'pure-code-reaches-no-nest: libs/bots/src/domain/sneaky.decider.ts → node_modules/@nestjs/cqrs/index.js',
          'pure-code-reaches-no-nest: libs/bots/src/domain/wired.decider.ts → node_modules/@nestjs/common/index.js',
          'testing-helpers-in-tests-only: libs/bots/src/bots.module.ts → libs/trading/src/testing/helper.ts',
        ].sort(),
      );
    }, 300_000);
  });
});
