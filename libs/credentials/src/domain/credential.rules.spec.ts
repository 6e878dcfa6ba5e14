import { ValidationError } from '@gridrocket/shared';
import { CREDENTIAL_MESSAGES as M, parseAddCredential } from './credential.rules';

const valid = { exchange: 'Kucoin', apiKey: 'pub-key-123', keySecret: 'secret-secret-1', passPhrase: 'pass-1', userId: 'u1' };

function errorsOf(access: unknown): Record<string, string> {
  try {
    parseAddCredential({ access });
  } catch (e) {
    expect(e).toBeInstanceOf(ValidationError);
    return Object.fromEntries((e as ValidationError).errors.map((x) => [x.field, x.message]));
  }
  throw new Error('expected a ValidationError');
}

describe('API key form rules (spec section 5)', () => {
  it('accepts a valid Kucoin key with its passphrase', () => {
    expect(parseAddCredential({ access: valid })).toEqual({ exchange: 'Kucoin', apiKeyId: 'pub-key-123', secret: 'secret-secret-1', passphrase: 'pass-1', userId: 'u1' });
  });
  it('treats an empty passphrase as none, and drops a passphrase for Binance', () => {
    expect(parseAddCredential({ access: { ...valid, passPhrase: '' } }).passphrase).toBeNull();
    expect(parseAddCredential({ access: { ...valid, exchange: 'binance' } })).toMatchObject({ exchange: 'Binance', passphrase: null });
  });
  it('gives the spec\'s messages', () => {
    expect(errorsOf({})).toEqual({ exchange: M.exchangeRequired, apiKey: M.apiKeyRequired, keySecret: M.secretRequired });
    expect(errorsOf({ ...valid, apiKey: 'abcd' })).toEqual({ apiKey: 'API key must be at least 5 characters' });
    expect(errorsOf({ ...valid, apiKey: '' })).toEqual({ apiKey: 'API Key is required' });
    expect(errorsOf({ ...valid, keySecret: 'short' })).toEqual({ keySecret: 'Secret Key number must be at least 12 characters' });
    expect(errorsOf({ ...valid, keySecret: '' })).toEqual({ keySecret: 'Secret Key is required' });
    expect(errorsOf({ ...valid, keySecret: 'x'.repeat(101) })).toEqual({ keySecret: M.secretMax });
    expect(errorsOf({ ...valid, apiKey: 'x'.repeat(101) })).toEqual({ apiKey: M.apiKeyMax });
    expect(errorsOf({ ...valid, passPhrase: 'abc' })).toEqual({ passPhrase: M.passphraseMin });
    expect(errorsOf({ ...valid, passPhrase: 'x'.repeat(41) })).toEqual({ passPhrase: M.passphraseMax });
    expect(errorsOf({ ...valid, exchange: 'B' })).toEqual({ exchange: M.exchangeMin });
    expect(errorsOf({ ...valid, exchange: 'x'.repeat(21) })).toEqual({ exchange: M.exchangeMax });
    expect(errorsOf({ ...valid, exchange: 'Kraken' })).toEqual({ exchange: M.exchangeOneOf });
    expect(errorsOf({ ...valid, keySecret: 'has a space in it' })).toEqual({ keySecret: M.secretChars });
    expect(errorsOf({ ...valid, keySecret: 12345678901234 })).toEqual({ keySecret: 'Secret Key must be text' });
  });
  it('never echoes a submitted value in a message', () => {
    const secret = 'S3CRET-never-echo-' + 'z'.repeat(90);
    const e = errorsOf({ ...valid, keySecret: secret, apiKey: secret, passPhrase: secret });
    expect(JSON.stringify(e)).not.toContain('S3CRET');
  });
  it('refuses a body that is not an object', () => {
    expect(() => parseAddCredential('x')).toThrow(ValidationError);
    expect(() => parseAddCredential({ access: [1] })).toThrow(ValidationError);
    expect(() => parseAddCredential(null)).toThrow(ValidationError);
  });
});
