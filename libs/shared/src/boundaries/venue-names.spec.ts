/**
 * Issue 42: "no file outside the exchange adapters names a venue". What is checked, exactly:
 *
 * Files: every tracked `.ts` / `.tsx` file under `libs/`, `apps/` and `frontend/src/` that is production code,
 * i.e. not under `libs/exchanges/src/` (the exchange adapters and the venue folders, where venues are named by
 * design) and not test code (`*.spec.ts(x)`, `*.test.ts(x)`, `*.contract.ts` suites, `*.fixtures.ts`,
 * `testing/` folders: tests and stand-ins may name venues). `test/`, `bench/` and scripts are not scanned.
 *
 * In those files' code, with comments removed (string contents kept), none of:
 *  1. a string literal that is a venue's ccxt id ('binance', "binanceusdm", `kucoin`…: every `ccxt.id` of
 *     the venue registry, libs/exchanges/src/venues/registry.ts);
 *  2. a branch on a venue's name: `===` / `!==` / `==` / `!=` against, or `case` on, a string literal that is
 *     an exchange name of the registry ('Binance', 'Kucoin'), one of its aliases or a ccxt id;
 *  3. a lookup table keyed by venue: an object key (`Binance:`, `'kucoin':`) that is one of those names.
 * Inside libs/exchanges/src the same three checks, with the venue ids ('binance-usdm'…) among the names,
 * hold for every production file outside the venue folders (`venues/<venue>-<market>/`): the adapters, the
 * paper exchange and the shared venue code ask the registry. Only the two id unions may list them
 * (`CcxtId` in venues/venue.ts, `VenueId` in venues/venue.types.ts).
 *
 * Naming the exchanges in texts (the spec's "exchange must be Binance or Kucoin", the dashboard's
 * "Binance"), in types (`'Binance' | 'Kucoin'`) and as values (a default `'Binance'`) is allowed: texts
 * shown to users may also come from the registry (`accountOf(exchange).displayName`).
 *
 * KNOWN lists the files that still do, each with its reason (and, where given, the only kind of check it
 * may fail); an entry that no longer matches fails the test, so the list only shrinks. A fixture proves each
 * check fails where it should. Comments are removed by a small scanner (quotes, templates, // and block
 * comments; a regex literal holding a quote may hide the rest of its line from the checks).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { VENUE_REGISTRY } from '@gridrocket/exchanges/venues';
import { withoutComments } from './testing/without-comments';

const root = join(__dirname, '../../../..');
const SCANNED = /^(libs|apps|frontend\/src)\/.*\.tsx?$/;
const EXEMPT = [/^libs\/exchanges\/src\//, /\.(spec|test)\.tsx?$/, /\.contract\.ts$/, /\.fixtures\.ts$/, /(^|\/)testing\//];

const CCXT_IDS = [...new Set(VENUE_REGISTRY.map((v) => v.ccxt.id))];
const NAMES = [...new Set([...CCXT_IDS, ...VENUE_REGISTRY.flatMap((v) => [v.exchange, ...v.account.aliases])])];

/** Files that still name a venue, with why they are not through the registry yet (`only`: the one kind allowed there). */
const KNOWN: Record<string, { reason: string; only?: string }> = {};

const alt = (names: readonly string[]) => names.map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|');

/** Each check's offending code in one file's text, as `<check>: <code>` strings. */
export function venueNamings(text: string, ccxtIds: readonly string[] = CCXT_IDS, names: readonly string[] = NAMES): string[] {
  const code = withoutComments(text);
  const ids = alt(ccxtIds);
  const all = alt(names);
  const checks: Array<[string, RegExp]> = [
    ['ccxt id', new RegExp(`(['"\`])(?:${ids})\\1`, 'g')],
    ['branch', new RegExp(`[!=]==?\\s*(['"\`])(?:${all})\\1|(['"\`])(?:${all})\\2\\s*[!=]==?|\\bcase\\s+(['"\`])(?:${all})\\3\\s*:`, 'g')],
    ['keyed by venue', new RegExp(`(?:[{,]\\s*)(?:(?:${all})|(['"])(?:${all})\\1)\\s*:(?!:)`, 'g')],
  ];
  const out: string[] = [];
  for (const [name, re] of checks) for (const m of code.matchAll(re)) out.push(`${name}: ${m[0].replace(/\s+/g, ' ').trim()}`);
  return out;
}

describe('venue names outside the exchange adapters (issue 42)', () => {
  const files = execFileSync('git', ['ls-files'], { cwd: root, encoding: 'utf8' }).split('\n');
  const tracked = files.filter((p) => SCANNED.test(p) && !EXEMPT.some((e) => e.test(p)));
  const found = Object.fromEntries(tracked.map((p) => [p, venueNamings(readFileSync(join(root, p), 'utf8'))] as const).filter(([, hits]) => hits.length > 0));

  it('no production file outside libs/exchanges/src names a ccxt id, branches on a venue or keys a table by it', () => {
    expect(tracked.length).toBeGreaterThan(200);
    expect(CCXT_IDS).toEqual(expect.arrayContaining(['binance', 'kucoinfutures']));
    const unexplained = Object.entries(found)
      .map(([p, hits]) => [p, hits.filter((h) => !(p in KNOWN) || (KNOWN[p].only !== undefined && !h.startsWith(`${KNOWN[p].only}:`)))] as const)
      .filter(([, hits]) => hits.length > 0)
      .map(([p, hits]) => `${p}: ${hits.join(' | ')}`);
    expect(unexplained).toEqual([]);
  });

  it('inside libs/exchanges/src only the venue folders name a venue (the adapters ask the registry)', () => {
    const ids = VENUE_REGISTRY.map((v) => v.id);
    const shared = files.filter((p) => /^libs\/exchanges\/src\/.*\.ts$/.test(p) && !EXEMPT.slice(1).some((e) => e.test(p)) && !/^libs\/exchanges\/src\/venues\/[a-z]+-[a-z]+\//.test(p));
    expect(shared).toEqual(expect.arrayContaining(['libs/exchanges/src/ccxt.exchange.ts', 'libs/exchanges/src/ccxt-streams.ts', 'libs/exchanges/src/venues/registry.ts']));
    const unions = ['libs/exchanges/src/venues/venue.ts', 'libs/exchanges/src/venues/venue.types.ts'];
    const named = shared
      .map((p) => [p, venueNamings(readFileSync(join(root, p), 'utf8'), [...CCXT_IDS, ...ids], [...NAMES, ...ids])] as const)
      .map(([p, hits]) => [p, unions.includes(p) ? hits.filter((h) => !h.startsWith('ccxt id:')) : hits] as const)
      .filter(([, hits]) => hits.length > 0)
      .map(([p, hits]) => `${p}: ${hits.join(' | ')}`);
    expect(named).toEqual([]);
  });

  it('every known exception still names a venue (remove it from KNOWN once it goes through the registry)', () => {
    expect(Object.keys(KNOWN).filter((p) => !(p in found))).toEqual([]);
  });

  it('finds each kind in a fixture, and passes texts, types, comments and registry lookups', () => {
    const ids = ['binance', 'binanceusdm', 'kucoin'];
    const names = [...ids, 'Binance', 'Kucoin'];
    const fixture = [
      "const id = market === 'spot' ? 'binance' : \"binanceusdm\";",
      "if (exchange === 'Kucoin') passphrase = true;",
      "if ('Binance' !== exchange) return;",
      'switch (e) { case `Binance`: break; }',
      "const VENUE = { Binance: 'Binance', 'kucoin': 'KuCoin' };",
    ].join('\n');
    expect(venueNamings(fixture, ids, names)).toEqual([
      "ccxt id: 'binance'",
      'ccxt id: "binanceusdm"',
      "ccxt id: 'kucoin'",
      "branch: === 'Kucoin'",
      "branch: 'Binance' !==",
      'branch: case `Binance`:',
      'keyed by venue: { Binance:',
      "keyed by venue: , 'kucoin':",
    ]);
    const allowed = [
      "// if (exchange === 'Kucoin') is how it was; 'binance' too",
      "/* case 'Binance': */",
      "const message = 'exchange must be Binance or Kucoin';",
      "type Name = 'Binance' | 'Kucoin';",
      "const fallback = exchangeOf(query, 'Binance');",
      'const url = `https://www.binance.com/en`; // binance',
      "const hint = accountOf(exchange).passphrase ? ' and the passphrase' : '';",
      "const x = { exchange: 'Binance', market: 'spot' };",
      'const t = cond ? a : b; const o = { a: 1 };',
    ].join('\n');
    expect(venueNamings(allowed, ids, names)).toEqual([]);
  });
});
