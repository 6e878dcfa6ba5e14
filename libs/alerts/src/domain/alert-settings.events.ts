import type { AlertKind } from './alert.kinds';

/**
 * The events of a user's alert settings stream (`alerts-<userId>`). Secrets (the webhook secret, the
 * Telegram bot token) are in them only sealed (AES-256-GCM, bound to the user and the field: see
 * alert-secrets.ts); `…Last4` is what the dashboard may show of them. `sealed…: null` keeps the one
 * already stored.
 */
export interface AlertSettingsSavedData {
  userId: string;
  kinds: AlertKind[];
  email: { enabled: boolean };
  webhook: { enabled: boolean; url: string | null; sealedSecret: string | null; secretLast4: string | null };
  telegram: { enabled: boolean; chatId: string | null; sealedBotToken: string | null; botTokenLast4: string | null };
}

export type AlertSettingsEvent = { type: 'AlertSettingsSaved'; data: AlertSettingsSavedData };

export const ALERT_SETTINGS_STREAM_PREFIX = 'alerts-';
export const alertSettingsStream = (userId: string) => `${ALERT_SETTINGS_STREAM_PREFIX}${userId}`;
