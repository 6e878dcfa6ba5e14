import { LINK_TOKEN_PATTERN, LinkTokens } from './link-tokens';
import { mailKindOf, outboxMessageId } from './mail/mail-outbox';

const key = Buffer.alloc(32, 1);
const seedKey = Buffer.alloc(32, 2);

describe('link tokens made again from a seed (issue 31: the mail outbox stores no token)', () => {
  it('the token of a seed is the same every time, has the shape of a link token, and its digest is what the event holds', () => {
    const tokens = new LinkTokens(key, seedKey);
    const { token, digest, seed } = tokens.issueSeeded();
    expect(token).toMatch(LINK_TOKEN_PATTERN);
    expect(tokens.fromSeed(seed)).toBe(token);
    expect(tokens.digest(tokens.fromSeed(seed))).toBe(digest);
    expect(seed).not.toBe(token);
  });

  it('without the seed key the seed makes another token (a leaked event store opens no link)', () => {
    const { token, seed } = new LinkTokens(key, seedKey).issueSeeded();
    expect(new LinkTokens(key, Buffer.alloc(32, 3)).fromSeed(seed)).not.toBe(token);
  });

  it('two requests get two seeds and two tokens', () => {
    const tokens = new LinkTokens(key, seedKey);
    const a = tokens.issueSeeded();
    const b = tokens.issueSeeded();
    expect(a.seed).not.toBe(b.seed);
    expect(a.token).not.toBe(b.token);
  });
});

describe('the mail of an event', () => {
  it('verification, reset and the registration notice', () => {
    expect(mailKindOf({ type: 'EmailVerificationRequested', data: {} })).toBe('verify-email');
    expect(mailKindOf({ type: 'PasswordResetRequested', data: {} })).toBe('reset-password');
    expect(mailKindOf({ type: 'PasswordResetRequested', data: { reason: 'forgot-password' } })).toBe('reset-password');
    expect(mailKindOf({ type: 'PasswordResetRequested', data: { reason: 'registration-attempt' } })).toBe('registration-attempt');
    expect(mailKindOf({ type: 'EmailVerified', data: {} })).toBeNull();
  });

  it('one Message-ID per causing event, on the public host', () => {
    const id = outboxMessageId('0190a5e2-7c1b-7000-8000-000000000001', 'https://grid.example.com');
    expect(id).toMatch(/^<mail-[0-9a-f]{32}@grid\.example\.com>$/);
    expect(outboxMessageId('0190a5e2-7c1b-7000-8000-000000000001', 'https://grid.example.com')).toBe(id);
    expect(outboxMessageId('0190a5e2-7c1b-7000-8000-000000000002', 'https://grid.example.com')).not.toBe(id);
  });
});
