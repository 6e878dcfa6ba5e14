/**
 * The floor of the lifecycle benchmark (issue 16), measured in the same run as the product: the same
 * routes, the same load generator, the same pushes, served by bare Express and socket.io with nothing
 * behind them (no store, no runner, no checks). Whatever the product costs above it is its own work.
 * Not a stand-in for anything: it is only ever run by bench/lifecycle.bench.ts, as its own process.
 */
import express from 'express';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { Server } from 'socket.io';

const SESSION = /(?:^|;\s*)sid=([^;]+)/;
const uidOf = (cookie: string | undefined) => SESSION.exec(cookie ?? '')?.[1];

const app = express();
app.use(express.json({ limit: '64kb' }));
app.get('/api/auth/csrf', (_req, res) => {
  res.cookie('csrf_token', randomUUID());
  res.json({});
});
app.post('/api/auth/register', (_req, res) => {
  const uid = randomUUID();
  res.cookie('sid', uid);
  res.status(201).json({ uid });
});
app.get('/api/auth/me', (req, res) => {
  res.json({ uid: uidOf(req.headers.cookie) });
});
app.post('/api/api-credentials', (_req, res) => {
  res.status(201).json({ id: randomUUID() });
});
app.post('/api/bots', (req, res) => {
  res.status(201).json({ ...req.body, id: randomUUID(), botstatus: false, pid: -1 });
});
/** The bot's new status, pushed to its user's sockets once the answer is on its way (as the product's push follows its command). */
const answerAndPush = (botstatus: boolean) => (req: express.Request, res: express.Response) => {
  res.json({ id: req.query.id, botstatus });
  const uid = uidOf(req.headers.cookie);
  if (uid) setImmediate(() => io.to(uid).emit('bot:status', { id: req.query.id, botstatus }));
};
app.get('/api/startBot', answerAndPush(true));
app.get('/api/stopBot', answerAndPush(false));
app.delete('/api/bots/:id', (_req, res) => {
  res.status(204).end();
});

const server = createServer(app);
const io = new Server(server, { path: '/socket.io', transports: ['websocket'] });
io.on('connection', (socket) => {
  const uid = uidOf(socket.handshake.headers.cookie);
  if (!uid) return socket.disconnect(true);
  void socket.join(uid);
  socket.emit('ready', { uid });
});
server.listen(0, '127.0.0.1', () => {
  console.log(`Floor server listening on http://127.0.0.1:${(server.address() as AddressInfo).port}`);
});
process.on('SIGTERM', () => process.exit(0));
