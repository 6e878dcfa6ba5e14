import { ConflictError, NotFoundError } from '@gridrocket/shared';
import { deciderSpec } from '@gridrocket/shared/testing/decider-spec';
import { CredentialCommand, credentialDecider } from './credential.decider';
import { CredentialAddedData, CredentialEvent } from './credential.events';

const added: CredentialEvent = {
  type: 'CredentialAdded',
  data: { credentialId: 'c1', userId: 'u1', exchange: 'Kucoin', apiKeyId: 'pub-key-1', sealedSecret: 'v1.a.b.c', sealedPassphrase: 'v1.d.e.f', keyId: 'k1' },
};
const removed: CredentialEvent = { type: 'CredentialRemoved', data: { credentialId: 'c1', keyId: 'k1' } };

const { given } = deciderSpec(credentialDecider);

const add: CredentialCommand = { type: 'AddCredential', data: added.data as CredentialAddedData };
const remove: CredentialCommand = { type: 'RemoveCredential', credentialId: 'c1', userId: 'u1' };

describe('credential decider', () => {
  it('given nothing, when added, then CredentialAdded with ciphertext only', () => {
    given().when(add).then(added);
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
