import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '@gridrocket/shared/runtime';
import { RunningApp, startApp } from '../../apps/api/src/bootstrap';

/** The real Nest app on the embedded adapters, in a temporary data folder, on a free port. */
export async function startTestApp(env: Record<string, string> = {}): Promise<RunningApp & { dataDir: string }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'gr-app-'));
  const config = loadConfig({ ...env, DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: env.LOG_LEVEL ?? 'silent', WEB_DIST: join(dataDir, 'no-web') });
  const running = await startApp(config);
  return {
    ...running,
    dataDir,
    async close() {
      await running.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
