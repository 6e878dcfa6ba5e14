/** Pieces the benchmarks share: a status push heard on the socket, and a runner on the embedded stack. */
import { performance } from 'node:perf_hooks';
import type { Socket } from 'socket.io-client';
import type { EventStore } from '@gridrocket/event-store';
import type { ExchangeProvider } from '@gridrocket/exchanges';
import type { ReadStore } from '@gridrocket/read-store';
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

/** A runner that owns every bot (one process), commands run in-process, and only errors logged; `more` adds options. */
export function embeddedRunner(events: EventStore, reads: ReadStore, exchanges: ExchangeProvider, more: Partial<GridRunnerOptions> = {}): GridRunner {
  return new GridRunner({
    events,
    reads,
    commands: directCommands(events),
    exchanges,
    ownership: new EmbeddedOwnership(),
    logger: { log: () => undefined, warn: () => undefined, error: (m) => console.error(m) },
    ...more,
  });
}
