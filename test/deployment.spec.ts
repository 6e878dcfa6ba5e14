/**
 * The production deployment files, read as Docker would read them (issue 27, finding 7): the compose
 * file runs the Kafka the tests run, publishes nothing beyond 127.0.0.1, and its Kafka UI cannot
 * write; the image gets none of the host's artefacts (native node_modules, data/, .env).
 * Docker cannot run here, so these are checks of the files, not of running containers.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { load } from 'js-yaml';

const ROOT = join(__dirname, '..');

interface Service {
  image?: string;
  ports?: (string | { host_ip?: string; published?: string | number; target?: number })[];
  environment?: Record<string, string> | string[];
}

const compose = load(readFileSync(join(ROOT, 'docker-compose.yml'), 'utf8')) as { services: Record<string, Service> };
const env = (s: Service): Record<string, string> =>
  Array.isArray(s.environment) ? Object.fromEntries(s.environment.map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)])) : (s.environment ?? {});

/**
 * Docker's .dockerignore rules (docs.docker.com/build/concepts/context/#dockerignore-files): patterns
 * are matched with Go's filepath.Match plus `**` for any number of directories, relative to the
 * context root, leading and trailing slashes removed; a pattern that matches a directory excludes
 * everything under it; `!` re-includes; the last matching line wins.
 */
function dockerIgnored(patterns: string[], path: string): boolean {
  let ignored = false;
  for (const raw of patterns) {
    const negate = raw.startsWith('!');
    const pattern = (negate ? raw.slice(1) : raw).replace(/^\/+|\/+$/g, '');
    const source = pattern
      .split('/')
      .map((seg) => (seg === '**' ? '(?:.*)' : seg.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*').replace(/\?/g, '[^/]')))
      .join('/')
      .replace(/\(\?:\.\*\)\//g, '(?:.*/)?');
    const re = new RegExp(`^${source}(?:/.*)?$`);
    if (re.test(path)) ignored = !negate;
  }
  return ignored;
}

describe('deployment files', () => {
  it('the compose file runs the Kafka version the tests and CI run for real (scripts/kafka/pom.xml)', () => {
    const pinned = /<kafka\.version>([^<]+)</.exec(readFileSync(join(ROOT, 'scripts/kafka/pom.xml'), 'utf8'))![1];
    expect(compose.services.kafka.image).toBe(`apache/kafka:${pinned}`);
  });

  it('publishes every port on 127.0.0.1 only (the stores run without authentication)', () => {
    const published: string[] = [];
    for (const [name, service] of Object.entries(compose.services)) {
      for (const p of service.ports ?? []) {
        const hostIp = typeof p === 'string' ? (p.split(':').length === 3 ? p.split(':')[0] : '') : (p.host_ip ?? '');
        published.push(`${name} ${typeof p === 'string' ? p : JSON.stringify(p)}`);
        expect({ service: name, hostIp }).toEqual({ service: name, hostIp: '127.0.0.1' });
      }
    }
    expect(published.length).toBeGreaterThanOrEqual(5); // api, kafka, kafka-ui, kurrentdb, mongo
  });

  it('a crashed API or runner is restarted by Docker (issue 38: the compose file had no restart policy)', () => {
    for (const name of ['api', 'runner']) expect((compose.services[name] as Service & { restart?: string }).restart).toBe('unless-stopped');
  });

  it('Kafka UI is read-only and asks for a login', () => {
    const ui = env(compose.services['kafka-ui']);
    expect(ui.KAFKA_CLUSTERS_0_READONLY).toBe('true');
    expect(ui.DYNAMIC_CONFIG_ENABLED).toBe('false');
    expect(ui.AUTH_TYPE).toBe('LOGIN_FORM');
    expect(ui.SPRING_SECURITY_USER_PASSWORD).toMatch(/^\$\{KAFKA_UI_PASSWORD:\?/); // no default password
  });

  it('.dockerignore keeps the host’s artefacts out of the image and lets the sources in', () => {
    const file = join(ROOT, '.dockerignore');
    expect(existsSync(file)).toBe(true);
    const patterns = readFileSync(file, 'utf8')
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l && !l.startsWith('#'));
    const hostArtefacts = [
      'node_modules/better-sqlite3/build/Release/better_sqlite3.node',
      'frontend/node_modules/.vite/deps/react.js',
      'data/events.sqlite',
      'data/master.key',
      'data/mail/0001.eml',
      '.env',
      'dist/apps/api/src/main.js',
      'frontend/dist/index.html',
      '.kafka/lib-4.1.1/kafka_2.13-4.1.1.jar',
      '.git/config',
    ];
    const sources = ['package.json', 'package-lock.json', 'frontend/package.json', 'libs/shared/src/config.ts', 'apps/api/src/main.ts', 'frontend/src/main.tsx', 'tsconfig.build.json', 'scripts/fix-context-imports.js'];
    expect(hostArtefacts.filter((p) => !dockerIgnored(patterns, p))).toEqual([]);
    expect(sources.filter((p) => dockerIgnored(patterns, p))).toEqual([]);
  });
});
