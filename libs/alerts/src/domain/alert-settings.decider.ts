import { deciderOf, evolveByType, ValidationError } from '@gridrocket/shared';
import type { AlertKind } from './alert.kinds';
import { AlertSettingsEvent, AlertSettingsSavedData } from './alert-settings.events';
import { MESSAGES } from './alert-settings.rules';

/** A user's alert settings, with the secrets sealed (only the dispatcher opens them). */
export interface AlertSettingsState {
  exists: boolean;
  userId: string | null;
  kinds: AlertKind[];
  email: { enabled: boolean };
  webhook: { enabled: boolean; url: string | null; sealedSecret: string | null; secretLast4: string | null };
  telegram: { enabled: boolean; chatId: string | null; sealedBotToken: string | null; botTokenLast4: string | null };
}

/** Secrets arrive sealed (`null`: keep the stored one): the decider never sees one in clear. */
export type AlertSettingsCommand = { type: 'SaveAlertSettings'; data: AlertSettingsSavedData };

export const initialAlertSettings: AlertSettingsState = {
  exists: false,
  userId: null,
  kinds: [],
  email: { enabled: false },
  webhook: { enabled: false, url: null, sealedSecret: null, secretLast4: null },
  telegram: { enabled: false, chatId: null, sealedBotToken: null, botTokenLast4: null },
};

export function decideAlertSettings(command: AlertSettingsCommand, state: AlertSettingsState): AlertSettingsEvent[] {
  const d = command.data;
  const errors = [];
  // A channel switched on needs its secret: given now or stored before.
  if (d.webhook.enabled && !d.webhook.sealedSecret && !state.webhook.sealedSecret) errors.push({ field: 'webhook.secret', message: MESSAGES.secretRequired });
  if (d.telegram.enabled && !d.telegram.sealedBotToken && !state.telegram.sealedBotToken) errors.push({ field: 'telegram.botToken', message: MESSAGES.botTokenRequired });
  if (errors.length) throw new ValidationError(errors);
  return [{ type: 'AlertSettingsSaved', data: d }];
}

export const evolveAlertSettings = evolveByType<AlertSettingsEvent, AlertSettingsState>({
  AlertSettingsSaved: (state, event) => {
    const d = event.data;
    return {
      exists: true,
      userId: d.userId,
      kinds: d.kinds,
      email: { enabled: d.email.enabled },
      webhook: {
        enabled: d.webhook.enabled,
        url: d.webhook.url,
        sealedSecret: d.webhook.sealedSecret ?? state.webhook.sealedSecret,
        secretLast4: d.webhook.sealedSecret ? d.webhook.secretLast4 : state.webhook.secretLast4,
      },
      telegram: {
        enabled: d.telegram.enabled,
        chatId: d.telegram.chatId,
        sealedBotToken: d.telegram.sealedBotToken ?? state.telegram.sealedBotToken,
        botTokenLast4: d.telegram.sealedBotToken ? d.telegram.botTokenLast4 : state.telegram.botTokenLast4,
      },
    };
  },
});

export const alertSettingsDecider = deciderOf<AlertSettingsCommand, AlertSettingsEvent, AlertSettingsState>(initialAlertSettings, decideAlertSettings, evolveAlertSettings);

/** What the API returns: no ciphertext, no secret, only whether one is set and its last 4 characters. */
export interface AlertSettingsView {
  kinds: AlertKind[];
  email: { enabled: boolean };
  webhook: { enabled: boolean; url: string | null; secretSet: boolean; secretLast4: string | null };
  telegram: { enabled: boolean; chatId: string | null; botTokenSet: boolean; botTokenLast4: string | null };
}

export function alertSettingsView(s: AlertSettingsState): AlertSettingsView {
  return {
    kinds: [...s.kinds],
    email: { enabled: s.email.enabled },
    webhook: { enabled: s.webhook.enabled, url: s.webhook.url, secretSet: !!s.webhook.sealedSecret, secretLast4: s.webhook.secretLast4 },
    telegram: { enabled: s.telegram.enabled, chatId: s.telegram.chatId, botTokenSet: !!s.telegram.sealedBotToken, botTokenLast4: s.telegram.botTokenLast4 },
  };
}
