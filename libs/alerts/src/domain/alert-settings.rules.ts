import { refusedUrlHost } from '@gridrocket/shared/net';
import { FieldError, ValidationError } from '@gridrocket/shared';
import { ALERT_KINDS, AlertKind } from './alert.kinds';

/** The settings as the dashboard sends them (PUT /api/alerts/:userId). Secrets are write-only: absent or '' keeps the stored one. */
export interface AlertSettingsInput {
  kinds: AlertKind[];
  email: { enabled: boolean };
  webhook: { enabled: boolean; url: string | null; secret: string | null };
  telegram: { enabled: boolean; chatId: string | null; botToken: string | null };
}

export const WEBHOOK_SECRET_MIN = 16;
export const WEBHOOK_SECRET_MAX = 256;
/**
 * A bot token as BotFather gives it, e.g. `123456:ABC-DEF1234ghIkl-zyx57W2v1u123ew11`
 * (https://core.telegram.org/bots/api#authorizing-your-bot: "Each bot is given a unique authentication
 * token when it is created. The token looks something like 123456:ABC-DEF1234ghIkl-zyx57W2v1u123ew11").
 */
export const TELEGRAM_TOKEN = /^\d{1,20}:[A-Za-z0-9_-]{30,100}$/;
/**
 * `chat_id`: "Integer or String — Unique identifier for the target chat or username of the target
 * channel (in the format @channelusername)" (https://core.telegram.org/bots/api#sendmessage).
 */
export const TELEGRAM_CHAT_ID = /^(-?\d{1,20}|@[A-Za-z][A-Za-z0-9_]{4,31})$/;

export const MESSAGES = {
  kinds: `Choose from: ${ALERT_KINDS.join(', ')}`,
  enabled: 'Must be true or false',
  url: 'Enter the webhook URL, starting with https:// (or http://)',
  urlCredentials: 'The webhook URL must not contain a user name or password: sign with the webhook secret instead',
  urlPrivate: 'The webhook URL must not point to a private or loopback address',
  secret: `The webhook secret must be ${WEBHOOK_SECRET_MIN} to ${WEBHOOK_SECRET_MAX} characters`,
  secretRequired: `Enter a webhook secret (${WEBHOOK_SECRET_MIN} to ${WEBHOOK_SECRET_MAX} characters): it signs every request`,
  botToken: 'Enter the bot token BotFather gave you (like 123456:ABC-DEF1234ghIkl-zyx57W2v1u123ew11)',
  botTokenRequired: 'Enter the bot token BotFather gave you',
  chatId: 'Enter the chat id (a number such as 123456789 or -100123456789) or @channelusername',
} as const;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Whether a URL's host (WHATWG `URL.hostname`) is refused without asking DNS: every IP spelling of a
 * loopback, private, link-local, site-local, reserved or translated address, and the names of this host
 * (issue 38: `[::ffff:127.0.0.1]` passed the check before). Names are resolved at save and at send.
 */
export function isPrivateHostLiteral(hostname: string): boolean {
  return refusedUrlHost(hostname) !== null;
}

/**
 * Pure validation of the settings body: every problem as a field message (400), nothing partly kept.
 * `allowPrivateUrls`: ALERTS_ALLOW_PRIVATE_URLS (tests, a receiver on the same network).
 */
export function parseAlertSettings(body: unknown, options: { allowPrivateUrls: boolean }): AlertSettingsInput {
  const errors: FieldError[] = [];
  const b = isObject(body) ? body : {};
  if (!isObject(body)) errors.push({ field: 'body', message: 'Send the settings as a JSON object' });

  const kinds: AlertKind[] = [];
  const rawKinds = b.kinds ?? [];
  if (!Array.isArray(rawKinds) || rawKinds.some((k) => !(ALERT_KINDS as readonly unknown[]).includes(k))) errors.push({ field: 'kinds', message: MESSAGES.kinds });
  else for (const k of ALERT_KINDS) if (rawKinds.includes(k)) kinds.push(k);

  const bool = (v: unknown, field: string) => {
    if (v === undefined) return false;
    if (typeof v !== 'boolean') errors.push({ field, message: MESSAGES.enabled });
    return v === true;
  };
  const section = (name: string) => {
    const v = b[name];
    if (v === undefined || v === null) return {};
    if (!isObject(v)) {
      errors.push({ field: name, message: 'Must be an object' });
      return {};
    }
    return v;
  };
  const optionalText = (v: unknown, field: string, message: string): string | null => {
    if (v === undefined || v === null || v === '') return null;
    if (typeof v !== 'string') {
      errors.push({ field, message });
      return null;
    }
    return v.trim();
  };

  const email = section('email');
  const emailEnabled = bool(email.enabled, 'email.enabled');

  const webhook = section('webhook');
  const webhookEnabled = bool(webhook.enabled, 'webhook.enabled');
  let url = optionalText(webhook.url, 'webhook.url', MESSAGES.url);
  if (url !== null) {
    let parsed: URL | null = null;
    try {
      parsed = new URL(url);
    } catch {
      parsed = null;
    }
    if (!parsed || !/^https?:$/.test(parsed.protocol) || url.length > 2048 || !parsed.hostname) errors.push({ field: 'webhook.url', message: MESSAGES.url });
    else if (parsed.username || parsed.password) errors.push({ field: 'webhook.url', message: MESSAGES.urlCredentials });
    else if (!options.allowPrivateUrls && isPrivateHostLiteral(parsed.hostname)) errors.push({ field: 'webhook.url', message: MESSAGES.urlPrivate });
    else url = parsed.toString();
  } else if (webhookEnabled) errors.push({ field: 'webhook.url', message: MESSAGES.url });
  const secret = optionalText(webhook.secret, 'webhook.secret', MESSAGES.secret);
  if (secret !== null && (secret.length < WEBHOOK_SECRET_MIN || secret.length > WEBHOOK_SECRET_MAX)) errors.push({ field: 'webhook.secret', message: MESSAGES.secret });

  const telegram = section('telegram');
  const telegramEnabled = bool(telegram.enabled, 'telegram.enabled');
  const botToken = optionalText(telegram.botToken, 'telegram.botToken', MESSAGES.botToken);
  if (botToken !== null && !TELEGRAM_TOKEN.test(botToken)) errors.push({ field: 'telegram.botToken', message: MESSAGES.botToken });
  let chatId = telegram.chatId;
  if (typeof chatId === 'number' && Number.isInteger(chatId)) chatId = String(chatId);
  const chat = optionalText(chatId, 'telegram.chatId', MESSAGES.chatId);
  if ((chat !== null && !TELEGRAM_CHAT_ID.test(chat)) || (chat === null && telegramEnabled)) errors.push({ field: 'telegram.chatId', message: MESSAGES.chatId });

  if (errors.length) throw new ValidationError(errors);
  return {
    kinds,
    email: { enabled: emailEnabled },
    webhook: { enabled: webhookEnabled, url, secret },
    telegram: { enabled: telegramEnabled, chatId: chat, botToken },
  };
}

/** The last 4 characters of a secret: all the dashboard ever sees of it. */
export const last4 = (secret: string) => secret.slice(-4);
