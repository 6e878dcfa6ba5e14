import { boundedSteps } from './bounded-steps';

/** A step that resolves on the next turn and counts how many run at once. */
function watched() {
  const seen = { now: 0, max: 0, started: [] as number[], finished: [] as number[] };
  const step = (fail?: Set<number>) => async (i: number) => {
    seen.started.push(i);
    seen.now++;
    seen.max = Math.max(seen.max, seen.now);
    await new Promise((r) => setImmediate(r));
    seen.now--;
    if (fail?.has(i)) throw new Error(`step ${i} failed`);
    seen.finished.push(i);
  };
  return { seen, step };
}

describe('boundedSteps: a round of one bot\'s exchange calls together', () => {
  it('runs every step, never more than the bound at once', async () => {
    const { seen, step } = watched();
    await boundedSteps([...Array(20).keys()], 8, step());
    expect(seen.max).toBe(8);
    expect([...seen.finished].sort((a, b) => a - b)).toEqual([...Array(20).keys()]);
  });

  it('launches nothing more once halt says so, and waits for the steps under way', async () => {
    const { seen, step } = watched();
    await boundedSteps([...Array(20).keys()], 4, step(), () => seen.finished.length > 0);
    expect(seen.started).toEqual([0, 1, 2, 3]);
    expect(seen.finished).toHaveLength(4);
  });

  it('after a failure, launches nothing more, lets the others finish, then throws the earliest failure in plan order', async () => {
    const { seen, step } = watched();
    await expect(boundedSteps([...Array(10).keys()], 4, step(new Set([3, 1])))).rejects.toThrow('step 1 failed');
    // 0 finished before 1 failed, so its worker took 4; once 1 had failed, 2's worker took nothing more
    expect(seen.started).toEqual([0, 1, 2, 3, 4]);
    expect(seen.finished).toEqual([0, 2, 4]);
    expect(seen.now).toBe(0);
  });
});
