import { sameSecret } from '@gridrocket/shared/http';

describe('sameSecret', () => {
  it('is true only for the same string', () => {
    expect(sameSecret('abc123', 'abc123')).toBe(true);
    expect(sameSecret('abc124', 'abc123')).toBe(false);
    expect(sameSecret('abc12', 'abc123')).toBe(false);
  });
  it('a string of the right length with non-ASCII characters is unequal, not an exception', () => {
    expect(sameSecret('abc12\u00e9', 'abc123')).toBe(false);
    expect(sameSecret('\u00ff'.repeat(6), 'abc123')).toBe(false);
    expect(sameSecret('ab\u{1F600}12', 'abc123')).toBe(false);
  });
  it('nothing sent or nothing expected is never equal', () => {
    expect(sameSecret(undefined, 'abc')).toBe(false);
    expect(sameSecret('', '')).toBe(false);
    expect(sameSecret('abc', null)).toBe(false);
  });
});
