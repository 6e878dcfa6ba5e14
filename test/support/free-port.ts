import { createServer } from 'node:net';

/**
 * A port free right now on 127.0.0.1 (for a server that must know its address before it starts, e.g. an
 * OAuth redirect to PUBLIC_URL, or keep it across a restart, and for Prometheus).
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
