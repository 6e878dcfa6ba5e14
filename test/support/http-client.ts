import { io, Socket } from 'socket.io-client';

/** A tiny browser-like client: keeps cookies, sends the CSRF header, speaks JSON. */
export class Client {
  private cookies = new Map<string, string>();

  constructor(readonly baseUrl: string) {}

  get csrf(): string | undefined {
    return this.cookies.get('csrf_token');
  }

  cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  private store(res: Response) {
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const i = pair.indexOf('=');
      const name = pair.slice(0, i);
      const value = pair.slice(i + 1);
      if (value === '' || /expires=Thu, 01 Jan 1970/i.test(c)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  async raw(method: string, path: string, options: { body?: string; headers?: Record<string, string>; csrf?: boolean } = {}) {
    if (!this.csrf && options.csrf !== false) await this.fetchCsrf();
    const headers: Record<string, string> = { cookie: this.cookieHeader(), ...(options.headers ?? {}) };
    if (options.csrf !== false && this.csrf) headers['x-csrf-token'] = this.csrf;
    const res = await fetch(this.baseUrl + path, { method, headers, body: options.body });
    this.store(res);
    const text = await res.text();
    let json: any = undefined;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    return { status: res.status, body: json, text, headers: res.headers };
  }

  async fetchCsrf() {
    const res = await fetch(this.baseUrl + '/api/auth/csrf', { headers: { cookie: this.cookieHeader() } });
    this.store(res);
    await res.text();
  }

  get(path: string, options: { csrf?: boolean } = {}) {
    return this.raw('GET', path, options);
  }
  post(path: string, body?: unknown, options: { csrf?: boolean } = {}) {
    return this.raw('POST', path, { ...options, body: body === undefined ? undefined : JSON.stringify(body), headers: { 'content-type': 'application/json' } });
  }
  put(path: string, body?: unknown) {
    return this.raw('PUT', path, { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
  }
  delete(path: string) {
    return this.raw('DELETE', path);
  }

  /** Registers (or logs in) and returns the user. */
  async signUp(email: string, password = 'correct-horse-1') {
    const res = await this.post('/api/auth/register', { email, password });
    if (res.status !== 201) throw new Error(`register ${res.status} ${res.text}`);
    return res.body as { uid: string; email: string };
  }

  /**
   * Adds an API key for the exchange: a bot starts only with one (the paper exchange is the key's
   * sandbox). Returns the credential id.
   */
  async addKey(uid: string, exchange: 'Binance' | 'Kucoin' = 'Binance'): Promise<string> {
    const access = { exchange, apiKey: `test-${exchange.toLowerCase()}-key`, keySecret: 'test-secret-0123456789', passPhrase: exchange === 'Kucoin' ? 'test-pass' : '', userId: uid };
    const res = await this.post('/api/api-credentials', { access });
    if (res.status !== 201 && res.status !== 200) throw new Error(`add key ${res.status} ${res.text}`);
    return res.body.id;
  }

  socket(): Promise<Socket> {
    return new Promise((resolve, reject) => {
      const s = io(this.baseUrl, { path: '/socket.io', transports: ['websocket'], extraHeaders: { cookie: this.cookieHeader() }, reconnection: false });
      s.once('ready', () => resolve(s));
      s.once('connect_error', reject);
      s.once('disconnect', () => reject(new Error('socket refused')));
    });
  }
}

export const spotBot = {
  exchange: 'Binance',
  symbol: 'BTCUSDT',
  numOfOrders: 5,
  orderSize: '0.01',
  interval: 100,
  entryPrice: 60000,
  takeProfit: 1,
  status: false,
  botType: 'Spot',
  pid: -1,
};
