/**
 * Debian's nginx in front of a test server, with deploy/nginx/gridrocket.conf as it is (issue 31): used by
 * test/proxy-nginx.spec.ts (HTTP and socket.io clients) and e2e/proxy.e2e.js (Chromium).
 *
 * `startNginx` writes, in a temporary folder, a self-signed certificate made by openssl for 127.0.0.1, the
 * site file with only its names, ports and paths replaced (each must still be in the file: a site file
 * that drifted away from what the test knows fails it instead of going untested), and a main config
 * around it (pid, logs and temp paths in that folder, `daemon off`). nginx runs as a non-root process (as
 * `nobody` when the test runs as root, the folder given to it), listens on free ports of `listenHost`,
 * and reaches the API from `proxyBind` when given (so the API sees a proxy address of the test's choice).
 */
'use strict';
const { execFileSync, spawn } = require('node:child_process');
const fs = require('node:fs');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');

const SITE_FILE = path.join(__dirname, '..', 'deploy', 'nginx', 'gridrocket.conf');
const NOBODY = 65534;

/** The nginx binary (NGINX_PATH, /usr/sbin/nginx, or on the PATH), or null with why not. */
function findNginx() {
  const candidates = [process.env.NGINX_PATH, '/usr/sbin/nginx', '/usr/bin/nginx'].filter(Boolean);
  for (const c of candidates) if (fs.existsSync(c)) return { path: c };
  try {
    const found = execFileSync('sh', ['-c', 'command -v nginx'], { encoding: 'utf8' }).trim();
    if (found) return { path: found };
  } catch {
    /* not on the PATH */
  }
  return { path: null, reason: `nginx is not installed (looked at ${candidates.join(', ')} and the PATH; Debian: apt-get install nginx)` };
}

function hasOpenssl() {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

function freePort(host) {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, host, () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/** The site file with each `[from, to]` replaced; throws if a `from` is no longer in it. */
function templated(replacements) {
  let text = fs.readFileSync(SITE_FILE, 'utf8');
  for (const [from, to] of replacements) {
    if (!text.includes(from)) throw new Error(`deploy/nginx/gridrocket.conf no longer has "${from}": update e2e/nginx.js with it`);
    text = text.split(from).join(to);
  }
  return text;
}

function canConnect(host, port) {
  return new Promise((resolve) => {
    const s = net.connect({ host, port });
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });
}

/**
 * Starts nginx in front of `http://127.0.0.1:<upstreamPort>`. Resolves to its https and http URLs, the
 * certificate (PEM, for the clients' `ca`), its error log, and `stop()`.
 */
async function startNginx({ upstreamPort, listenHost = '127.0.0.1', proxyBind, nginxPath }) {
  const bin = nginxPath || findNginx().path;
  if (!bin) throw new Error(findNginx().reason);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gr-nginx-'));
  const cert = path.join(dir, 'cert.pem');
  const key = path.join(dir, 'key.pem');
  execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1',
    '-subj', '/CN=gridrocket.test', '-addext', `subjectAltName=IP:${listenHost},DNS:localhost`, '-keyout', key, '-out', cert], { stdio: 'ignore' });
  const tlsPort = await freePort(listenHost);
  const httpPort = await freePort(listenHost);
  const site = templated([
    ['listen 80;', `listen ${listenHost}:${httpPort};`],
    ['listen 443 ssl http2;', `listen ${listenHost}:${tlsPort} ssl http2;`],
    ['server 127.0.0.1:3000;', `server 127.0.0.1:${upstreamPort};`],
    ['/etc/letsencrypt/live/gridrocket.example.com/fullchain.pem', cert],
    ['/etc/letsencrypt/live/gridrocket.example.com/privkey.pem', key],
  ]);
  fs.writeFileSync(path.join(dir, 'gridrocket.conf'), site);
  for (const t of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) fs.mkdirSync(path.join(dir, 'tmp', t), { recursive: true });
  const errorLog = path.join(dir, 'error.log');
  fs.writeFileSync(
    path.join(dir, 'nginx.conf'),
    [
      'daemon off;',
      'worker_processes 1;',
      `pid ${dir}/nginx.pid;`,
      `error_log ${errorLog} notice;`,
      'events { worker_connections 256; }',
      'http {',
      `  access_log ${dir}/access.log;`,
      ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((t) => `  ${t}_temp_path ${dir}/tmp/${t === 'client_body' ? 'body' : t};`),
      ...(proxyBind ? [`  proxy_bind ${proxyBind};`] : []),
      `  include ${dir}/gridrocket.conf;`,
      '}',
      '',
    ].join('\n'),
  );
  // never as root: as nobody, owning its folder, when the test itself runs as root
  const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (asRoot) {
    fs.chmodSync(dir, 0o755);
    execFileSync('chown', ['-R', `${NOBODY}:${NOBODY}`, dir]);
  }
  const child = spawn(bin, ['-p', dir, '-c', path.join(dir, 'nginx.conf'), '-e', errorLog], {
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(asRoot ? { uid: NOBODY, gid: NOBODY } : {}),
  });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const log = () => {
    try {
      return `${output}${fs.readFileSync(errorLog, 'utf8')}`;
    } catch {
      return output;
    }
  };
  const deadline = Date.now() + 10_000;
  while (!(await canConnect(listenHost, tlsPort))) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`nginx exited (${child.exitCode ?? child.signalCode}):\n${log()}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`nginx did not listen on ${listenHost}:${tlsPort} within 10 s:\n${log()}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    url: `https://${listenHost}:${tlsPort}`,
    httpUrl: `http://${listenHost}:${httpPort}`,
    ca: fs.readFileSync(cert),
    pid: child.pid,
    log,
    siteConfig: site,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        await new Promise((resolve) => {
          const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
          child.once('exit', () => {
            clearTimeout(timer);
            resolve();
          });
          child.kill('SIGTERM'); // nginx: fast shutdown of the master and its worker
        });
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

module.exports = { findNginx, hasOpenssl, startNginx, SITE_FILE };
