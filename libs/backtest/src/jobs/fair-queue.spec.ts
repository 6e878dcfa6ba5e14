import { FairQueue } from './fair-queue';

const job = (id: string, userId: string) => ({ id, userId });

describe('FairQueue', () => {
  it('serves users in turn, not in arrival order; each user first in, first out', () => {
    const q = new FairQueue<{ id: string; userId: string }>();
    for (const id of ['a1', 'a2', 'a3']) q.push(job(id, 'a'));
    q.push(job('b1', 'b'));
    q.push(job('c1', 'c'));
    q.push(job('b2', 'b'));
    const order: string[] = [];
    for (let item = q.shift(); item; item = q.shift()) order.push(item.id);
    expect(order).toEqual(['a1', 'b1', 'c1', 'a2', 'b2', 'a3']);
  });

  it('a job of many pieces stays at its user\'s head and takes one turn per piece', () => {
    const q = new FairQueue<{ id: string; userId: string }>();
    q.push(job('big', 'a'));
    q.push(job('small', 'b'));
    expect(q.peek()!.id).toBe('big');
    q.served(q.peek()!, false); // one piece of big taken, more left
    expect(q.peek()!.id).toBe('small');
    q.served(q.peek()!, true);
    expect(q.peek()!.id).toBe('big');
  });

  it('a lane that takes only some jobs takes each user\'s first that fits, users still in turn', () => {
    const q = new FairQueue<{ id: string; userId: string; short: boolean }>();
    q.push({ id: 'a-long', userId: 'a', short: false });
    q.push({ id: 'a-short', userId: 'a', short: true });
    q.push({ id: 'b-short', userId: 'b', short: true });
    const short = (j: { short: boolean }) => j.short;
    expect(q.peek(short)!.id).toBe('a-short'); // a's turn: its long head cannot go, its short job can
    q.served(q.peek(short)!, true);
    expect(q.peek(short)!.id).toBe('b-short');
    expect(q.peek()!.id).toBe('b-short'); // a went to the back of the turns
    q.served(q.peek()!, true);
    expect(q.peek(short)).toBeUndefined();
    expect(q.peek()!.id).toBe('a-long');
  });

  it('removes a queued job (a cancel) and keeps the turns of the others', () => {
    const q = new FairQueue<{ id: string; userId: string }>();
    q.push(job('a1', 'a'));
    q.push(job('b1', 'b'));
    expect(q.remove('a1')!.id).toBe('a1');
    expect(q.remove('a1')).toBeUndefined();
    expect(q.size).toBe(1);
    expect(q.shift()!.id).toBe('b1');
    expect(q.shift()).toBeUndefined();
  });
});
