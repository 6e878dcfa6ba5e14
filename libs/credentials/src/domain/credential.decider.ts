import { ConflictError, Decider, NotFoundError } from '@gridrocket/shared';
import type { ExchangeName } from '@gridrocket/shared';
import { CredentialAddedData, CredentialEvent } from './credential.events';

export interface CredentialState {
  exists: boolean;
  removed: boolean;
  credentialId: string | null;
  userId: string | null;
  exchange: ExchangeName | null;
  apiKeyId: string | null;
  sealedSecret: string | null;
  sealedPassphrase: string | null;
  keyId: string | null;
}

/** Commands take values already sealed: the decider never sees a secret in clear. */
export type CredentialCommand =
  | { type: 'AddCredential'; data: CredentialAddedData }
  | { type: 'RemoveCredential'; credentialId: string; userId: string };

export const initialCredentialState: CredentialState = {
  exists: false,
  removed: false,
  credentialId: null,
  userId: null,
  exchange: null,
  apiKeyId: null,
  sealedSecret: null,
  sealedPassphrase: null,
  keyId: null,
};

export const CREDENTIAL_NOT_FOUND = 'API key not found';

export function decideCredential(command: CredentialCommand, state: CredentialState): CredentialEvent[] {
  switch (command.type) {
    case 'AddCredential':
      if (state.exists) throw new ConflictError('An API key with this id already exists');
      return [{ type: 'CredentialAdded', data: command.data }];
    case 'RemoveCredential':
      // Another user's credential is indistinguishable from a missing one (no enumeration).
      if (!state.exists || state.removed || state.userId !== command.userId) throw new NotFoundError(CREDENTIAL_NOT_FOUND);
      return [{ type: 'CredentialRemoved', data: { credentialId: command.credentialId, keyId: state.keyId! } }];
  }
}

export function evolveCredential(state: CredentialState, event: CredentialEvent): CredentialState {
  switch (event.type) {
    case 'CredentialAdded': {
      const d = event.data;
      return {
        exists: true,
        removed: false,
        credentialId: d.credentialId,
        userId: d.userId,
        exchange: d.exchange,
        apiKeyId: d.apiKeyId,
        sealedSecret: d.sealedSecret,
        sealedPassphrase: d.sealedPassphrase,
        keyId: d.keyId,
      };
    }
    case 'CredentialRemoved':
      return { ...state, removed: true };
    default:
      return state;
  }
}

export const credentialDecider: Decider<CredentialCommand, CredentialEvent, CredentialState> = {
  initialState: initialCredentialState,
  decide: decideCredential,
  evolve: evolveCredential,
};
