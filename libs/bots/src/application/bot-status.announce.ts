import type { PushPort } from '@gridrocket/shared/http';
import type { DecisionResult } from '@gridrocket/shared/runtime';
import type { BotState } from '../domain/bot.decider';
import type { BotEvent } from '../domain/bot.events';
import { toBotView } from '../domain/bot.view';

/** The events that change whether a bot runs: each is announced to its owner as `bot:status`. */
export const STATUS_EVENTS: ReadonlySet<string> = new Set(['BotStarted', 'BotStopped', 'BotStartFailed', 'BotFailed']);

/**
 * `bot:status {id, botstatus, pid}` to the owner as soon as the append that changed the bot's status
 * has resolved (issue 16: the shortest push path, without waiting for the projector), whichever command
 * decided it: a lifecycle report, or the runner's trading facts carrying one (a start's placements and
 * BotStarted in one append) — what counts is the events of the decision. The bot list
 * projection announces the same status again once the read model shows it, so a dashboard that
 * refetches on `bot:changed` in between still ends on the right status; the payload is idempotent.
 */
export function announceStatus(push: PushPort, decision: DecisionResult<BotState, BotEvent>): void {
  if (decision.position === null || decision.state.kind !== 'live') return;
  if (!decision.events.some((e) => STATUS_EVENTS.has(e.type))) return;
  const { id, userid, botstatus, pid } = toBotView(decision.state);
  push.toUser(userid, 'bot:status', { id, botstatus, pid });
}
