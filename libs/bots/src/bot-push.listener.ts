import { Inject, Injectable, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { AppliedChange, Projector } from '@gridrocket/read-store';
import { PUSH, PushPort } from '@gridrocket/shared/http';
import { BotDoc } from './bot-list.projection';
import { toBotView } from './domain/bot.view';
import { STATUS_EVENTS } from './application/bot-status.announce';

/**
 * After the bot list projection has applied a change, tell the owner's sockets:
 * `bot:status {id, botstatus, pid}` on start and stop, `bot:changed {id}` on
 * anything else that changes the card, `bot:deleted {id}`. (The status is also announced as soon as
 * its append resolves: application/bot-status.announce.ts.)
 */
@Injectable()
export class BotPushListener implements OnModuleInit, OnModuleDestroy {
  private off: (() => void) | null = null;

  constructor(
    private readonly projector: Projector,
    @Inject(PUSH) private readonly push: PushPort,
  ) {}

  onModuleInit() {
    this.off = this.projector.onChange((change) => {
      if (change.projection !== 'bot-list') return;
      this.onChange(change as AppliedChange<BotDoc>);
    });
  }

  private onChange({ event, id, before, after }: AppliedChange<BotDoc>) {
    const owner = after?.userid ?? before?.userid;
    if (!owner) return;
    if (!after) return this.push.toUser(owner, 'bot:deleted', { id });
    if (STATUS_EVENTS.has(event.type)) {
      const { botstatus, pid } = toBotView(after.s);
      this.push.toUser(owner, 'bot:status', { id, botstatus, pid });
    }
    if (event.type !== 'BotStarted' && event.type !== 'BotStopped') this.push.toUser(owner, 'bot:changed', { id });
  }

  onModuleDestroy() {
    this.off?.();
  }
}
