import { base32Decode, base32Encode, hotp, matchingSteps, newRecoveryCodes, normalizeRecoveryCode, normalizeTotpCode, otpauthUri, totpAt, totpStep } from './totp';

describe('TOTP (RFC 6238 over RFC 4226)', () => {
  const rfcSecret = Buffer.from('12345678901234567890', 'ascii');

  it('HOTP gives the values of RFC 4226 appendix D', () => {
    const expected = ['755224', '287082', '359152', '969429', '338314', '254676', '287922', '162583', '399871', '520489'];
    expect(expected.map((_, c) => hotp(rfcSecret, c))).toEqual(expected);
  });

  it('TOTP (SHA-1, 8 digits) gives the values of RFC 6238 appendix B', () => {
    const vectors: Array<[number, string]> = [
      [59, '94287082'],
      [1111111109, '07081804'],
      [1111111111, '14050471'],
      [1234567890, '89005924'],
      [2000000000, '69279037'],
      [20000000000, '65353130'],
    ];
    for (const [t, code] of vectors) expect({ t, code: totpAt(rfcSecret, t * 1000, 8) }).toEqual({ t, code });
  });

  it('a code matches in its own step and one step either side, not two', () => {
    const now = 1_700_000_000_000;
    const step = totpStep(now);
    const code = hotp(rfcSecret, step);
    expect(matchingSteps(rfcSecret, code, now)).toEqual([step]);
    expect(matchingSteps(rfcSecret, code, now + 30_000)).toEqual([step]);
    expect(matchingSteps(rfcSecret, code, now - 30_000)).toEqual([step]);
    expect(matchingSteps(rfcSecret, code, now + 60_000)).toEqual([]);
    expect(matchingSteps(rfcSecret, code, now - 60_000)).toEqual([]);
    expect(matchingSteps(rfcSecret, `${code.slice(0, 3)} ${code.slice(3)}`, now)).toEqual([step]);
    expect(matchingSteps(rfcSecret, '12345', now)).toEqual([]);
    expect(matchingSteps(rfcSecret, 'abcdef', now)).toEqual([]);
  });

  it('base32 round-trips and decodes what authenticator apps show (RFC 4648 test vector)', () => {
    expect(base32Encode(Buffer.from('foobar'))).toBe('MZXW6YTBOI');
    expect(base32Decode('mzxw 6ytb oi======')!.toString()).toBe('foobar');
    expect(base32Decode('MZ1')).toBeNull();
    const b = Buffer.from([0, 1, 2, 250, 251, 252, 253, 254, 255, 7]);
    expect(base32Decode(base32Encode(b))).toEqual(b);
  });

  it('the otpauth URI names the issuer, the account and the secret', () => {
    const uri = new URL(otpauthUri('JBSWY3DPEHPK3PXP', 'ann@example.com'));
    expect(uri.protocol).toBe('otpauth:');
    expect(uri.host).toBe('totp');
    expect(decodeURIComponent(uri.pathname)).toBe('/GridRocket:ann@example.com');
    expect(Object.fromEntries(uri.searchParams)).toEqual({ secret: 'JBSWY3DPEHPK3PXP', issuer: 'GridRocket', algorithm: 'SHA1', digits: '6', period: '30' });
  });

  it('codes are normalised; recovery codes are ten distinct 80-bit codes', () => {
    expect(normalizeTotpCode(' 123 456 ')).toBe('123456');
    expect(normalizeTotpCode('1234567')).toBeNull();
    const codes = newRecoveryCodes();
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const c of codes) expect(c).toMatch(/^[a-z2-7]{4}-[a-z2-7]{4}-[a-z2-7]{4}-[a-z2-7]{4}$/);
    expect(normalizeRecoveryCode(codes[0].toUpperCase().replace(/-/g, ' '))).toBe(codes[0].replace(/-/g, ''));
    expect(normalizeRecoveryCode('abcd-efgh')).toBeNull();
  });
});
