/**
 * The product's processes run with the same node flags everywhere they are started (issue 16: the
 * young generation size measured in BENCHMARKS.md): `npm start`, the separate runner, the benchmark
 * process (whose fleet section IS a runner), the Docker image, and the server the benchmarks and
 * crash tests spawn (SERVER_NODE_FLAGS).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SERVER_NODE_FLAGS } from './support/server-process';

const root = join(__dirname, '..');

describe('node flags of the product processes', () => {
  const scripts = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).scripts as Record<string, string>;

  it.each(['start', 'start:runner', 'bench'])('npm run %s starts node with them', (name) => {
    const node = scripts[name].split('&&').map((s) => s.trim()).find((s) => s.startsWith('node '));
    expect(node).toBeDefined();
    for (const flag of SERVER_NODE_FLAGS) expect(node!.split(/\s+/)).toContain(flag);
  });

  it('the Docker image sets them for the API and the runner containers', () => {
    const options = /^ENV NODE_OPTIONS=(.*)$/m.exec(readFileSync(join(root, 'Dockerfile'), 'utf8'))?.[1] ?? '';
    for (const flag of SERVER_NODE_FLAGS) expect(options.split(/\s+/)).toContain(flag);
  });

  it('the end-to-end scripts start the built server with them (e2e/support/harness.js starts it for all)', () => {
    const e2e = readFileSync(join(root, 'e2e/support/harness.js'), 'utf8');
    for (const flag of SERVER_NODE_FLAGS) expect(e2e).toContain(`'${flag}'`);
  });
});
