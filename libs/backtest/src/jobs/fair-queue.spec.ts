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
    q.rotate(false); // one piece of big taken, more left
    expect(q.peek()!.id).toBe('small');
    q.rotate(true);
    expect(q.peek()!.id).toBe('big');
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
