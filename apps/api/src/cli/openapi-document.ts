import 'reflect-metadata';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '@gridrocket/shared/runtime';
import { startApp } from '../bootstrap';

/**
 * `npm run api:document [-- <file>]`: the OpenAPI document of this build, as `/api/docs-json` serves
 * it, without a running server: the app starts on its embedded defaults in a scratch directory on
 * 127.0.0.1 (a free port, no runner), answers the one request and stops. Writes to the file given, or
 * to stdout. The environment is not read (the embedded defaults' document is the same on every
 * machine). `npm run api:client` generates the TypeScript client from it (docs/api.md).
 */
async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'gr-openapi-'));
  try {
    const config = loadConfig({ DATA_DIR: dir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', WEB_DIST: join(dir, 'no-web') }, { embeddedRunner: false });
    const app = await startApp(config);
    try {
      const res = await fetch(`${app.url}/api/docs-json`);
      if (!res.ok) throw new Error(`/api/docs-json answered ${res.status}`);
      const text = `${JSON.stringify(await res.json(), null, 2)}\n`;
      const out = process.argv[2];
      if (out) writeFileSync(out, text);
      else process.stdout.write(text);
    } finally {
      await app.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
