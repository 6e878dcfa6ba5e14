import { credentialsSchema, parseOrThrow, registerSchema, resetPasswordSchema } from '../auth.rules';
import { COMMON_PASSWORD, commonPasswordCount, isCommonPassword } from './common-passwords';

describe('common passwords (issue 30)', () => {
  it('bundles at least 10,000 passwords', () => {
    expect(commonPasswordCount()).toBeGreaterThanOrEqual(10_000);
  });

  it.each(['password', '12345678', 'Password', 'PASSWORD1', 'qwertyuiop', 'iloveyou', 'trustno1'])('refuses %s', (p) => {
    expect(isCommonPassword(p)).toBe(true);
  });

  it.each(['aaaaaaaa', '00000000', '12341234', 'abcabcab', 'abcdefgh', '87654321', 'ZYXWVUTS'])('refuses the repeat or sequence %s (left out of the list by its generator)', (p) => {
    expect(isCommonPassword(p)).toBe(true);
  });

  it.each(['correct-horse-1', 'abcdefgh1x', 'Gr1dR0cket!tr4der', 'plum-violin-47'])('lets %s through', (p) => {
    expect(isCommonPassword(p)).toBe(false);
  });

  it('register and reset refuse a common password with the field message; the lengths keep the spec messages', () => {
    const refused = (fn: () => unknown) => {
      try {
        fn();
      } catch (err) {
        return (err as { errors: unknown }).errors;
      }
      throw new Error('not refused');
    };
    expect(refused(() => parseOrThrow(registerSchema, { email: 'a@example.com', password: 'password' }))).toEqual([{ field: 'password', message: COMMON_PASSWORD }]);
    expect(refused(() => parseOrThrow(resetPasswordSchema, { token: 't', password: '12345678' }))).toEqual([{ field: 'password', message: COMMON_PASSWORD }]);
    expect(refused(() => parseOrThrow(registerSchema, { email: 'a@example.com', password: 'short' }))).toEqual([
      { field: 'password', message: 'Password must be at least 8 characters' },
    ]);
    expect(parseOrThrow(registerSchema, { email: 'a@example.com', password: 'correct-horse-1' }).password).toBe('correct-horse-1');
  });

  it('sign-in does not judge the password (an old common password still signs in)', () => {
    expect(parseOrThrow(credentialsSchema, { email: 'a@example.com', password: 'password' }).password).toBe('password');
  });
});
