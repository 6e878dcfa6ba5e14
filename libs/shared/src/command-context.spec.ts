import { toNewEvents } from './command-context';

describe('toNewEvents', () => {
  it('gives events time-ordered ids: later events sort after earlier ones (the event store indexes ids; random ids cost a page per event)', async () => {
    const ctx = { userId: 'u', correlationId: 'c' };
    const ids: string[] = [];
    for (let i = 0; i < 50; i++) {
      ids.push(...toNewEvents([{ type: 'T', data: {} }, { type: 'T', data: {} }], ctx).map((e) => e.id));
      if (i % 10 === 0) await new Promise((r) => setTimeout(r, 2));
    }
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});
