import type { EventStore } from '@gridrocket/event-store';
import type { KeyClaim, KeyUser } from '@gridrocket/credentials';
import { loadState } from '@gridrocket/shared/runtime';
import { botDecider } from '../domain/bot.decider';
import { botStream } from '../domain/bot.events';

/** A claim whose start has not reached the bot's stream yet counts as active this long (its start may be under way). */
export const CLAIM_GRACE_MS = 60_000;

/** How a key's refusal names a bot: its market, type and the start of its id. */
export const botLabel = (symbol: string, botType: string, botId: string) => `${symbol} ${botType.toLowerCase()} bot ${botId.slice(0, 8)}`;

/**
 * The claimed bots that still sign with the key (issue 29), read from their own streams: active (not
 * stopped), or stopped with nothing appended since the claim (the start is still under way) and claimed
 * less than CLAIM_GRACE_MS ago (a start that died between its claim and its request does not block the
 * key for ever).
 */
export function activeKeyUsers(store: EventStore) {
  return async (claims: readonly KeyClaim[], now: Date): Promise<KeyUser[]> => {
    const users: KeyUser[] = [];
    for (const claim of claims) {
      const loaded = await loadState(store, botStream(claim.botId), botDecider);
      const bot = loaded?.state;
      if (!bot || bot.kind !== 'live') continue;
      const pending = bot.status === 'stopped' && bot.version <= claim.botRevision && now.getTime() - Date.parse(claim.at) < CLAIM_GRACE_MS;
      if (bot.status !== 'stopped' || pending) users.push({ botId: bot.botId, label: botLabel(bot.config.symbol, bot.botType, bot.botId) });
    }
    return users;
  };
}
