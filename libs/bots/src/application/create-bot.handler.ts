import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { EVENT_STORE, EventStore } from '@gridrocket/event-store';
import { READ_STORE, ReadStore } from '@gridrocket/read-store';
import { APP_CONFIG, AppConfig, allotmentLedgerOf, loadState } from '@gridrocket/shared/runtime';
import { BOT_LIST_COLLECTION, BotDoc } from '../bot-list.projection';
import { botDecider } from '../domain/bot.decider';
import { botStream } from '../domain/bot.events';
import { BotCommandRunner, BotDecision } from './bot-command.runner';
import { CreateBotCommand } from './bot.commands';

@CommandHandler(CreateBotCommand)
export class CreateBotHandler implements ICommandHandler<CreateBotCommand, BotDecision> {
  constructor(
    private readonly runner: BotCommandRunner,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(READ_STORE) private readonly reads: ReadStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute(c: CreateBotCommand): Promise<BotDecision> {
    // Per-user quota (QUOTA_BOTS), issue 28: the bot takes a slot of the user's allotment on the event
    // store (quota-<uid>-bots, appended with its expected revision) before it is created, so creates at
    // once cannot pass the limit together; a create that fails frees the slot it took.
    const userId = c.ctx.userId;
    const { taken } = await allotmentLedgerOf(this.store).take('bots', c.ctx, c.botId, this.config.quotas.bots, {
      seed: async () => (await this.reads.find<BotDoc>(BOT_LIST_COLLECTION, { userid: userId })).map((b) => b.id),
      isGone: async (id) => {
        const bot = await loadState(this.store, botStream(id), botDecider);
        return !bot || bot.state.kind !== 'live';
      },
    });
    try {
      return await this.runner.run({ type: 'CreateBot', botId: c.botId, userId, botType: c.botType, config: c.config }, c.ctx, c.conflict);
    } catch (err) {
      if (taken) await allotmentLedgerOf(this.store).free('bots', c.ctx, [c.botId], 'failed').catch(() => undefined);
      throw err;
    }
  }
}
