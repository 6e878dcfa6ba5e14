/**
 * The websocket side of a venue stand-in (issue 39): one `ws` server on the stand-in's own HTTP port,
 * routed by path as the venue routes its stream hosts (the ccxt adapter's `urls.api.ws` point here).
 * A dialect's stream routes get a small socket (JSON in, JSON out); tests drive outages through the
 * controls: `cut()` drops every open stream at once (the venue's 24-hour cut, a network loss), `refuse()`
 * turns new connections away until `accept()` (a stream host that is down).
 */
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';

export interface StreamSocket {
  readonly path: string;
  readonly query: URLSearchParams;
  /** Sends a JSON message; a closed socket drops it (a venue does not queue for a gone client). */
  send(message: unknown): void;
  close(code?: number, reason?: string): void;
  onMessage(listener: (message: any) => void): void;
  onClose(listener: () => void): void;
  readonly open: boolean;
}

/** A route of a dialect: called once per accepted connection. */
export type StreamRoute = (socket: StreamSocket) => void;

export class StreamServer {
  private readonly wss = new WebSocketServer({ noServer: true });
  private readonly sockets = new Set<WebSocket>();
  private refusing = false;
  /** Connections accepted since the start, per route prefix (tests: a reconnect happened). */
  readonly connections = new Map<string, number>();

  constructor(
    server: Server,
    private readonly routes: Record<string, StreamRoute>,
  ) {
    server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => this.upgrade(req, socket, head));
  }

  private route(path: string): [string, StreamRoute] | undefined {
    // the longest prefix wins ('/ws-api/v3' before '/ws')
    const keys = Object.keys(this.routes).sort((a, b) => b.length - a.length);
    const k = keys.find((p) => path === p || path.startsWith(p.endsWith('/') ? p : `${p}/`) || (p.endsWith('*') && path.startsWith(p.slice(0, -1))));
    return k ? [k, this.routes[k]] : undefined;
  }

  private upgrade(req: IncomingMessage, socket: Duplex, head: Buffer) {
    const [path, raw = ''] = (req.url ?? '/').split('?');
    const found = this.route(path);
    if (this.refusing || !found) {
      socket.write(`HTTP/1.1 ${this.refusing ? '503 Service Unavailable' : '404 Not Found'}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
      socket.destroy();
      return;
    }
    const [prefix, route] = found;
    this.wss.handleUpgrade(req, socket, head, (ws) => {
      this.sockets.add(ws);
      this.connections.set(prefix, (this.connections.get(prefix) ?? 0) + 1);
      const closeListeners: Array<() => void> = [];
      ws.on('close', () => {
        this.sockets.delete(ws);
        for (const l of closeListeners) l();
      });
      ws.on('error', () => ws.terminate());
      const s: StreamSocket = {
        path,
        query: new URLSearchParams(raw),
        get open() {
          return ws.readyState === ws.OPEN;
        },
        send: (m) => {
          if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(m));
        },
        close: (code = 1000, reason = '') => ws.close(code, reason),
        onMessage: (l) =>
          ws.on('message', (data) => {
            let parsed: unknown;
            try {
              parsed = JSON.parse(String(data));
            } catch {
              parsed = String(data);
            }
            l(parsed);
          }),
        onClose: (l) => void closeListeners.push(l),
      };
      route(s);
    });
  }

  /** Open stream connections now. */
  get openCount(): number {
    return this.sockets.size;
  }

  /** Drops every open connection without a closing handshake (as a network loss does). */
  cut(): void {
    for (const ws of [...this.sockets]) ws.terminate();
  }

  /** New connections are refused (HTTP 503 on the upgrade) until accept(). */
  refuse(): void {
    this.refusing = true;
  }

  accept(): void {
    this.refusing = false;
  }

  close(): void {
    this.cut();
    this.wss.close();
  }
}
