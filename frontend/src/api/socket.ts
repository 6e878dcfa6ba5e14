import type { Socket } from 'socket.io-client';

/**
 * One socket.io connection per signed-in session (the cookie authenticates it). socket.io-client
 * is loaded only when a user is signed in (a dynamic import: the landing route does not carry it).
 * Components read `connected` through the store (ui.socketConnected); the bot list, the bot page
 * and the overview subscribe to its events once `onConnectionChange` reports the new socket.
 */
let socket: Socket | null = null;
/** Bumped by every connect and close, so a close during the import wins over the import. */
let generation = 0;
const listeners = new Set<(connected: boolean) => void>();

function notify(connected: boolean) {
  for (const l of listeners) l(connected);
}

export function connectSocket(): void {
  if (socket) return;
  const mine = ++generation;
  void import('socket.io-client').then(({ io }) => {
    if (mine !== generation || socket) return;
    const s = io({ path: '/socket.io', withCredentials: true, transports: ['websocket', 'polling'] });
    socket = s;
    s.on('connect', () => notify(true));
    s.on('disconnect', () => notify(false));
    s.on('connect_error', () => notify(false));
    notify(s.connected); // listeners attach to the new socket now
  });
}

export function getSocket(): Socket | null {
  return socket;
}

export function closeSocket(): void {
  generation++;
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
