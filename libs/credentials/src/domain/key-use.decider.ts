import { ConflictError, deciderOf, evolveByType } from '@gridrocket/shared';

/**
 * Who uses a user's API keys of one exchange (issue 29, Found 5), event-sourced in
 * `keyuse-<uid>-<exchange>`: a bot's start claims the exchange's key here before it is requested, and a
 * key's removal is recorded here before the key is removed. Both are decided on this stream and appended
 * with the revision they decided on, so a start and a removal at the same moment cannot both pass: the
 * second append conflicts and decides again on what the first wrote (as the quotas are, allotment.decider.ts).
 * A bot uses the newest live key of its exchange (CredentialResolver). Pure: the caller says which
 * claimed bots are still active (their streams are read when the removal is decided) and which keys live.
 */
export type KeyUseEvent =
  /** A bot's start claimed the key; `botRevision` is the bot's stream revision the start decided on. */
  | { type: 'KeyUseClaimed'; data: { botId: string; botRevision: number; at: string } }
  /** A removal found these claims over (the bot stopped since). */
  | { type: 'KeyUseReleased'; data: { botId: string } }
  /** A key is being removed: from now on no start counts on it. */
  | { type: 'KeyRemovalRecorded'; data: { credentialId: string } };

export interface KeyClaim {
  botId: string;
  botRevision: number;
  at: string;
}

export interface KeyUseState {
  claims: Map<string, KeyClaim>;
  removing: Set<string>;
}

/** An active bot that uses the key, as the refusal names it. */
export interface KeyUser {
  botId: string;
  label: string;
}

export type KeyUseCommand =
  | { type: 'ClaimKey'; botId: string; botRevision: number; at: string; liveCredentialIds: readonly string[]; refusal: string }
  | {
      type: 'RemoveKey';
      credentialId: string;
      /** The key is the one the exchange's bots sign with (the newest live one). */
      inUse: boolean;
      /** The claimed bots that are still active (or whose start is still under way). */
      active: readonly KeyUser[];
    };

export const initialKeyUseState: KeyUseState = { claims: new Map(), removing: new Set() };

export const keyUseStream = (userId: string, exchange: string) => `keyuse-${userId}-${exchange}`;

/** The refusal of a removal (HTTP 409), naming the bots. */
export const keyInUseMessage = (users: readonly KeyUser[]) =>
  `This API key is used by ${users.length === 1 ? 'a running bot' : `${users.length} running bots`}: ${users.map((u) => u.label).join(', ')}. Stop ${users.length === 1 ? 'it' : 'them'} before deleting the key.`;

/** The live keys a start can still count on: those whose removal has not begun. */
export function usableKeys(state: KeyUseState, liveCredentialIds: readonly string[]): string[] {
  return liveCredentialIds.filter((id) => !state.removing.has(id));
}

export function decideKeyUse(command: KeyUseCommand, state: KeyUseState): KeyUseEvent[] {
  switch (command.type) {
    case 'ClaimKey':
      if (usableKeys(state, command.liveCredentialIds).length === 0) throw new ConflictError(command.refusal);
      return [{ type: 'KeyUseClaimed', data: { botId: command.botId, botRevision: command.botRevision, at: command.at } }];
    case 'RemoveKey': {
      if (command.inUse && command.active.length > 0) throw new ConflictError(keyInUseMessage(command.active));
      const active = new Set(command.active.map((u) => u.botId));
      const released = [...state.claims.keys()].filter((id) => !active.has(id));
      return [
        ...released.map((botId) => ({ type: 'KeyUseReleased' as const, data: { botId } })),
        { type: 'KeyRemovalRecorded', data: { credentialId: command.credentialId } },
      ];
    }
  }
}

export const evolveKeyUse = evolveByType<KeyUseEvent, KeyUseState>({
  KeyUseClaimed: (state, event) => {
    const claims = new Map(state.claims);
    claims.set(event.data.botId, { ...event.data });
    return { ...state, claims };
  },
  KeyUseReleased: (state, event) => {
    const claims = new Map(state.claims);
    claims.delete(event.data.botId);
    return { ...state, claims };
  },
  KeyRemovalRecorded: (state, event) => ({ ...state, removing: new Set(state.removing).add(event.data.credentialId) }),
});

export const keyUseDecider = deciderOf<KeyUseCommand, KeyUseEvent, KeyUseState>(initialKeyUseState, decideKeyUse, evolveKeyUse);
