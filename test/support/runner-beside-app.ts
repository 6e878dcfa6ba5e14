/**
 * The scaled-out topology of the suites that run the API app with EMBEDDED_RUNNER=false (docs/deployment): a
 * grid runner beside it on the app's own event and read stores, on the exchanges the suite gives it, and bots
 * created and started as the API's commands do (the bot decider through the command runner).
 */
import { randomUUID } from 'node:crypto';
import { EVENT_STORE, type EventStore } from '@gridrocket/event-store';
import { READ_STORE, type ReadStore } from '@gridrocket/read-store';
import { BotCommandRunner } from '@gridrocket/bots/nest';
import type { BotConfig } from '@gridrocket/bots';
import type { ExchangeProvider } from '@gridrocket/exchanges';
import { EmbeddedOwnership } from '@gridrocket/streaming';
import { GridRunner, type GridRunnerOptions } from '@gridrocket/trading';
import { directCommands } from '@gridrocket/trading/nest';
import type { TestApp } from './trader-app';

/** The app's event store. */
export const eventsOf = (app: TestApp) => app.app.get<EventStore>(EVENT_STORE);

/** A runner beside `app` on its stores and `exchanges`, started; `options` set its timings (and the rest). */
export async function startRunnerBeside(app: TestApp, exchanges: ExchangeProvider, options: Partial<GridRunnerOptions> = {}): Promise<GridRunner> {
  const events = eventsOf(app);
  const runner = new GridRunner({
    events,
    reads: app.app.get<ReadStore>(READ_STORE),
    commands: directCommands(events),
    exchanges,
    ownership: new EmbeddedOwnership(),
    logger: { log: () => undefined, warn: () => undefined, error: () => undefined },
    ...options,
  });
  await runner.start();
  return runner;
}

/** The spot bot `botId` of `userId` created with `config` and started, each command with its own correlation id. */
export async function createAndStartSpotBot(events: EventStore, userId: string, botId: string, config: BotConfig): Promise<void> {
  const cmd = new BotCommandRunner(events);
  const ctx = () => ({ userId, correlationId: randomUUID() });
  await cmd.run({ type: 'CreateBot', botId, userId, botType: 'Spot', config }, ctx());
  await cmd.run({ type: 'StartBot', botId, userId }, ctx());
}
