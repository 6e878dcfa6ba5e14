import { randomBytes } from 'node:crypto';
import { Keyring } from '@gridrocket/shared/runtime';
import { PasswordHasher } from './password.hasher';

jest.setTimeout(30_000);

/** The most hashes running at once while `work` runs, sampled every millisecond. */
async function peakWhile(hasher: PasswordHasher, work: Promise<unknown>): Promise<number> {
  let peak = 0;
  const timer = setInterval(() => (peak = Math.max(peak, hasher.load.running)), 1);
  try {
    await work;
  } finally {
    clearInterval(timer);
  }
  return peak;
}

describe('PasswordHasher', () => {
  const keyring = Keyring.fromKey(randomBytes(32));

  it('hashes at most `concurrency` passwords at once, process-wide; the others wait their turn with the same answers', async () => {
    const one = new PasswordHasher(keyring, 1);
    const sealed = await one.seal('correct horse', 'u1');
    const checks = Promise.all([
      one.verify(sealed, 'correct horse', 'u1'),
      one.verify(sealed, 'wrong', 'u1'),
      one.verify(null, 'whatever', 'nobody'), // an unknown account is hashed too
      one.verify(sealed, 'correct horse', 'u1'),
      one.seal('another', 'u2'),
    ]);
    expect(one.load.waiting).toBeGreaterThan(0);
    expect(await peakWhile(one, checks)).toBe(1);
    const [right, wrong, unknown, again] = await checks;
    expect([right, wrong, unknown, again]).toEqual([true, false, false, true]);
    // the limit is what holds it: with two allowed, two run at once
    const two = new PasswordHasher(keyring, 2);
    expect(await peakWhile(two, Promise.all([1, 2, 3, 4].map(() => two.verify(sealed, 'wrong', 'u1'))))).toBe(2);
  });
});
