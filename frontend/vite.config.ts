import { defineConfig, type Plugin } from 'vite';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const here = path.dirname(fileURLToPath(import.meta.url));
const LIMIT_KB = 250;

/**
 * Prints the landing route's initial JavaScript (the entry chunk and every chunk it imports
 * statically, i.e. what the browser must load before /home renders), gzipped, and fails the
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
      for (const name of seen) {
        const chunk = bundle[name];
        if (!chunk || chunk.type !== 'chunk') continue;
        raw += Buffer.byteLength(chunk.code);
        gz += gzipSync(chunk.code, { level: 9 }).length;
      }
      const kb = (n: number) => (n / 1024).toFixed(1);
      const lazy = chunks.filter((c) => !seen.has(c.fileName)).length;
      // eslint-disable-next-line no-console
      console.log(
        `\nLanding route (/home) initial JS: ${kb(gz)} KB gzipped (${kb(raw)} KB raw, ${seen.size} chunk(s); ` +
          `${lazy} lazy chunk(s) not loaded) — budget ${LIMIT_KB} KB\n`,
      );
      if (gz > LIMIT_KB * 1024) this.error(`Initial JS ${kb(gz)} KB gzipped exceeds the ${LIMIT_KB} KB budget`);
    },
  };
}

export default defineConfig({
  root: here,
  base: '/',
  esbuild: { jsx: 'automatic' },
  resolve: {
    alias: {
      '@gridrocket/trading': path.resolve(here, '../libs/trading/src'),
      '@gridrocket/exchanges': path.resolve(here, '../libs/exchanges/src'),
    },
  },
  plugins: [initialJsReport()],
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
