import { Global, Inject, Logger, Module, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { OnGatewayConnection, OnGatewayInit, WebSocketGateway, WebSocketServer } from '@nestjs/websockets';
import type { IncomingMessage } from 'node:http';
import type { Server, Socket } from 'socket.io';
import { IdentityModule, SESSION_COOKIE, SessionService } from '@gridrocket/identity/nest';
import { Projector } from '@gridrocket/read-store';
import { APP_CONFIG, AppConfig } from '@gridrocket/shared/runtime';
import { PUSH, PushPort } from '@gridrocket/shared/http';

const room = (uid: string) => `user:${uid}`;

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

/**
 * Whether a socket handshake's Origin may open a socket: none (not a browser: it cannot carry a
 * victim's cookie), the public URL's origin, or the origin the request itself was sent to (the
 * dashboard served by this very server under another name, e.g. 127.0.0.1 for localhost).
 */
export function originAllowed(origin: string | undefined, host: string | undefined, publicUrl: string): boolean {
  if (origin === undefined) return true;
  let o: URL;
  try {
    o = new URL(origin);
  } catch {
    return false;
  }
  if (o.origin === new URL(publicUrl).origin) return true;
  return (o.protocol === 'http:' || o.protocol === 'https:') && !!host && o.host === host.toLowerCase();
}

/**
 * socket.io on the API's own port (path /socket.io). A socket is admitted only from an allowed
 * Origin, with a live session cookie, within the user's socket quota; it joins its user's room and
 * nothing is ever sent to a room but its owner's. Every push re-checks each socket's session, and a
 * session that ends (logout, password change, revocation) disconnects its sockets at once.
 */
@WebSocketGateway({ path: '/socket.io', serveClient: false })
export class PushGateway implements OnGatewayInit, OnGatewayConnection, PushPort, OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('Push');
  @WebSocketServer() server!: Server;
  private off: (() => void) | null = null;
  /** Pushes leave in the order they were asked for, each after its session checks. */
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly sessions: SessionService,
    private readonly projector: Projector,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  afterInit(server: Server) {
    // Refuse a foreign Origin at the handshake, before any socket exists.
    const engine = (server as unknown as { engine?: { opts: { allowRequest?: unknown } } }).engine;
    if (engine) {
      engine.opts.allowRequest = (req: IncomingMessage, callback: (err: string | null, ok: boolean) => void) => {
        const ok = originAllowed(req.headers.origin, req.headers.host, this.config.publicUrl);
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
      const { origin, host } = client.handshake.headers;
      if (!originAllowed(origin, host, this.config.publicUrl)) return this.refuse(client, 'Origin not allowed');
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
    this.queue = this.queue
      .then(() => this.deliver(uid, event, payload))
      .catch((err) => this.logger.warn(`Push failed: ${(err as Error).message}`));
  }

  private async deliver(uid: string, event: string, payload: unknown) {
    const sockets = await this.server.in(room(uid)).fetchSockets();
    const checked = new Map<string, boolean>();
    for (const socket of sockets) {
      const sessionId = socket.data.sessionId as string | undefined;
      if (!sessionId) continue;
      if (!checked.has(sessionId)) checked.set(sessionId, (await this.sessions.resolveId(sessionId))?.session.uid === uid);
      if (checked.get(sessionId)) socket.emit(event, payload);
      else {
        socket.emit('auth:error', { message: 'Signed out' });
        socket.disconnect(true);
      }
    }
  }
}

@Global()
@Module({
  imports: [IdentityModule],
  providers: [PushGateway, { provide: PUSH, useExisting: PushGateway }],
  exports: [PUSH],
})
export class PushModule {}
