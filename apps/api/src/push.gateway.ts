import { Global, Logger, Module } from '@nestjs/common';
import { OnGatewayConnection, WebSocketGateway, WebSocketServer } from '@nestjs/websockets';
import type { Server, Socket } from 'socket.io';
import { IdentityModule, SESSION_COOKIE, SessionService } from '@gridrocket/identity/nest';
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
 * socket.io on the API's own port (path /socket.io). A socket is admitted only
 * with a live session cookie and joins its user's room; nothing is ever sent
 * to a room but its owner's.
 */
@WebSocketGateway({ path: '/socket.io', serveClient: false })
export class PushGateway implements OnGatewayConnection, PushPort {
  private readonly logger = new Logger('Push');
  @WebSocketServer() server!: Server;

  constructor(private readonly sessions: SessionService) {}

  async handleConnection(client: Socket) {
    try {
      const cookies = parseCookie(client.handshake.headers.cookie ?? '');
      const resolved = await this.sessions.resolve(cookies[SESSION_COOKIE]);
      if (!resolved) {
        client.emit('auth:error', { message: 'Not signed in' });
        client.disconnect(true);
        return;
      }
      client.data.uid = resolved.session.uid;
      await client.join(room(resolved.session.uid));
      client.emit('ready', { uid: resolved.session.uid });
    } catch (err) {
      this.logger.warn(`Socket refused: ${(err as Error).message}`);
      client.disconnect(true);
    }
  }

  toUser(uid: string, event: string, payload: unknown): void {
    this.server?.to(room(uid)).emit(event, payload);
  }
}

@Global()
@Module({
  imports: [IdentityModule],
  providers: [PushGateway, { provide: PUSH, useExisting: PushGateway }],
  exports: [PUSH],
})
export class PushModule {}
