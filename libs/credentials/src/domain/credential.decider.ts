import { ConflictError, deciderOf, evolveByType, NotFoundError, ValidationError } from '@gridrocket/shared';
import type { ExchangeName } from '@gridrocket/shared';
import { CredentialAddedData, CredentialEvent, CredentialPermissionsCheckedData } from './credential.events';
import { KeyCheckFailure, KeyPermissionFacts, keyRefusal } from './key-permissions.rules';

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
  /** The last facts the venue reported (issue 30); null before the first check. */
  permissions: KeyPermissionFacts | null;
  /** The last check's failure (null when it gave facts). */
  checkFailure: KeyCheckFailure | null;
  lastCheckedAt: string | null;
}

/**
 * Commands take values already sealed: the decider never sees a secret in clear. AddCredential carries
 * what the venue reported for the key (asked with it just before): a key that can withdraw, cannot trade or
 * cannot read is refused here (400 on apiKey, with how to make a trading-only key).
 */
export type CredentialCommand =
  | { type: 'AddCredential'; data: CredentialAddedData; permissions: KeyPermissionFacts; checkedAt: string }
  | { type: 'RecordPermissionCheck'; credentialId: string; checkedAt: string; source: 'daily' | 'start'; permissions: KeyPermissionFacts | null; failure: KeyCheckFailure | null }
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
  permissions: null,
  checkFailure: null,
  lastCheckedAt: null,
};

export const CREDENTIAL_NOT_FOUND = 'API key not found';

export function decideCredential(command: CredentialCommand, state: CredentialState): CredentialEvent[] {
  switch (command.type) {
    case 'AddCredential': {
      if (state.exists) throw new ConflictError('An API key with this id already exists');
      const refusal = keyRefusal(command.data.exchange, command.permissions);
      if (refusal) throw new ValidationError([{ field: 'apiKey', message: refusal }], refusal);
      const checked: CredentialPermissionsCheckedData = { credentialId: command.data.credentialId, checkedAt: command.checkedAt, source: 'add', permissions: { ...command.permissions }, failure: null };
      return [
        { type: 'CredentialAdded', data: command.data },
        { type: 'CredentialPermissionsChecked', data: checked },
      ];
    }
    case 'RecordPermissionCheck': {
      // A key removed meanwhile records nothing (the check raced its removal); an unknown one is not found.
      if (!state.exists) throw new NotFoundError(CREDENTIAL_NOT_FOUND);
      if (state.removed) return [];
      const { credentialId, checkedAt, source, permissions, failure } = command;
      return [{ type: 'CredentialPermissionsChecked', data: { credentialId, checkedAt, source, permissions: permissions ? { ...permissions } : null, failure: permissions ? null : failure } }];
    }
    case 'RemoveCredential':
      // Another user's credential is indistinguishable from a missing one (no enumeration).
      if (!state.exists || state.removed || state.userId !== command.userId) throw new NotFoundError(CREDENTIAL_NOT_FOUND);
      return [{ type: 'CredentialRemoved', data: { credentialId: command.credentialId, keyId: state.keyId! } }];
  }
}

export const evolveCredential = evolveByType<CredentialEvent, CredentialState>({
  CredentialAdded: (state, event) => {
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
      permissions: null,
      checkFailure: null,
      lastCheckedAt: null,
    };
  },
  CredentialPermissionsChecked: (state, event) => {
    const d = event.data;
    // A failed check keeps the facts of the last good one.
    return { ...state, permissions: d.permissions ?? state.permissions, checkFailure: d.permissions ? null : d.failure, lastCheckedAt: d.checkedAt };
  },
  CredentialRemoved: (state) => ({ ...state, removed: true }),
});

export const credentialDecider = deciderOf<CredentialCommand, CredentialEvent, CredentialState>(initialCredentialState, decideCredential, evolveCredential);
