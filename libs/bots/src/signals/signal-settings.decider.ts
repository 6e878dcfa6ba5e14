import { ConflictError, Decider, NotFoundError } from '@gridrocket/shared';
import { SignalHeldPosition, SignalSecretData, SignalSettingsEvent } from './signal.events';

/** A bot's signal webhook (stream `signal-webhook-<botId>`), the secret sealed. */
export interface SignalSettingsState {
  enabled: boolean;
  botId: string | null;
  userId: string | null;
  generation: number;
  sealedSecret: string | null;
  secretLast4: string | null;
  allowBodySecret: boolean;
  /** What a start signal does with a held position (issue 40): `refuse` unless the owner chose otherwise. */
  heldPosition: SignalHeldPosition;
}

/**
 * The secret arrives sealed: the decider never sees it in clear. The caller checked that the bot is
 * the user's own (the bot's stream), so `userId` here is the owner's.
 */
export type SignalSettingsCommand =
  /** `expectedGeneration`: the generation the caller read; the secret in `data` is sealed for the next one. */
  | { type: 'EnableSignalWebhook'; data: SignalSecretData; expectedGeneration: number }
  | { type: 'RotateSignalSecret'; data: SignalSecretData; expectedGeneration: number }
  | { type: 'DisableSignalWebhook'; botId: string; userId: string }
  /** Issue 40: the owner's standing choice for a held position (signals on only). */
  | { type: 'ChooseHeldPosition'; botId: string; userId: string; heldPosition: SignalHeldPosition };

export const SIGNALS_NOT_ENABLED = 'Signals are not enabled for this bot';
export const SIGNALS_ALREADY_ENABLED = 'Signals are already enabled for this bot: rotate the secret to get a new one';

export const initialSignalSettings: SignalSettingsState = {
  enabled: false,
  botId: null,
  userId: null,
  generation: 0,
  sealedSecret: null,
  secretLast4: null,
  allowBodySecret: false,
  heldPosition: 'refuse',
};

export const SIGNALS_CHANGED = 'The signal webhook changed meanwhile: try again';

export function decideSignalSettings(command: SignalSettingsCommand, state: SignalSettingsState): SignalSettingsEvent[] {
  if (command.type === 'ChooseHeldPosition') {
    if (!state.enabled) throw new NotFoundError(SIGNALS_NOT_ENABLED);
    if (state.heldPosition === command.heldPosition) return [];
    return [{ type: 'SignalHeldPositionChosen', data: { botId: command.botId, userId: command.userId, heldPosition: command.heldPosition } }];
  }
  if (command.type !== 'DisableSignalWebhook' && (state.generation !== command.expectedGeneration || command.data.generation !== state.generation + 1)) {
    throw new ConflictError(SIGNALS_CHANGED);
  }
  switch (command.type) {
    case 'EnableSignalWebhook':
      if (state.enabled) throw new ConflictError(SIGNALS_ALREADY_ENABLED);
      return [{ type: 'SignalWebhookEnabled', data: command.data }];
    case 'RotateSignalSecret':
      if (!state.enabled) throw new NotFoundError(SIGNALS_NOT_ENABLED);
      return [{ type: 'SignalWebhookRotated', data: command.data }];
    case 'DisableSignalWebhook':
      if (!state.enabled) return [];
      return [{ type: 'SignalWebhookDisabled', data: { botId: command.botId, userId: command.userId } }];
  }
}

export function evolveSignalSettings(state: SignalSettingsState, event: SignalSettingsEvent): SignalSettingsState {
  switch (event.type) {
    case 'SignalWebhookEnabled':
    case 'SignalWebhookRotated': {
      const d = event.data;
      return { enabled: true, botId: d.botId, userId: d.userId, generation: d.generation, sealedSecret: d.sealedSecret, secretLast4: d.secretLast4, allowBodySecret: d.allowBodySecret, heldPosition: d.heldPosition ?? state.heldPosition };
    }
    case 'SignalHeldPositionChosen':
      return { ...state, heldPosition: event.data.heldPosition };
    case 'SignalWebhookDisabled':
      // the old secret is dropped from the state: nothing can open a signal with it again
      return { ...state, enabled: false, sealedSecret: null, secretLast4: null };
    default:
      return state;
  }
}

/** The next generation: never reused, so a secret sealed for an earlier one cannot be opened as the current. */
export const nextGeneration = (state: SignalSettingsState) => state.generation + 1;

export const signalSettingsDecider: Decider<SignalSettingsCommand, SignalSettingsEvent, SignalSettingsState> = {
  initialState: initialSignalSettings,
  decide: decideSignalSettings,
  evolve: evolveSignalSettings,
};
