import { randomUUID } from 'node:crypto';
import { SqliteEventStore, type NewEvent } from '@gridrocket/event-store';
import type { ReadStore } from '@gridrocket/read-store';
import type { PushPort } from '@gridrocket/shared/http';
import { until } from '@gridrocket/shared/testing/until';
import { BotActivityPush } from './bot-activity.push';

/**
 * `bot:activity` reaches the owner of the bot whose runner recorded something, once per burst, and the
 * owners it remembers stay bounded (a server that has run thousands of bots does not keep them all).
 */
const event = (type: string): NewEvent => ({
  id: randomUUID(),
  type,
  data: {},
  metadata: { userId: 'runner', correlationId: randomUUID(), causationId: null, occurredAt: new Date().toISOString(), schemaVersion: 1 },
});

describe('bot activity push', () => {
  let events: SqliteEventStore;
  let activity: BotActivityPush;
  let heard: { uid: string; name: string; payload: unknown }[];
  /** bot id → owner, as the bot list has them; and how often the push looked an owner up. */
  let owners: Map<string, string>;
  let lookups: string[];

  beforeEach(() => {
    events = new SqliteEventStore(':memory:', 5);
    heard = [];
    owners = new Map();
    lookups = [];
    const reads = {
      get: async (_collection: string, id: string) => {
        lookups.push(id);
        return owners.has(id) ? { id, userid: owners.get(id) } : null;
      },
    } as unknown as ReadStore;
    const push: PushPort = { toUser: (uid, name, payload) => heard.push({ uid, name, payload }) } as PushPort;
    activity = new BotActivityPush(events, reads, push);
    activity.onModuleInit();
  });

  afterEach(async () => {
    await activity.beforeApplicationShutdown();
    await events.close();
  });

  /** Appends to a bot's stream (the subscription, from the end, has read the head before: in onModuleInit's microtasks). */
  const record = async (botId: string, ...types: string[]) => {
    await events.append(`bot-${botId}`, types.map(event), 'any');
  };

  it("tells the bot's owner, and only them, what its runner recorded last in a burst", async () => {
    owners.set('a', 'alice').set('b', 'bob');
    await record('a', 'OrderPlaced', 'OrderPlaced', 'OrderFilled');
    await record('b', 'OrderCancelled');
    await until('both pushes', () => heard.length >= 2);
    await new Promise((r) => setTimeout(r, 200)); // nothing more comes of that burst
    expect(heard).toEqual(
      expect.arrayContaining([
        { uid: 'alice', name: 'bot:activity', payload: { id: 'a', type: 'OrderFilled' } },
        { uid: 'bob', name: 'bot:activity', payload: { id: 'b', type: 'OrderCancelled' } },
      ]),
    );
    expect(heard).toHaveLength(2);
  });

  it('pushes nothing for lifecycle events, nor for a bot that is gone from the list', async () => {
    owners.set('a', 'alice');
    await record('a', 'BotStartRequested', 'BotStarted');
    await record('ghost', 'OrderPlaced');
    await until('the ghost looked up', () => lookups.includes('ghost'));
    await new Promise((r) => setTimeout(r, 200));
    expect(heard).toEqual([]);
  });

  it('keeps at most `ownersKept` owners, forgets a deleted bot, and still reaches the right owner after either', async () => {
    activity.ownersKept = 2;
    owners.set('a', 'alice').set('b', 'bob').set('c', 'carol');
    for (const id of ['a', 'b', 'c']) {
      await record(id, 'OrderPlaced');
      await until(`the push for ${id}`, () => heard.some((h) => (h.payload as { id: string }).id === id));
    }
    // a was the least recently used of three with room for two: it is looked up again, and still reaches alice
    await record('a', 'OrderFilled');
    await until('the second push for a', () => heard.filter((h) => (h.payload as { id: string }).id === 'a').length === 2);
    expect(lookups.filter((id) => id === 'a')).toHaveLength(2);
    // c was kept: no second lookup
    await record('c', 'OrderFilled');
    await until('the second push for c', () => heard.filter((h) => (h.payload as { id: string }).id === 'c').length === 2);
    expect(lookups.filter((id) => id === 'c')).toHaveLength(1);
    // a deleted bot is forgotten: were its id used again, its owner would be read afresh
    await record('c', 'BotDeleted');
    owners.set('c', 'dave');
    await record('c', 'OrderPlaced');
    await until('the push for c after the deletion', () => heard.some((h) => h.uid === 'dave'));
    expect(heard.filter((h) => h.uid !== 'dave').map((h) => [h.uid, (h.payload as { id: string }).id])).toEqual([
      ['alice', 'a'],
      ['bob', 'b'],
      ['carol', 'c'],
      ['alice', 'a'],
      ['carol', 'c'],
    ]);
  });
});
