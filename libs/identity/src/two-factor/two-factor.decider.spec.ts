import { ConflictError, fold } from '@gridrocket/shared';
import { UserCommand, UserState, decideUser, evolveUser, initialUserState, userDecider } from '../domain/user.decider';
import { UserEvent } from '../domain/user.events';
import { CODE_REPLAYED, FRESH_CODE_NEEDED, SecondFactorNeededError, TwoFactorCodeError, WRONG_CODE, WRONG_RECOVERY_CODE } from './two-factor.decider';

const registered: UserEvent = { type: 'UserRegistered', data: { uid: 'u1', email: 'a@example.com', displayName: '', photoURL: null, passwordHash: 'sealed-hash', method: 'password' } };

function run(state: UserState, command: UserCommand): { events: UserEvent[]; state: UserState } {
  const events = decideUser(command, state);
  return { events, state: events.reduce(evolveUser, state) };
}

function enabled(): UserState {
  let s = fold(userDecider, [registered]);
  s = run(s, { type: 'StartTwoFactorEnrolment', enrolmentId: 'e1', sealedSecret: 'sealed-1' }).state;
  return run(s, { type: 'EnableTwoFactor', enrolmentId: 'e1', steps: [100], recoveryCodeDigests: ['r1', 'r2'] }).state;
}

const signIn = (extra: Partial<Extract<UserCommand, { type: 'SignIn' }>> = {}): UserCommand => ({
  type: 'SignIn',
  sessionId: 's1',
  expiresAt: '2099-01-01T00:00:00.000Z',
  method: 'password',
  checkedPasswordHash: 'sealed-hash',
  ...extra,
});

function refusal(f: () => unknown): { name: string; status: number; message: string } {
  try {
    f();
  } catch (e) {
    const err = e as TwoFactorCodeError;
    return { name: err.name, status: err.status, message: err.message };
  }
  throw new Error('not refused');
}

describe('two-factor sign-in in the user decider', () => {
  it('enrolment: started, then confirmed with a code from the pending secret; recovery codes kept as digests', () => {
    const s = enabled();
    expect(s.twoFactor).toMatchObject({ enabled: true, enrolmentId: 'e1', sealedSecret: 'sealed-1', pending: null, lastUsedStep: 100, recoveryCodes: ['r1', 'r2'] });
  });

  it('a wrong confirming code, a replaced setup and a second enable are refused', () => {
    let s = fold(userDecider, [registered]);
    s = run(s, { type: 'StartTwoFactorEnrolment', enrolmentId: 'e1', sealedSecret: 'x' }).state;
    expect(refusal(() => decideUser({ type: 'EnableTwoFactor', enrolmentId: 'e1', steps: [], recoveryCodeDigests: [] }, s))).toMatchObject({ status: 403, message: WRONG_CODE });
    s = run(s, { type: 'StartTwoFactorEnrolment', enrolmentId: 'e2', sealedSecret: 'y' }).state;
    expect(() => decideUser({ type: 'EnableTwoFactor', enrolmentId: 'e1', steps: [5], recoveryCodeDigests: [] }, s)).toThrow(ConflictError);
    const on = enabled();
    expect(() => decideUser({ type: 'StartTwoFactorEnrolment', enrolmentId: 'e3', sealedSecret: 'z' }, on)).toThrow(ConflictError);
  });

  it('without 2FA a right password signs in as before; with it, the sign-in needs a second factor', () => {
    expect(decideUser(signIn(), fold(userDecider, [registered])).map((e) => e.type)).toEqual(['UserSignedIn']);
    expect(() => decideUser(signIn(), enabled())).toThrow(SecondFactorNeededError);
    // the right password still comes first: a wrong one is the usual refusal, not "code needed"
    expect(refusal(() => decideUser(signIn({ checkedPasswordHash: 'other' }), enabled())).status).toBe(401);
    expect(() => decideUser(signIn({ checkedPasswordHash: 'other' }), enabled())).not.toThrow(SecondFactorNeededError);
  });

  it('a code is used up with the sign-in: the same step (or an earlier one) is refused as replayed', () => {
    const s = enabled();
    const first = run(s, signIn({ secondFactor: { kind: 'totp', enrolmentId: 'e1', steps: [101] } }));
    expect(first.events.map((e) => e.type)).toEqual(['TwoFactorCodeUsed', 'UserSignedIn']);
    expect(first.state.twoFactor.lastUsedStep).toBe(101);
    expect(refusal(() => decideUser(signIn({ sessionId: 's2', secondFactor: { kind: 'totp', enrolmentId: 'e1', steps: [101] } }), first.state))).toEqual({
      name: 'TwoFactorCodeError',
      status: 401,
      message: CODE_REPLAYED,
    });
    // the confirming code's step (100) is used too
    expect(refusal(() => decideUser(signIn({ secondFactor: { kind: 'totp', enrolmentId: 'e1', steps: [100] } }), s)).message).toBe(CODE_REPLAYED);
    // a code that matched two steps may still use the later one
    expect(decideUser(signIn({ sessionId: 's3', secondFactor: { kind: 'totp', enrolmentId: 'e1', steps: [101, 102] } }), first.state)[0]).toEqual({
      type: 'TwoFactorCodeUsed',
      data: { step: 102, purpose: 'sign-in' },
    });
    expect(refusal(() => decideUser(signIn({ secondFactor: { kind: 'totp', enrolmentId: 'e1', steps: [] } }), s)).message).toBe(WRONG_CODE);
    // checked against a secret that is no longer the account's
    expect(refusal(() => decideUser(signIn({ secondFactor: { kind: 'totp', enrolmentId: 'old', steps: [200] } }), s)).message).toBe(WRONG_CODE);
  });

  it('a recovery code works once', () => {
    const s = enabled();
    const used = run(s, signIn({ secondFactor: { kind: 'recovery-code', digest: 'r1' } }));
    expect(used.events.map((e) => e.type)).toEqual(['TwoFactorRecoveryCodeUsed', 'UserSignedIn']);
    expect(used.state.twoFactor.recoveryCodes).toEqual(['r2']);
    expect(refusal(() => decideUser(signIn({ sessionId: 's2', secondFactor: { kind: 'recovery-code', digest: 'r1' } }), used.state)).message).toBe(WRONG_RECOVERY_CODE);
  });

  it('a remembered browser skips the code for its enrolment only', () => {
    const s = enabled();
    expect(decideUser(signIn({ secondFactor: { kind: 'remembered-browser', enrolmentId: 'e1' } }), s).map((e) => e.type)).toEqual(['UserSignedIn']);
    expect(() => decideUser(signIn({ secondFactor: { kind: 'remembered-browser', enrolmentId: 'e0' } }), s)).toThrow(SecondFactorNeededError);
    // it never stands in for a code anywhere else
    expect(refusal(() => decideUser({ type: 'DisableTwoFactor', proof: { kind: 'remembered-browser', enrolmentId: 'e1' } }, s)).status).toBe(403);
    expect(refusal(() => decideUser({ type: 'ConfirmSensitiveAction', proof: { kind: 'remembered-browser', enrolmentId: 'e1' } }, s)).status).toBe(403);
  });

  it('sensitive actions: nothing asked without 2FA; with it a fresh code (not a recovery code), used up', () => {
    expect(decideUser({ type: 'ConfirmSensitiveAction', proof: null }, fold(userDecider, [registered]))).toEqual([]);
    const s = enabled();
    expect(refusal(() => decideUser({ type: 'ConfirmSensitiveAction', proof: null }, s))).toEqual({ name: 'TwoFactorCodeError', status: 403, message: FRESH_CODE_NEEDED });
    expect(refusal(() => decideUser({ type: 'ConfirmSensitiveAction', proof: { kind: 'recovery-code', digest: 'r1' } }, s)).status).toBe(403);
    const ok = run(s, { type: 'ConfirmSensitiveAction', proof: { kind: 'totp', enrolmentId: 'e1', steps: [101] } });
    expect(ok.events).toEqual([{ type: 'TwoFactorCodeUsed', data: { step: 101, purpose: 'sensitive-action' } }]);
    expect(refusal(() => decideUser({ type: 'ConfirmSensitiveAction', proof: { kind: 'totp', enrolmentId: 'e1', steps: [101] } }, ok.state)).message).toBe(CODE_REPLAYED);
  });

  it('disable needs a current code or a recovery code; afterwards sign-in needs none', () => {
    const s = enabled();
    expect(refusal(() => decideUser({ type: 'DisableTwoFactor', proof: null }, s)).status).toBe(403);
    const off = run(s, { type: 'DisableTwoFactor', proof: { kind: 'recovery-code', digest: 'r2' } });
    expect(off.events.map((e) => e.type)).toEqual(['TwoFactorRecoveryCodeUsed', 'TwoFactorDisabled']);
    expect(off.state.twoFactor).toMatchObject({ enabled: false, enrolmentId: null, recoveryCodes: [] });
    expect(decideUser(signIn(), off.state).map((e) => e.type)).toEqual(['UserSignedIn']);
    expect(() => decideUser({ type: 'DisableTwoFactor', proof: null }, off.state)).toThrow(ConflictError);
    const byCode = run(s, { type: 'DisableTwoFactor', proof: { kind: 'totp', enrolmentId: 'e1', steps: [101] } });
    expect(byCode.events[1]).toEqual({ type: 'TwoFactorDisabled', data: { enrolmentId: 'e1', method: 'code' } });
  });

  it('an account claimed through a provider (unverified address) loses the squatter\'s second factor too', () => {
    const s = enabled();
    const events = decideUser({ type: 'LinkProvider', provider: 'google', subject: 'g1', emailVerified: true, now: '2026-01-01T00:00:00.000Z' }, s);
    expect(events.map((e) => e.type)).toEqual(['PasswordChanged', 'TwoFactorDisabled', 'EmailVerified', 'ProviderLinked']);
    expect(events.reduce(evolveUser, s).twoFactor.enabled).toBe(false);
  });

  it('the initial state has 2FA off', () => {
    expect(initialUserState.twoFactor.enabled).toBe(false);
  });
});
