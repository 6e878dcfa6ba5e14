import { projectionSpec, type GivenEvent } from '@gridrocket/read-store/testing/projection-spec';
import type { UserEvent } from './domain/user.events';
import { SessionDoc, UserDoc, UserTokenDoc, sessionsProjection, userTokensProjection, usersProjection } from './identity.projections';

const on = (uid: string, e: UserEvent): GivenEvent => ({ streamId: `user-${uid}`, type: e.type, data: e.data });
const registered = (uid: string, email: string): UserEvent => ({
  type: 'UserRegistered',
  data: { uid, email, displayName: '', photoURL: null, passwordHash: 'v1.sealed', method: 'password' },
});
const signedIn = (sessionId: string): UserEvent => ({ type: 'UserSignedIn', data: { sessionId, expiresAt: '2030-01-01T00:00:00.000Z', method: 'password' } });
const signedOut = (sessionId: string): UserEvent => ({ type: 'UserSignedOut', data: { sessionId, reason: 'logout' } });
const verifyRequested = (tokenDigest: string): UserEvent => ({ type: 'EmailVerificationRequested', data: { tokenDigest, expiresAt: '2025-01-02T00:00:00.000Z' } });
const resetRequested = (tokenDigest: string): UserEvent => ({ type: 'PasswordResetRequested', data: { tokenDigest, expiresAt: '2025-01-01T01:00:00.000Z' } });
const verified: UserEvent = { type: 'EmailVerified', data: { email: 'ann@example.com', method: 'link' } };
const profile: UserEvent = { type: 'ProfileUpdated', data: { displayName: 'Ann', photoURL: 'https://example.com/ann.png' } };
const passwordChanged: UserEvent = { type: 'PasswordChanged', data: { passwordHash: 'v1.other', method: 'reset-link' } };

describe.each([
  ['delivered once', false],
  ['delivered twice (at-least-once subscription)', true],
])('identity projections, events %s', (_how, deliverTwice) => {
  describe('users (GET /api/auth/me)', () => {
    let spec: ReturnType<typeof projectionSpec<UserDoc>>;
    beforeEach(() => {
      spec = projectionSpec(usersProjection, { deliverTwice });
    });
    afterEach(() => spec.close());

    it('given a registration, a verification and a profile update, then the profile without the password hash', async () => {
      const docs = await spec.given(on('u1', registered('u1', 'ann@example.com')), on('u1', signedIn('s1')), on('u1', verified), on('u1', profile), on('u1', passwordChanged));
      expect(docs).toEqual([{ id: 'u1', uid: 'u1', email: 'ann@example.com', displayName: 'Ann', emailVerified: true, photoURL: 'https://example.com/ann.png' }]);
      expect(spec.announced).toEqual(['u1 UserRegistered', 'u1 EmailVerified', 'u1 ProfileUpdated']);
    });

    it('replaying every event changes and announces nothing', async () => {
      const before = await spec.given(on('u1', registered('u1', 'ann@example.com')), on('u1', verified), on('u2', registered('u2', 'bob@example.com')));
      expect(before.map((d) => [d.id, d.emailVerified])).toEqual([['u1', true], ['u2', false]]);
      expect(await spec.replayed()).toEqual(before);
      expect(spec.announced).toEqual([]);
    });
  });

  describe('sessions', () => {
    let spec: ReturnType<typeof projectionSpec<SessionDoc>>;
    beforeEach(() => {
      spec = projectionSpec(sessionsProjection, { deliverTwice });
    });
    afterEach(() => spec.close());

    it('given sign-ins and a sign-out, then one document per live session, keyed by the token digest', async () => {
      const docs = await spec.given(on('u1', registered('u1', 'ann@example.com')), on('u1', signedIn('d1')), on('u1', signedIn('d2')), on('u1', signedOut('d1')));
      expect(docs).toEqual([{ id: 'd2', uid: 'u1', expiresAt: '2030-01-01T00:00:00.000Z', createdAt: expect.any(String), lastSeenAt: expect.any(String), browser: null, address: null }]);
    });

    it('issue 30: a sign-in keeps its browser, address and time; SessionSeen moves "last seen" and the address', async () => {
      const withClient: UserEvent = { type: 'UserSignedIn', data: { sessionId: 'd1', expiresAt: '2030-01-01T00:00:00.000Z', method: 'password', browser: 'Chrome on Linux', address: '10.0.0.1' } };
      const [first] = await spec.given(on('u1', withClient));
      expect(first).toMatchObject({ id: 'd1', browser: 'Chrome on Linux', address: '10.0.0.1' });
      expect(first.lastSeenAt).toBe(first.createdAt);
      const [seen] = await spec.given(on('u1', { type: 'SessionSeen', data: { sessionId: 'd1', address: '10.0.0.2' } }));
      expect(seen).toMatchObject({ id: 'd1', browser: 'Chrome on Linux', address: '10.0.0.2', createdAt: first.createdAt });
      expect(Date.parse(seen.lastSeenAt!)).toBeGreaterThanOrEqual(Date.parse(first.createdAt!));
      // a SessionSeen of a session already ended brings nothing back
      const after = await spec.given(on('u1', signedOut('d1')), on('u1', { type: 'SessionSeen', data: { sessionId: 'd1' } }));
      expect(after).toEqual([]);
    });

    it('replaying every event does not bring a signed-out session back', async () => {
      const before = await spec.given(on('u1', signedIn('d1')), on('u1', signedOut('d1')), on('u1', signedIn('d2')));
      expect(await spec.replayed()).toEqual(before);
      expect(before.map((d) => d.id)).toEqual(['d2']);
      expect(spec.announced).toEqual([]);
    });
  });

  describe('emailed link tokens', () => {
    let spec: ReturnType<typeof projectionSpec<UserTokenDoc>>;
    beforeEach(() => {
      spec = projectionSpec(userTokensProjection, { deliverTwice });
    });
    afterEach(() => spec.close());

    it('given verification and reset requests, then one document per token digest with its purpose and expiry', async () => {
      const docs = await spec.given(on('u1', registered('u1', 'ann@example.com')), on('u1', verifyRequested('t1')), on('u1', resetRequested('t2')));
      expect(docs).toEqual([
        { id: 't1', uid: 'u1', purpose: 'verify-email', expiresAt: '2025-01-02T00:00:00.000Z' },
        { id: 't2', uid: 'u1', purpose: 'reset-password', expiresAt: '2025-01-01T01:00:00.000Z' },
      ]);
    });

    it('replaying every event changes and announces nothing', async () => {
      const before = await spec.given(on('u1', verifyRequested('t1')), on('u2', resetRequested('t2')));
      expect(await spec.replayed()).toEqual(before);
      expect(spec.announced).toEqual([]);
    });
  });
});
