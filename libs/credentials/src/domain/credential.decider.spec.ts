import { ConflictError, NotFoundError, ValidationError } from '@gridrocket/shared';
import { deciderSpec } from '@gridrocket/shared/testing/decider-spec';
import { CredentialCommand, credentialDecider } from './credential.decider';
import { CredentialAddedData, CredentialEvent } from './credential.events';

const added: CredentialEvent = {
  type: 'CredentialAdded',
  data: { credentialId: 'c1', userId: 'u1', exchange: 'Kucoin', apiKeyId: 'pub-key-1', sealedSecret: 'v1.a.b.c', sealedPassphrase: 'v1.d.e.f', keyId: 'k1' },
};
const removed: CredentialEvent = { type: 'CredentialRemoved', data: { credentialId: 'c1', keyId: 'k1' } };

const { given } = deciderSpec(credentialDecider);

const tradingOnly = { withdraw: false, read: true, spot: true, futures: true, ipRestricted: true };
const checkedAt = '2026-01-01T00:00:00.000Z';
const add: CredentialCommand = { type: 'AddCredential', data: added.data as CredentialAddedData, permissions: tradingOnly, checkedAt };
const checkedOnAdd: CredentialEvent = { type: 'CredentialPermissionsChecked', data: { credentialId: 'c1', checkedAt, source: 'add', permissions: tradingOnly, failure: null } };
const remove: CredentialCommand = { type: 'RemoveCredential', credentialId: 'c1', userId: 'u1' };

describe('credential decider', () => {
  it('given nothing, when a trading-only key is added, then CredentialAdded with ciphertext only, and what the venue reported', () => {
    given().when(add).then(added, checkedOnAdd);
  });
  it.each([
    ['can withdraw', { withdraw: true }, /can withdraw funds; GridRocket accepts only keys that cannot\. On KuCoin, open Account → API Management/],
    ['trades neither spot nor futures', { spot: false, futures: false }, /cannot trade: the bots need Spot for spot bots or Futures for futures bots/],
    ['cannot read the account', { read: false }, /cannot read the account \(General is off\)/],
  ])('given nothing, when a key that %s is added, then 400 on apiKey saying how to make a trading-only key', (_what, change, message) => {
    given().when({ ...add, permissions: { ...tradingOnly, ...change } } as CredentialCommand).thenThrows(ValidationError);
    try {
      credentialDecider.decide({ ...add, permissions: { ...tradingOnly, ...change } } as CredentialCommand, credentialDecider.initialState);
    } catch (e) {
      expect((e as ValidationError).errors).toEqual([{ field: 'apiKey', message: expect.stringMatching(message) }]);
    }
  });
  it('given a key without an IP restriction, when added, then it is accepted (the list warns)', () => {
    const open = { ...tradingOnly, ipRestricted: false };
    given().when({ ...add, permissions: open } as CredentialCommand).then(added, { type: 'CredentialPermissionsChecked', data: { ...checkedOnAdd.data, permissions: open } } as CredentialEvent);
  });
  it('given a key, when a daily check finds it can withdraw, then the fact is recorded; a failed check keeps the last facts', () => {
    const later = '2026-01-02T00:00:00.000Z';
    const withdraw = { ...tradingOnly, withdraw: true };
    given(added, checkedOnAdd)
      .when({ type: 'RecordPermissionCheck', credentialId: 'c1', checkedAt: later, source: 'daily', permissions: withdraw, failure: null })
      .then({ type: 'CredentialPermissionsChecked', data: { credentialId: 'c1', checkedAt: later, source: 'daily', permissions: withdraw, failure: null } });
    const failed: CredentialEvent = { type: 'CredentialPermissionsChecked', data: { credentialId: 'c1', checkedAt: later, source: 'daily', permissions: null, failure: 'refused' } };
    const s = [added, checkedOnAdd, failed].reduce(credentialDecider.evolve, credentialDecider.initialState);
    expect(s).toMatchObject({ permissions: tradingOnly, checkFailure: 'refused', lastCheckedAt: later });
  });
  it('given a removed key, when a check is recorded, then nothing; given none, not found', () => {
    const check: CredentialCommand = { type: 'RecordPermissionCheck', credentialId: 'c1', checkedAt, source: 'daily', permissions: tradingOnly, failure: null };
    given(added, removed).when(check).then();
    given().when(check).thenThrows(NotFoundError);
  });
  it('given an existing credential, when added again, then conflict', () => {
    given(added).when(add).thenThrows(ConflictError);
  });
  it('given the owner\'s credential, when removed, then CredentialRemoved naming the data key to destroy', () => {
    given(added).when(remove).then(removed);
  });
  it('given another user\'s credential, when removed, then not found', () => {
    given(added).when({ ...remove, userId: 'u2' } as CredentialCommand).thenThrows(NotFoundError);
  });
  it('given no credential or a removed one, when removed, then not found', () => {
    given().when(remove).thenThrows(NotFoundError);
    given(added, removed).when(remove).thenThrows(NotFoundError);
  });
  it('folds to a state that knows the key id and whether it was removed', () => {
    const s = [added, removed].reduce(credentialDecider.evolve, credentialDecider.initialState);
    expect(s).toMatchObject({ exists: true, removed: true, keyId: 'k1', userId: 'u1', exchange: 'Kucoin' });
  });
});
