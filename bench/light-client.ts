import { Agent, request } from 'node:http';
import { io, Socket } from 'socket.io-client';

/**
 * A lean HTTP client for load generation: node:http with keep-alive, a cookie
 * jar and the CSRF header. (fetch costs the load generator several times more
 * CPU per request, which on a 2-core machine starves the server under test.)
 */
export class LightClient {
  private cookies = new Map<string, string>();
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 4 });
  private readonly host: string;
  private readonly port: number;

  constructor(readonly baseUrl: string) {
    const u = new URL(baseUrl);
    this.host = u.hostname;
    this.port = Number(u.port);
  }

  cookieHeader() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  send(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
    return this.sendRaw(method, path, body === undefined ? undefined : JSON.stringify(body), 'application/json');
  }

  /** A request with a body sent as it is (e.g. a CSV upload), JSON answer. */
  sendRaw(method: string, path: string, payload: string | Buffer | undefined, contentType: string): Promise<{ status: number; body: any }> {
    const headers: Record<string, string> = { cookie: this.cookieHeader() };
    const csrf = this.cookies.get('csrf_token');
    if (csrf) headers['x-csrf-token'] = csrf;
    if (payload) {
      headers['content-type'] = contentType;
      headers['content-length'] = String(Buffer.byteLength(payload));
    }
    return new Promise((resolve, reject) => {
      const req = request({ host: this.host, port: this.port, path, method, headers, agent: this.agent }, (res) => {
        for (const c of res.headers['set-cookie'] ?? []) {
          const [pair] = c.split(';');
          const i = pair.indexOf('=');
          this.cookies.set(pair.slice(0, i), pair.slice(i + 1));
        }
        const chunks: Buffer[] = [];
        res.on('data', (d) => chunks.push(d));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString();
          let body: any;
          try {
            body = text ? JSON.parse(text) : undefined;
          } catch {
            body = text;
          }
          resolve({ status: res.statusCode ?? 0, body });
        });
      });
      req.on('error', reject);
      req.end(payload);
    });
  }

  async signUp(email: string, password = 'correct-horse-1') {
    await this.send('GET', '/api/auth/csrf');
    const res = await this.send('POST', '/api/auth/register', { email, password });
    if (res.status !== 201) throw new Error(`register ${res.status}`);
    return res.body as { uid: string };
  }

  socket(): Promise<Socket> {
    return new Promise((resolve, reject) => {
      const s = io(this.baseUrl, { path: '/socket.io', transports: ['websocket'], extraHeaders: { cookie: this.cookieHeader() }, reconnection: false });
      s.once('ready', () => resolve(s));
      s.once('connect_error', reject);
    });
  }

  close() {
    this.agent.destroy();
  }
}
