/** What the benches share: the push a dashboard waits for, and an in-process runner on a bench's stores. */
import { performance } from 'node:perf_hooks';
import type { Socket } from 'socket.io-client';
import type { EventStore } from '@gridrocket/event-store';
import type { ReadStore } from '@gridrocket/read-store';
import type { ExchangeProvider } from '@gridrocket/exchanges';
import { EmbeddedOwnership } from '@gridrocket/streaming';
import { GridRunner, type GridRunnerOptions } from '@gridrocket/trading';
import { directCommands } from '@gridrocket/trading/nest';

/** Resolves with the time at which the user's socket hears `bot:status` for the bot with the wanted botstatus. */
export function statusPush(socket: Socket, id: string, botstatus: boolean): Promise<number> {
  return new Promise((resolve) => {
    const on = (p: { id: string; botstatus: boolean }) => {
      if (p.id === id && p.botstatus === botstatus) {
        socket.off('bot:status', on);
        resolve(performance.now());
      }
    };
    socket.on('bot:status', on);
  });
}

/** A grid runner on the bench's stores and exchanges (not started), its errors on the console; `options` add to it. */
export function benchRunner(events: EventStore, reads: ReadStore, exchanges: ExchangeProvider, options: Partial<GridRunnerOptions> = {}): GridRunner {
  return new GridRunner({
    events,
    reads,
    commands: directCommands(events),
    exchanges,
    ownership: new EmbeddedOwnership(),
    logger: { log: () => undefined, warn: () => undefined, error: (m) => console.error(m) },
    ...options,
  });
}
