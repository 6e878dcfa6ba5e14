/**
 * Issue 42: "no file outside a style's folder names a style". What is checked, exactly:
 *
 * Styles: the non-fallback styles of the registries, i.e. the names of the runner's styles
 * (libs/trading/src/styles/registry.ts `gridStyles()` but `fallbackStyle`; its pure parts' table for the
 * figures and the grid checks, styles/pure-registry.ts, lists some of them), of the backtest walks
 * (libs/backtest/src/domain/styles.ts `backtestStyles()` but the ladder's 'long' and 'short') and of the bot
 * form's styles (libs/bots BotStyleRules): today 'neutral' and 'infinity'. The ladder is the fallback: its
 * own options (`direction` 'long' / 'short', `trailDown`, 'ladder') are the ladder's configuration, which
 * every bot without another style has, and are not style names here.
 *
 * Files: every tracked `.ts` / `.tsx` file under `libs/`, `apps/` and `frontend/src/` that is production
 * code, i.e. not a registry file (the trading and backtest tables above, with the walk table's types
 * styled.types.ts, and the bots context's styles/registry.ts: they list their built-in styles by design) and not test code (`*.spec.ts(x)`, `*.test.ts(x)`, `*.contract.ts`,
 * `*.fixtures.ts`, `testing/` folders). `test/`, `e2e/`, `bench/` and scripts are not scanned. A file in a
 * style's folder (`styles/<style>/` anywhere under libs/ and frontend/src/, and the backtest's walk files
 * `walks/<style>.<part>.ts`) may name its own style, and no other (the ladder's folder no style at all).
 *
 * In those files' code, with comments removed, none of:
 *  1. `literal`: a string literal that is a style's name, in any case ('neutral', "Infinity", `neutral`):
 *     a value, a branch (`direction === 'neutral'`), a key (`'infinity':`) or a type (`'neutral'`) alike;
 *  2. `identifier`: an identifier that has a style's name as a word of it (`infinity`, `c.infinity`,
 *     `isNeutral`, `NeutralGridConfig`, `INFINITY_SPOT`), outside strings; JavaScript's number `Infinity`
 *     (and `POSITIVE_INFINITY`, `NEGATIVE_INFINITY`) is not the style;
 *  3. `import`: a module path that has a style's name in one of its parts (`'./styles/neutral/…'`,
 *     `'./neutral'`, `'./walks/infinity.walk'`), in an import, an export … from, import() or require().
 * Texts that merely contain the word ('the neutral grid needs futures', a route '/bots/infinity-preview'
 * inside a longer string) are allowed: a literal is checked only when it is the name itself.
 *
 * KNOWN lists the files that still do, each with its reason; an entry that no longer matches fails the
 * test, so the list only shrinks. A fixture proves each check fails where it should. Comments are removed
 * by the venue rule's scanner (testing/without-comments.ts, shared with venue-names.spec.ts).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { withoutComments } from './testing/without-comments';

const root = join(__dirname, '../../../..');
const SCANNED = /^(libs|apps|frontend\/src)\/.*\.tsx?$/;
/** The style whose folder holds the file (`styles/<style>/`, the backtest's `walks/<style>.<part>.ts`), if any. */
const folderStyle = (p: string): string | undefined => /(?:^|\/)styles\/([\w-]+)\/|(?:^|\/)walks\/([\w-]+)\.[\w.-]+\.ts$/.exec(p)?.slice(1).find(Boolean);
/**
 * The tables (the walk table's shared types are a file of their own, styled.types.ts, so the walks import them without a cycle;
 * likewise the bots registry's values and types, registry.types.ts, which the persisted and API shapes import).
 */
const REGISTRIES = ['libs/trading/src/styles/registry.ts', 'libs/trading/src/styles/pure-registry.ts', 'libs/bots/src/styles/registry.ts', 'libs/bots/src/styles/registry.types.ts', 'libs/backtest/src/domain/styles.ts', 'libs/backtest/src/domain/styled.types.ts', 'frontend/src/styles/registry.ts'];
const EXEMPT = [/\.(spec|test)\.tsx?$/, /\.contract\.ts$/, /\.fixtures\.ts$/, /(^|\/)testing\//];

/** Files that still name a style, with why they are not in its folder or through a registry yet. */
const KNOWN: Record<string, string> = {};

const alt = (names: readonly string[]) => names.map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|');

/** The code with the contents of quote strings and of template texts (not their `${…}` code) blanked. */
export function withoutStrings(code: string): string {
  let out = '';
  const templates: number[] = []; // per open `${`, the depth of braces inside it
  let i = 0;
  const text = (end: (j: number) => boolean, from: number): number => {
    let j = from;
    while (j < code.length && !end(j)) j += code[j] === '\\' ? 2 : 1;
    out += code.slice(i, from) + code.slice(from, Math.min(j, code.length)).replace(/[^\n]/g, ' ');
    return Math.min(j, code.length);
  };
  while (i < code.length) {
    const c = code[i];
    if (c === "'" || c === '"') {
      const j = text((k) => code[k] === c || code[k] === '\n', i + 1);
      out += code[j] ?? '';
      i = j + 1;
    } else if (c === '`' || (c === '}' && templates.length > 0 && templates[templates.length - 1] === 0)) {
      if (c === '}') templates.pop();
      const j = text((k) => code[k] === '`' || (code[k] === '$' && code[k + 1] === '{'), i + 1);
      if (code[j] === '$') {
        out += '${';
        templates.push(0);
        i = j + 2;
      } else {
        out += code[j] ?? '';
        i = j + 1;
      }
    } else {
      if (templates.length > 0 && c === '{') templates[templates.length - 1]++;
      if (templates.length > 0 && c === '}') templates[templates.length - 1]--;
      out += c;
      i++;
    }
  }
  return out;
}

/** Each check's offending code in one file's text, as `<check>: <code>` strings. */
export function styleNamings(text: string, names: readonly string[]): string[] {
  const code = withoutComments(text);
  const n = alt(names);
  const words = names.flatMap((s) => [s.toLowerCase(), s[0].toUpperCase() + s.slice(1).toLowerCase(), s.toUpperCase()]);
  const checks: Array<[string, RegExp, string]> = [
    ['literal', new RegExp(`(['"\`])(?:${n})\\1`, 'gi'), code],
    ['identifier', new RegExp(`(?<![\\w$])[\\w$]*(?:${alt(words)})[\\w$]*`, 'g'), withoutStrings(code)],
    ['import', new RegExp(`(?:\\bfrom\\s*|\\bimport\\s*\\(\\s*|\\brequire\\s*\\(\\s*|\\bimport\\s+)(['"\`])[^'"\`\\n]*(?:${n})[^'"\`\\n]*\\1`, 'gi'), code],
  ];
  const out: string[] = [];
  for (const [name, re, src] of checks) {
    for (const m of src.matchAll(re)) {
      if (name === 'identifier' && /^(?:Infinity|POSITIVE_INFINITY|NEGATIVE_INFINITY)$/.test(m[0])) continue;
      if (name === 'identifier' && !isWordOf(m[0], words)) continue;
      out.push(`${name}: ${m[0].replace(/\s+/g, ' ').trim()}`);
    }
  }
  return out;
}

/** The identifier has one of the words as a word of it (camelCase, PascalCase or SNAKE_CASE parts). */
function isWordOf(identifier: string, words: readonly string[]): boolean {
  const parts = identifier.replace(/\$/g, '_').split('_').flatMap((p) => p.match(/[A-Z]+(?![a-z])|[A-Z]?[a-z0-9]+/g) ?? []);
  return parts.some((p) => words.includes(p));
}

/** The non-fallback styles' names, from the three registries. */
async function styleNames(): Promise<string[]> {
  const { gridStyles, fallbackStyle } = await import('@gridrocket/trading');
  const { backtestStyles } = await import('@gridrocket/backtest');
  const { builtInStyleRules } = await import('@gridrocket/bots');
  const ladder = new Set([fallbackStyle.name, 'long', 'short']);
  const all = [...gridStyles().map((s) => s.name), ...backtestStyles(), ...builtInStyleRules().map((r) => r.style)];
  return [...new Set(all)].filter((s) => !ladder.has(s));
}

describe('style names outside the styles\' folders (issue 42)', () => {
  const files = execFileSync('git', ['ls-files'], { cwd: root, encoding: 'utf8' }).split('\n');
  let names: string[] = [];
  let tracked: string[] = [];
  let found: Record<string, string[]> = {};
  beforeAll(async () => {
    names = await styleNames();
    tracked = files.filter((p) => SCANNED.test(p) && !EXEMPT.some((e) => e.test(p)) && !REGISTRIES.includes(p));
    const others = (p: string) => names.filter((n) => n !== folderStyle(p));
    found = Object.fromEntries(tracked.map((p) => [p, styleNamings(readFileSync(join(root, p), 'utf8'), others(p))] as const).filter(([, hits]) => hits.length > 0));
  });

  it('the registries give the non-fallback styles, and a file in a style\'s folder is scanned for the other styles only', () => {
    expect(names).toEqual(expect.arrayContaining(['neutral', 'infinity']));
    expect(names).not.toEqual(expect.arrayContaining(['ladder']));
    expect(tracked.length).toBeGreaterThan(200);
    expect(folderStyle('libs/trading/src/styles/neutral/neutral.style.ts')).toBe('neutral');
    expect(folderStyle('libs/backtest/src/domain/walks/infinity.walk.ts')).toBe('infinity');
    expect(folderStyle('libs/trading/src/runner/bot-task.ts')).toBeUndefined();
    expect(tracked).toContain('libs/trading/src/runner/bot-task.ts');
  });

  it('no production file outside a style\'s folder and the registries names a style, branches on it or imports its folder', () => {
    const unexplained = Object.entries(found)
      .filter(([p]) => !(p in KNOWN))
      .map(([p, hits]) => `${p}: ${[...new Set(hits)].join(' | ')}`);
    expect(unexplained).toEqual([]);
  });

  it('every known exception still names a style (remove it from KNOWN once it moved or asks the registry)', () => {
    expect(Object.keys(KNOWN).filter((p) => !(p in found))).toEqual([]);
  });

  it('blanks strings and template texts but keeps the code inside a template', () => {
    expect(withoutStrings("a('neutral'); b(`x ${c.infinity + `y${d}`} z`); e({ f: 1 });")).toBe("a('       '); b(`  ${c.infinity + ` ${d}`}  `); e({ f: 1 });");
  });

  it('finds each kind in a fixture, and passes texts, comments, the number Infinity and registry lookups', () => {
    const styles = ['neutral', 'infinity'];
    const fixture = [
      "if (c.direction === 'neutral') return;",
      'const s = { "Infinity": 1 };',
      'const go = c.infinity ? runInfinity(c) : null;',
      'type N = NeutralGridConfig; const MAX_INFINITY_STEPS = 3;',
      "import { neutralStyle } from './styles/neutral/neutral.style';",
      "export * from './infinity.engine';",
      "const m = await import('./neutral');",
    ].join('\n');
    expect(styleNamings(fixture, styles)).toEqual([
      "literal: 'neutral'",
      'literal: "Infinity"',
      'identifier: infinity',
      'identifier: runInfinity',
      'identifier: NeutralGridConfig',
      'identifier: MAX_INFINITY_STEPS',
      'identifier: neutralStyle',
      "import: from './styles/neutral/neutral.style'",
      "import: from './infinity.engine'",
      "import('./neutral'",
    ].map((h) => (h.startsWith('import(') ? `import: ${h}` : h)));
    const allowed = [
      "// if (c.direction === 'neutral') was how it was; infinity too",
      "/* case 'infinity': */",
      "const message = 'a neutral grid trades futures only';",
      "const url = `/api/bots/infinity-preview/${id}`;",
      'const top = Number.POSITIVE_INFINITY; const low = -Infinity;',
      'const style = styleFor(config); if (style.name === name) return style.problem(c, rules);',
      "const neutrality = 1; const infinite = 'neutralise';",
      "import { styleFor } from '../styles/registry';",
    ].join('\n');
    expect(styleNamings(allowed, styles)).toEqual([]);
  });
});
