import { Global, Inject, Logger, Module, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { OnGatewayConnection, OnGatewayInit, WebSocketGateway, WebSocketServer } from '@nestjs/websockets';
import type { IncomingMessage } from 'node:http';
import type { Server, Socket } from 'socket.io';
import { IdentityModule, SESSION_COOKIE, SessionService } from '@gridrocket/identity/nest';
import { Projector } from '@gridrocket/read-store';
import { APP_CONFIG, AppConfig } from '@gridrocket/shared/runtime';
import { PUSH, PushPort } from '@gridrocket/shared/http';

const room = (uid: string) => `user:${uid}`;

/** How long a socket's session, once read, is trusted without another read (while projections run here). */
const RECHECK_MS = 1_000;

function parseCookie(header: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of header.split(';')) {
    const i = part.indexOf('=');
    if (i < 0) continue;
    try {
      out[part.slice(0, i).trim()] = decodeURIComponent(part.slice(i + 1).trim());
    } catch {
      // a malformed cookie is ignored
    }
  }
  return out;
}

/** Where a request was sent, as the browser saw it: scheme, host and port. */
export interface RequestOrigin {
  /** `http` or `https` */
  proto: string;
  /** the Host the browser addressed, with its port when one was given */
  host: string | undefined;
}

const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v)?.split(',')[0].trim() || undefined;

/**
 * The origin a handshake was sent to, as Express works out `req.protocol` and `req.host`: from
 * X-Forwarded-Proto and X-Forwarded-Host only when the peer is trusted (`trust`: Express's compiled
 * `trust proxy` function, i.e. TRUST_PROXY), else from the connection (TLS or not) and the Host header.
 */
export function requestOriginOf(req: IncomingMessage, trust: (addr: string, i: number) => boolean): RequestOrigin {
  // the socket may already be gone (a client that hung up mid-handshake): then no proxy is trusted (issue 38)
  const peer = req.socket?.remoteAddress ?? '';
  const trusted = peer !== '' && trust(peer, 0);
  const tls = (req.socket as { encrypted?: boolean } | null)?.encrypted === true;
  const proto = (trusted && first(req.headers['x-forwarded-proto'])?.toLowerCase()) || (tls ? 'https' : 'http');
  const host = (trusted && first(req.headers['x-forwarded-host'])) || req.headers.host;
  return { proto, host };
}

/**
 * Whether a socket handshake's Origin may open a socket: none (not a browser: it cannot carry a
 * victim's cookie), the public URL's origin, or the origin the request itself was sent to (the
 * dashboard served by this very server under another name, e.g. 127.0.0.1 for localhost). That
 * fallback compares scheme, host and port (issue 31: it compared the Host header's text only, so a page
 * on http://name could open a socket to https://name, and `name:443` did not match https://name).
 */
export function originAllowed(origin: string | undefined, request: RequestOrigin, publicUrl: string): boolean {
  if (origin === undefined) return true;
  let o: URL;
  try {
    o = new URL(origin);
  } catch {
    return false;
  }
  if (o.protocol !== 'http:' && o.protocol !== 'https:') return false;
  if (o.origin === new URL(publicUrl).origin) return true;
  if (!request.host || (request.proto !== 'http' && request.proto !== 'https')) return false;
  // a Host with a path, credentials, a query or spaces is no host
  if (/[\s/\\@?#]/.test(request.host)) return false;
  let target: URL;
  try {
    // the URL parser puts both in one form: lower case, default ports dropped (https://h:443 is https://h)
    target = new URL(`${request.proto}://${request.host}`);
  } catch {
    return false;
  }
  return o.origin === target.origin;
}

/**
 * socket.io on the API's own port (path /socket.io). A socket is admitted only from an allowed
 * Origin, with a live session cookie, within the user's socket quota; it joins its user's room and
 * nothing is ever sent to a room but its owner's. Every push checks each socket's session (its expiry
 * each time, a read at most once a second while the projections run here), and a session that ends
 * (logout, password change, revocation) disconnects its sockets at once.
 */
@WebSocketGateway({ path: '/socket.io', serveClient: false })
export class PushGateway implements OnGatewayInit, OnGatewayConnection, PushPort, OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('Push');
  @WebSocketServer() server!: Server;
  private off: (() => void) | null = null;
  /** Pushes leave in the order they were asked for, after their sockets' session checks. */
  private pending: Pending[] = [];
  private flushing = false;

  constructor(
    private readonly sessions: SessionService,
    private readonly projector: Projector,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly adapterHost: HttpAdapterHost,
  ) {}

  /** Express's compiled `trust proxy` (TRUST_PROXY), the very function behind req.ip and req.protocol. */
  private trustProxy(): (addr: string, i: number) => boolean {
    const fn = this.adapterHost.httpAdapter?.getInstance?.()?.get?.('trust proxy fn');
    return typeof fn === 'function' ? fn : () => false;
  }

  afterInit(server: Server) {
    // Refuse a foreign Origin at the handshake, before any socket exists.
    const engine = (server as unknown as { engine?: { opts: { allowRequest?: unknown } } }).engine;
    if (engine) {
      // engine.io calls this outside any request handler: a throw here would end the process (issue 38), so it refuses instead
      engine.opts.allowRequest = (req: IncomingMessage, callback: (err: string | null, ok: boolean) => void) => {
        let ok = false;
        try {
          ok = originAllowed(req.headers.origin, requestOriginOf(req, this.trustProxy()), this.config.publicUrl);
        } catch (err) {
          this.logger.warn(`Handshake refused: ${(err as Error).message}`);
        }
        callback(ok ? null : 'Origin not allowed', ok);
      };
    }
  }

  onModuleInit() {
    // A session that ends, on any replica, ends as a deleted session document here.
    this.off = this.projector.onChange((change) => {
      if (change.projection === 'sessions' && change.after === null) this.disconnectSession(change.id, 'Signed out');
    });
  }

  onModuleDestroy() {
    this.off?.();
  }

  async handleConnection(client: Socket) {
    try {
      if (!originAllowed(client.handshake.headers.origin, requestOriginOf(client.request, this.trustProxy()), this.config.publicUrl)) return this.refuse(client, 'Origin not allowed');
      const cookies = parseCookie(client.handshake.headers.cookie ?? '');
      const resolved = await this.sessions.resolve(cookies[SESSION_COOKIE]);
      if (!resolved) return this.refuse(client, 'Not signed in');
      const { uid, sessionId } = resolved.session;
      const open = (await this.server.in(room(uid)).fetchSockets()).length;
      if (open >= this.config.quotas.sockets) {
        return this.refuse(client, `Limit reached: at most ${this.config.quotas.sockets} open live connections per user. Close another tab.`);
      }
      client.data.uid = uid;
      client.data.sessionId = sessionId;
      await client.join(room(uid));
      // From here on, a session that ends disconnects this socket (onModuleInit). One more read closes
      // the window in which it could have ended before the socket was marked with it.
      const again = await this.sessions.resolveId(sessionId, { fresh: true });
      if (!again || again.session.uid !== uid) return this.refuse(client, 'Signed out');
      client.data.expiresAt = again.expiresAt;
      client.data.checkedAt = Date.now();
      client.emit('ready', { uid });
    } catch (err) {
      this.logger.warn(`Socket refused: ${(err as Error).message}`);
      client.disconnect(true);
    }
  }

  private refuse(client: Socket, message: string) {
    client.emit('auth:error', { message });
    client.disconnect(true);
  }

  /** Disconnects every local socket opened with this session. */
  disconnectSession(sessionId: string, message: string) {
    if (!this.server) return;
    for (const socket of this.server.sockets.sockets.values()) {
      if (socket.data.sessionId === sessionId) this.refuse(socket, message);
    }
  }

  toUser(uid: string, event: string, payload: unknown): void {
    if (!this.server) return;
    this.pending.push({ uid, event, payload });
    if (this.flushing) return;
    this.flushing = true;
    // Pushes asked for in the same run (the projector applies a batch of events at once) leave together.
    queueMicrotask(() => void this.flush());
  }

  /**
   * Delivers what is pending, batch after batch, in the order asked. Each batch checks each socket's
   * session once, just before its pushes are emitted (how: `deliver`).
   */
  private async flush() {
    try {
      while (this.pending.length > 0) {
        const batch = this.pending;
        this.pending = [];
        try {
          await this.deliver(batch);
        } catch (err) {
          this.logger.warn(`Push failed: ${(err as Error).message}`);
        }
      }
    } finally {
      this.flushing = false;
    }
  }

  private async deliver(batch: Pending[]) {
    const byUser = new Map<string, Pending[]>();
    for (const p of batch) {
      const list = byUser.get(p.uid);
      if (list) list.push(p);
      else byUser.set(p.uid, [p]);
    }
    // While this process runs the projections, a session that ends disconnects its sockets as soon as
    // the read model drops it (onModuleInit), and a session document changes in no other way: a socket
    // whose session was read less than RECHECK_MS ago, and is not expired, needs no read (issue 16: two
    // read-store reads per push). The read every RECHECK_MS stays as a second line should a disconnect be
    // missed. Without the projections here, each batch reads every socket's session.
    const watched = this.config.projections;
    const now = Date.now();
    const sessionsOk = new Map<string, Promise<boolean>>();
    const targets: Array<{ socket: Socket; uid: string; sessionId: string }> = [];
    for (const uid of byUser.keys()) {
      for (const socket of this.socketsOf(uid)) {
        const sessionId = socket.data.sessionId as string | undefined;
        if (!sessionId) continue;
        targets.push({ socket, uid, sessionId });
        if (sessionsOk.has(sessionId)) continue;
        const { expiresAt = 0, checkedAt = 0 } = socket.data as { expiresAt?: number; checkedAt?: number };
        if (watched && socket.data.uid === uid && expiresAt > now && now - checkedAt < RECHECK_MS) sessionsOk.set(sessionId, Promise.resolve(true));
        else sessionsOk.set(sessionId, this.checkSession(sessionId, uid));
      }
    }
    const ok = new Map<string, boolean>();
    for (const [sessionId, check] of sessionsOk) ok.set(sessionId, await check);
    for (const { socket, uid, sessionId } of targets) {
      if (!socket.connected) continue;
      if (!ok.get(sessionId)) {
        socket.emit('auth:error', { message: 'Signed out' });
        socket.disconnect(true);
        continue;
      }
      for (const p of byUser.get(uid)!) socket.emit(p.event, p.payload);
    }
  }

  /** Reads the session; a live one is noted on its sockets (expiry, time of the read). */
  private async checkSession(sessionId: string, uid: string): Promise<boolean> {
    const resolved = await this.sessions.resolveId(sessionId, { fresh: true });
    if (resolved?.session.uid !== uid) return false;
    const checkedAt = Date.now();
    for (const socket of this.socketsOf(uid)) {
      if (socket.data.sessionId === sessionId) Object.assign(socket.data, { expiresAt: resolved.expiresAt, checkedAt });
    }
    return true;
  }

  /** This process's sockets in the user's room. */
  private socketsOf(uid: string): Socket[] {
    const ids = this.server.sockets.adapter.rooms.get(room(uid));
    if (!ids) return [];
    const out: Socket[] = [];
    for (const id of ids) {
      const socket = this.server.sockets.sockets.get(id);
      if (socket) out.push(socket);
    }
    return out;
  }
}

interface Pending {
  uid: string;
  event: string;
  payload: unknown;
}

@Global()
@Module({
  imports: [IdentityModule],
  providers: [PushGateway, { provide: PUSH, useExisting: PushGateway }],
  exports: [PUSH],
})
export class PushModule {}
