import { fold } from '@gridrocket/shared';
import { UserCommand, UserState, decideUser, evolveUser, userDecider } from '../domain/user.decider';
import { UserEvent } from '../domain/user.events';
import { ACCESS_TOKEN_QUOTA, ACCESS_TOKEN_QUOTA_MESSAGE } from './access-token.decider';
import { accessTokensProjection } from './access-token.projection';

const registered: UserEvent = { type: 'UserRegistered', data: { uid: 'u1', email: 'a@example.com', displayName: '', photoURL: null, passwordHash: 'sealed-hash', method: 'password' } };
const NOW = '2026-11-26T12:00:00.000Z';

function run(state: UserState, command: UserCommand): { events: UserEvent[]; state: UserState } {
  const events = decideUser(command, state);
  return { events, state: events.reduce(evolveUser, state) };
}
const create = (tokenId: string, expiresAt = '2026-12-26T12:00:00.000Z'): UserCommand => ({ type: 'CreateAccessToken', tokenId, digest: `d-${tokenId}`, name: tokenId, scopes: ['read'], expiresAt, now: NOW });
function refusal(f: () => unknown): { status: number; message: string } {
  try {
    f();
  } catch (e) {
    return { status: (e as { status: number }).status, message: (e as Error).message };
  }
  throw new Error('not refused');
}

describe('access tokens in the user decider (issue 31)', () => {
  it('a created token is an event carrying only its digest; revoking it names the digest so its document goes', () => {
    let s = fold(userDecider, [registered]);
    const made = run(s, create('t1'));
    expect(made.events).toEqual([{ type: 'AccessTokenCreated', data: { tokenId: 't1', digest: 'd-t1', name: 't1', scopes: ['read'], expiresAt: '2026-12-26T12:00:00.000Z' } }]);
    s = made.state;
    expect(run(s, { type: 'RevokeAccessToken', tokenId: 't1' }).events).toEqual([{ type: 'AccessTokenRevoked', data: { tokenId: 't1', digest: 'd-t1', reason: 'revoked' } }]);
    s = run(s, { type: 'RevokeAccessToken', tokenId: 't1' }).state;
    expect(refusal(() => decideUser({ type: 'RevokeAccessToken', tokenId: 't1' }, s)).status).toBe(404);
  });

  it(`at most ${ACCESS_TOKEN_QUOTA} live tokens; expired ones do not count; revoking one makes room`, () => {
    let s = fold(userDecider, [registered]);
    s = run(s, create('old', '2026-11-01T00:00:00.000Z')).state; // expired by NOW
    for (let i = 0; i < ACCESS_TOKEN_QUOTA; i++) s = run(s, create(`t${i}`)).state;
    expect(refusal(() => decideUser(create('t-extra'), s))).toEqual({ status: 409, message: ACCESS_TOKEN_QUOTA_MESSAGE });
    s = run(s, { type: 'RevokeAccessToken', tokenId: 't3' }).state;
    expect(run(s, create('t-extra')).events).toHaveLength(1);
  });

  it('no scope is refused; a token id is not reused; an unknown user has none', () => {
    const s = fold(userDecider, [registered]);
    expect(refusal(() => decideUser({ ...(create('t1') as Extract<UserCommand, { type: 'CreateAccessToken' }>), scopes: [] }, s)).status).toBe(400);
    expect(refusal(() => decideUser(create('t1'), run(s, create('t1')).state)).status).toBe(409);
    expect(refusal(() => decideUser(create('t1'), fold(userDecider, []))).status).toBe(404);
  });

  it('the account claimed by a provider revokes every token (whoever squatted the address made them)', () => {
    let s = fold(userDecider, [registered]);
    s = run(s, create('t1')).state;
    s = run(s, create('t2')).state;
    const claimed = decideUser({ type: 'LinkProvider', provider: 'google', subject: 'g-1', emailVerified: true, now: NOW }, s);
    expect(claimed.filter((e) => e.type === 'AccessTokenRevoked').map((e) => e.data)).toEqual([
      { tokenId: 't1', digest: 'd-t1', reason: 'account-claimed' },
      { tokenId: 't2', digest: 'd-t2', reason: 'account-claimed' },
    ]);
    expect(claimed.reduce(evolveUser, s).accessTokens.size).toBe(0);
  });

  it('a password reset through the mailed link revokes every token, as it ends every session', () => {
    let s = fold(userDecider, [registered, { type: 'PasswordResetRequested', data: { tokenDigest: 'r1', expiresAt: '2099-01-01T00:00:00.000Z' } }]);
    s = run(s, create('t1')).state;
    const reset = decideUser({ type: 'ResetPassword', tokenDigest: 'r1', passwordHash: 'new-hash', now: NOW }, s);
    expect(reset.filter((e) => e.type === 'AccessTokenRevoked').map((e) => e.data)).toEqual([{ tokenId: 't1', digest: 'd-t1', reason: 'password-reset' }]);
    expect(reset.reduce(evolveUser, s).accessTokens.size).toBe(0);
  });

  it('the projection keeps a token by its digest, without the token, and deletes it when revoked', () => {
    const meta = { streamId: 'user-u1', created: NOW } as never;
    const created = { ...(meta as object), type: 'AccessTokenCreated', data: { tokenId: 't1', digest: 'd-t1', name: 'n', scopes: ['read', 'trade'], expiresAt: '2026-12-26T12:00:00.000Z' } } as never;
    expect(accessTokensProjection.docId(created)).toBe('d-t1');
    expect(accessTokensProjection.reduce(undefined as never, created)).toEqual({ id: 'd-t1', tokenId: 't1', uid: 'u1', name: 'n', scopes: ['read', 'trade'], createdAt: NOW, expiresAt: '2026-12-26T12:00:00.000Z' });
    const revoked = { ...(meta as object), type: 'AccessTokenRevoked', data: { tokenId: 't1', digest: 'd-t1', reason: 'revoked' } } as never;
    expect(accessTokensProjection.docId(revoked)).toBe('d-t1');
    expect(accessTokensProjection.reduce({} as never, revoked)).toBeNull();
  });
});
