/** A stand-in for socket.io's client in component tests (see jest.mock('../api/socket') in tests). */
type Handler = (...args: any[]) => void;

export class FakeSocket {
  connected = true;
  handlers = new Map<string, Set<Handler>>();
  on(event: string, h: Handler) {
    if (!this.handlers.has(event)) this.handlers.set(event, new Set());
    this.handlers.get(event)!.add(h);
    return this;
  }
  off(event: string, h: Handler) {
    this.handlers.get(event)?.delete(h);
    return this;
  }
  removeAllListeners() {
    this.handlers.clear();
    return this;
  }
  disconnect() {
    this.connected = false;
  }
  /** what the server would push */
  push(event: string, payload: unknown) {
    for (const h of Array.from(this.handlers.get(event) ?? [])) h(payload);
  }
}

export const fake = { socket: new FakeSocket(), listeners: new Set<(c: boolean) => void>() };

export function socketModuleMock() {
  return {
    connectSocket: () => {
      for (const l of fake.listeners) l(fake.socket.connected);
      return fake.socket;
    },
    getSocket: () => fake.socket,
    closeSocket: () => undefined,
    onConnectionChange: (l: (c: boolean) => void) => {
      fake.listeners.add(l);
      return () => fake.listeners.delete(l);
    },
  };
}

/**
 * What the component suites repeated before each test (issue 42): a fresh fake socket, and after each test
 * the signed-in user and other stored settings cleared (unless `keepStorage`).
 */
export function freshSocketPerTest({ keepStorage = false }: { keepStorage?: boolean } = {}) {
  beforeEach(() => {
    fake.socket = new FakeSocket();
  });
  if (!keepStorage) afterEach(() => window.localStorage.clear());
}
