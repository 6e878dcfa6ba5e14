/*
 * Lets a plain `node` child process (the crash tests) run this repository's
 * TypeScript straight from source: .ts files go through @swc/core with the
 * same options as jest, and @gridrocket/<lib> resolves to libs/<lib>/src.
 * Usage: node -r libs/streaming/src/testing/ts-register.js some-file.ts
 */
const Module = require('node:module');
const path = require('node:path');
const fs = require('node:fs');
const { transformSync } = require('@swc/core');

const root = path.resolve(__dirname, '../../../..');
const originalResolve = Module._resolveFilename;
Module._resolveFilename = function (request, parent, ...rest) {
  const m = /^@gridrocket\/([a-z-]+)(\/.*)?$/.exec(request);
  if (m) request = path.join(root, 'libs', m[1], 'src', m[2] ? m[2].slice(1) : '');
  return originalResolve.call(this, request, parent, ...rest);
};
require.extensions['.ts'] = function (module, filename) {
  const source = fs.readFileSync(filename, 'utf8');
  const { code } = transformSync(source, {
    filename,
    sourceMaps: 'inline',
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
      target: 'es2022',
      keepClassNames: true,
    },
    module: { type: 'commonjs' },
  });
  module._compile(code, filename);
};
