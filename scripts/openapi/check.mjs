#!/usr/bin/env node
// Checks an OpenAPI document with the maintained tools (issue 31): @apidevtools/swagger-parser's
// validate() (the OpenAPI 3.0 JSON Schema and the spec's rules on paths, parameters and $refs) and
// @redocly/openapi-core's lint with Redocly's `recommended` rule set (what `redocly lint` runs).
//   node scripts/openapi/check.mjs gridrocket.openapi.json          → a report; exit 1 on any error
//   node scripts/openapi/check.mjs gridrocket.openapi.json --json   → the same as JSON (for the tests)
// Both tools are ESM-first, so the contract test runs this as a child process rather than in Jest.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createConfig, lintFromString } from '@redocly/openapi-core';

const require = createRequire(import.meta.url);
const SwaggerParser = require('@apidevtools/swagger-parser');

const [file, flag] = process.argv.slice(2);
if (!file) {
  console.error('usage: node scripts/openapi/check.mjs <document.json> [--json]');
  process.exit(2);
}
const source = readFileSync(file, 'utf8');

let validator = { valid: true, message: '' };
try {
  // validate() dereferences in place: give it its own copy
  await SwaggerParser.validate(JSON.parse(source));
} catch (e) {
  validator = { valid: false, message: String(e?.message ?? e) };
}

const config = await createConfig({ extends: ['recommended'] });
const problems = await lintFromString({ source, absoluteRef: file, config });
const lint = problems.map((p) => ({
  rule: p.ruleId,
  severity: p.severity,
  message: p.message,
  at: p.location?.[0]?.pointer ?? '',
}));
const result = {
  validator,
  lint: { errors: lint.filter((p) => p.severity === 'error'), warnings: lint.filter((p) => p.severity === 'warn') },
};

if (flag === '--json') process.stdout.write(JSON.stringify(result));
else {
  console.log(validator.valid ? 'swagger-parser: valid' : `swagger-parser: INVALID\n${validator.message}`);
  for (const p of lint) console.log(`redocly ${p.severity}: ${p.rule} at ${p.at}: ${p.message}`);
  console.log(`redocly recommended: ${result.lint.errors.length} errors, ${result.lint.warnings.length} warnings`);
}
process.exitCode = validator.valid && result.lint.errors.length === 0 ? 0 : 1;
