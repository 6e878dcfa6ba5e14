import { defineConfig, type Plugin } from 'vite';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const here = path.dirname(fileURLToPath(import.meta.url));
/** The landing route's JavaScript as served (brotli, what every current browser accepts). */
const LIMIT_KB = 150;
const COMPRESSIBLE = /\.(js|css|html|svg|json)$/;

const brotli = (buf: Buffer | string) =>
  brotliCompressSync(buf, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: Buffer.byteLength(buf) } });
const gzip = (buf: Buffer | string) => gzipSync(buf, { level: 9 });

/**
 * Writes a `.br` and a `.gz` copy next to every text file of the build, for the server to send
 * as they are (apps/api/src/static-assets.ts); a copy that would not be smaller is not written.
 */
function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'gridrocket-precompress',
    apply: 'build',
    configResolved(c) {
      outDir = path.resolve(c.root, c.build.outDir);
    },
    writeBundle() {
      const walk = (dir: string) => {
        for (const name of readdirSync(dir)) {
          const file = path.join(dir, name);
          if (statSync(file).isDirectory()) walk(file);
          else if (COMPRESSIBLE.test(name)) {
            const raw = readFileSync(file);
            const br = brotli(raw);
            const gz = gzip(raw);
            if (br.length < raw.length) writeFileSync(`${file}.br`, br);
            if (gz.length < raw.length) writeFileSync(`${file}.gz`, gz);
          }
        }
      };
      walk(outDir);
    },
  };
}

/**
 * Prints the landing route's initial JavaScript (the entry chunk and every chunk it imports
 * statically, i.e. what the browser must load before /home renders), as served (brotli; gzip
 * for the rest), and fails the
 * build if it passes the budget. Lazily loaded screens (bots, chart, security, terms) are not in it.
 */
function initialJsReport(): Plugin {
  return {
    name: 'gridrocket-initial-js-report',
    apply: 'build',
    generateBundle(_opts, bundle) {
      const chunks = Object.values(bundle).filter((c): c is Extract<typeof c, { type: 'chunk' }> => c.type === 'chunk');
      const entry = chunks.find((c) => c.isEntry);
      if (!entry) return;
      const seen = new Set<string>();
      const visit = (name: string) => {
        if (seen.has(name)) return;
        seen.add(name);
        const chunk = bundle[name];
        if (chunk && chunk.type === 'chunk') chunk.imports.forEach(visit);
      };
      visit(entry.fileName);
      let raw = 0;
      let gz = 0;
      let br = 0;
      for (const name of seen) {
        const chunk = bundle[name];
        if (!chunk || chunk.type !== 'chunk') continue;
        raw += Buffer.byteLength(chunk.code);
        gz += gzip(chunk.code).length;
        br += brotli(chunk.code).length;
      }
      const kb = (n: number) => (n / 1024).toFixed(1);
      const lazy = chunks.filter((c) => !seen.has(c.fileName)).length;
      // eslint-disable-next-line no-console
      console.log(
        `\nLanding route (/home) JavaScript as served: ${kb(br)} KB brotli (${kb(gz)} KB gzip, ${kb(raw)} KB raw; ` +
          `${seen.size} chunk(s), ${lazy} lazy chunk(s) not loaded) — budget ${LIMIT_KB} KB compressed\n`,
      );
      // the budget holds for the larger of the two encodings a browser may be sent
      if (Math.max(br, gz) > LIMIT_KB * 1024) this.error(`Landing JS ${kb(Math.max(br, gz))} KB compressed exceeds the ${LIMIT_KB} KB budget`);
    },
  };
}

export default defineConfig({
  root: here,
  base: '/',
  esbuild: { jsx: 'automatic' },
  resolve: {
    alias: [
      { find: '@gridrocket/trading', replacement: path.resolve(here, '../libs/trading/src') },
      // the shared bot rules (one module for the form and the server), with the pure part of shared
      { find: '@gridrocket/bots', replacement: path.resolve(here, '../libs/bots/src') },
      { find: '@gridrocket/exchanges', replacement: path.resolve(here, '../libs/exchanges/src') },
      { find: '@gridrocket/alerts', replacement: path.resolve(here, '../libs/alerts/src') },
      { find: /^@gridrocket\/shared$/, replacement: path.resolve(here, 'src/shims/shared.ts') },
    ],
  },
  plugins: [initialJsReport(), precompress()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2020',
    sourcemap: false,
    chunkSizeWarningLimit: 600,
    rollupOptions: {
      onwarn(warning, warn) {
        // react-router's "use client" directives mean nothing in a client-only bundle
        if (warning.code === 'MODULE_LEVEL_DIRECTIVE') return;
        warn(warning);
      },
    },
  },
  server: {
    host: '127.0.0.1',
    fs: { allow: [path.resolve(here, '..')] },
    proxy: {
      '/api': { target: process.env.API_URL ?? 'http://127.0.0.1:3000', changeOrigin: false },
      '/socket.io': { target: process.env.API_URL ?? 'http://127.0.0.1:3000', ws: true },
    },
  },
});
