import { io, type Socket } from 'socket.io-client';

/**
 * One socket.io connection per signed-in session (the cookie authenticates it). Components read
 * `connected` through the store (ui.socketConnected); the bot list subscribes to its events.
 */
let socket: Socket | null = null;
const listeners = new Set<(connected: boolean) => void>();

function notify(connected: boolean) {
  for (const l of listeners) l(connected);
}

export function connectSocket(): Socket {
  if (socket) return socket;
  socket = io({ path: '/socket.io', withCredentials: true, transports: ['websocket', 'polling'] });
  socket.on('connect', () => notify(true));
  socket.on('disconnect', () => notify(false));
  socket.on('connect_error', () => notify(false));
  return socket;
}

export function getSocket(): Socket | null {
  return socket;
}

export function closeSocket(): void {
  if (!socket) return;
  socket.removeAllListeners();
  socket.disconnect();
  socket = null;
  notify(false);
}

export function onConnectionChange(listener: (connected: boolean) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
