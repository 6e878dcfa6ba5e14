/**
 * A runner on a paper venue without the Nest app (the runner tests' common setup): a venue fed by a
 * CSV (or another feed), SQLite stores in a temporary folder, bots created and driven through the bot decider.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { SqliteEventStore } from '@gridrocket/event-store';
import { SqliteReadStore } from '@gridrocket/read-store';
import { BotCommandRunner } from '@gridrocket/bots/nest';
import { botDecider, type BotCommand, type BotConfig, type BotEvent, type BotState } from '@gridrocket/bots';
import { EmbeddedOwnership } from '@gridrocket/streaming';
import { PaperExchangeProvider, PaperVenue } from '@gridrocket/exchanges';
import { CsvReplayFeed } from '@gridrocket/exchanges';
import type { ExchangeProvider } from '@gridrocket/exchanges';
import { GridRunner, type GridRunnerOptions } from '@gridrocket/trading';
import { directCommands } from '@gridrocket/trading/nest';

export class RunnerWorld {
  readonly dir = mkdtempSync(join(tmpdir(), 'gr-runner-'));
  readonly venue: PaperVenue;
  readonly paper: PaperExchangeProvider;
  readonly events: SqliteEventStore;
  readonly reads: SqliteReadStore;
  readonly cmd: BotCommandRunner;
  private readonly runners: GridRunner[] = [];

  /** A venue fed by `csv` from `start`, or the venue `open` builds in the world's folder (another feed). */
  constructor(csv: string | ((dir: string) => PaperVenue), start?: number) {
    if (typeof csv === 'string') {
      this.venue = new PaperVenue({ store: join(this.dir, 'paper.sqlite'), feed: new CsvReplayFeed(csv) });
      if (start !== undefined) this.venue.advanceTo(start);
    } else this.venue = csv(this.dir);
    this.paper = new PaperExchangeProvider(this.venue);
    this.events = new SqliteEventStore(join(this.dir, 'events.sqlite'), 20);
    this.reads = new SqliteReadStore(join(this.dir, 'read.sqlite'));
    this.cmd = new BotCommandRunner(this.events);
  }

  async runner(options: Partial<GridRunnerOptions> & { exchanges?: ExchangeProvider } = {}): Promise<GridRunner> {
    const r = new GridRunner({
      events: this.events,
      reads: this.reads,
      commands: directCommands(this.events),
      exchanges: this.paper,
      ownership: new EmbeddedOwnership(),
      pollMs: 25,
      retryBaseMs: 10,
      retryMaxMs: 50,
      logger: { log: () => undefined, warn: () => undefined, error: () => undefined },
      ...options,
    });
    await r.start();
    this.runners.push(r);
    return r;
  }

  async run(command: BotCommand, userId = 'user') {
    return this.cmd.run(command, { userId, correlationId: randomUUID() });
  }

  async create(userId: string, botType: 'Spot' | 'Futures', config: BotConfig): Promise<string> {
    const botId = randomUUID();
    await this.run({ type: 'CreateBot', botId, userId, botType, config }, userId);
    return botId;
  }

  async history(botId: string) {
    return this.events.readStream(`bot-${botId}`);
  }

  async types(botId: string): Promise<string[]> {
    return (await this.history(botId)).map((e) => e.type);
  }

  async state(botId: string): Promise<BotState> {
    return (await this.history(botId)).reduce((s, e) => botDecider.evolve(s, { type: e.type, data: e.data } as BotEvent), botDecider.initialState);
  }

  async close() {
    for (const r of this.runners) await r.stop();
    await this.events.close();
    await this.reads.close();
    this.venue.close();
    rmSync(this.dir, { recursive: true, force: true });
  }
}
