/**
 * Points imports of the contexts at their entries: every name imported from `@gridrocket/<ctx>` or from an
 * inner file of a context (`@gridrocket/<ctx>/some/file`) is imported from the entry that exports it,
 * `@gridrocket/<ctx>` (index.ts) first, then `@gridrocket/<ctx>/nest`, then `@gridrocket/shared/runtime`.
 * Sanctioned paths (nest, runtime, http, testing/*, trading/grid, and the dashboard's imports) are left alone.
 * Prints what it would change; `--write` changes the files. For merges that bring new imports:
 *   node scripts/fix-context-imports.js --write $(git ls-files 'apps/*.ts' 'libs/*.ts' 'test/*.ts' 'bench/*.ts' 'frontend/src/*.ts*')
 * then `npx tsc -p tsconfig.json --noEmit` and the dependency rules (libs/shared/src/boundaries).
 */
const ts = require('typescript');
const fs = require('fs'); const path = require('path');
const root = path.join(__dirname, '..');
const ctxs = ['shared','event-store','read-store','bots','identity','credentials','exchanges','trading','streaming','backtest'];
const entryFiles = {};
for (const c of ctxs) for (const e of ['index','nest','runtime']) {
  const f = `${root}/libs/${c}/src/${e}.ts`; if (fs.existsSync(f)) entryFiles[`${c}:${e}`] = f;
}
const cfg = ts.getParsedCommandLineOfConfigFile(`${root}/tsconfig.json`, {}, {...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {}});
const program = ts.createProgram(Object.values(entryFiles), cfg.options);
const checker = program.getTypeChecker();
const exportsOf = {};
for (const [k, f] of Object.entries(entryFiles)) {
  const sf = program.getSourceFile(f); const sym = checker.getSymbolAtLocation(sf);
  exportsOf[k] = new Set(sym ? checker.getExportsOfModule(sym).map(s => s.name) : []);
}
function sanctioned(spec, file) {
  const m = spec.match(/^@gridrocket\/([a-z-]+)(?:\/(.*))?$/); if (!m) return true;
  const [, c, p] = m; if (!p) return false;
  if (['nest','runtime','http'].includes(p) || p.startsWith('testing/')) return true;
  if (c === 'trading' && p === 'grid') return true; // the pure grid engine's own entry
  if (c === 'trading' && /^styles\/[^/]+$/.test(p)) return true; // a grid style's pure entry (its engine)
  if (c === 'exchanges' && p === 'venues') return true; // the venues' rules' own pure entry
  if (file.startsWith('frontend/')) return true; // the dashboard imports pure files directly (see .dependency-cruiser.js)
  return false;
}
function target(spec, name) {
  const c = spec.match(/^@gridrocket\/([a-z-]+)/)[1];
  for (const e of ['index','nest','runtime']) if (exportsOf[`${c}:${e}`]?.has(name)) return e === 'index' ? `@gridrocket/${c}` : `@gridrocket/${c}/${e}`;
  return null;
}
const write = process.argv[2] === '--write';
const files = process.argv.slice(write ? 3 : 2);
for (const rel of files) {
  const full = path.join(root, rel); const text = fs.readFileSync(full, 'utf8');
  const sf = ts.createSourceFile(rel, text, ts.ScriptTarget.Latest, true);
  const edits = [];
  for (const st of sf.statements) {
    if (!(ts.isImportDeclaration(st) || ts.isExportDeclaration(st)) || !st.moduleSpecifier) continue;
    const spec = st.moduleSpecifier.text; if (!spec.startsWith('@gridrocket/') || sanctioned(spec, rel)) continue;
    const isImport = ts.isImportDeclaration(st);
    const cl = isImport ? st.importClause : null;
    const declType = isImport ? cl?.isTypeOnly : st.isTypeOnly;
    const elems = isImport ? (cl && cl.namedBindings && ts.isNamedImports(cl.namedBindings) ? cl.namedBindings.elements : null) : (st.exportClause && ts.isNamedExports(st.exportClause) ? st.exportClause.elements : null);
    if (!elems || (isImport && cl.name)) { console.error(`SKIP ${rel}: ${st.getText()}`); continue; }
    const groups = new Map();
    for (const el of elems) {
      const name = (el.propertyName || el.name).text; const t = target(spec, name);
      if (!t) { console.error(`NOTFOUND ${rel}: ${name} from ${spec}`); groups.clear(); break; }
      if (!groups.has(t)) groups.set(t, []); groups.get(t).push(el.getText());
    }
    if (!groups.size) continue;
    if (groups.size === 1 && groups.has(spec)) continue;
    const kw = isImport ? 'import' : 'export';
    const out = [...groups].map(([t, els]) => `${kw} ${declType ? 'type ' : ''}{ ${els.join(', ')} } from '${t}';`).join('\n');
    edits.push([st.getStart(), st.getEnd(), out]);
    console.log(`${rel}: ${spec} -> ${[...groups.keys()].join(' + ')}`);
  }
  if (write && edits.length) {
    let t = text; for (const [s, e, r] of edits.sort((a, b) => b[0] - a[0])) t = t.slice(0, s) + r + t.slice(e);
    fs.writeFileSync(full, t);
  }
}
