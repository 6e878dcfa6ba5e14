/**
 * Signed signals (issue 32, docs/signals.md): a bot started and stopped by a signed HTTP request
 * (a TradingView alert, a script).
 *
 * Two streams:
 * - `signal-webhook-<botId>`: the webhook's settings. The secret is in them only sealed (AES-256-GCM with the
 *   master key, bound to the bot, its owner and the generation: signal-secrets.ts), as the alert
 *   channels' secrets are; this stream is never served by any route.
 * - `bot-<botId>` (the bot's own history): what became of each request that reached the bot: the signal
 *   taken (its id claimed: a second one with that id is a replay), what the start or stop did, and the
 *   refusals (bounded: SIGNAL_REFUSALS_PER_WINDOW a minute, the rest counted). No secret, no signature.
 */

export type SignalAction = 'start' | 'stop';
/** How a request proved it knows the secret: an HMAC in X-Signature, or (opted in) the secret in the JSON body. */
export type SignalAuth = 'signature' | 'body-secret';
/** Why a request was refused (the HTTP status in brackets): docs/signals.md. */
export type SignalRefusalReason = 'malformed' | 'bad-signature' | 'stale' | 'replay';

/**
 * What a start signal does with a bot that holds a position (issue 40), the owner's standing choice:
 * - `refuse` (the default): the start is refused (409, as the dashboard's start without confirmation is),
 *   recorded, and the owner alerted (`signalRefused`);
 * - `resume`: the bot starts with its position, as a confirmed start from the dashboard does;
 * - `sell`: the bot's orders are cancelled and what it holds is sold at market (a short bought back,
 *   reduce-only), then it starts afresh.
 */
export const SIGNAL_HELD_POSITION_CHOICES = ['refuse', 'resume', 'sell'] as const;
export type SignalHeldPosition = (typeof SIGNAL_HELD_POSITION_CHOICES)[number];

export interface SignalSecretData {
  botId: string;
  userId: string;
  /** 1 at enabling, +1 at each rotation: part of the secret's additional data. */
  generation: number;
  sealedSecret: string;
  secretLast4: string;
  /** The secret may come in the JSON body (TradingView cannot sign nor set headers). */
  allowBodySecret: boolean;
  /** Issue 40: what a start signal does with a held position (absent in older events: kept as it was, `refuse` at first). */
  heldPosition?: SignalHeldPosition;
}

export type SignalSettingsEvent =
  | { type: 'SignalWebhookEnabled'; data: SignalSecretData }
  | { type: 'SignalWebhookRotated'; data: SignalSecretData }
  | { type: 'SignalWebhookDisabled'; data: { botId: string; userId: string } }
  /** Issue 40: the owner chose what a start signal does with a held position. */
  | { type: 'SignalHeldPositionChosen'; data: { botId: string; userId: string; heldPosition: SignalHeldPosition } };

/** Events of the bot's own stream. */
export type SignalBotEvent =
  /** An authentic, fresh signal with an id not seen before: its id is now taken. `signedAt`: its timestamp (ms). */
  /**
   * `signature` (issue 38): the SHA-256 of the X-Signature a signed signal came with (absent for the
   * secret-in-the-message form and for signals taken before): a copy of a signed request is a replay
   * whatever new id it is given.
   */
  | { type: 'SignalReceived'; data: { botId: string; signalId: string; action: SignalAction; auth: SignalAuth; signedAt: number; at: number; signature?: string } }
  /**
   * What the start or stop of a received signal did: `requested` (BotStartRequested / BotStopRequested
   * follows), `unchanged` (already running / stopped) or `refused` with the command's reason and status.
   */
  /**
   * Issue 40: `position` says what a start did with the position the bot held (`kept`: started with it;
   * `sold-first`: its orders cancelled and it sold at market before the start), absent when it held none;
   * `refusal: 'position-held'` marks a start refused because the bot holds a position and the owner's
   * choice is to refuse.
   */
  | { type: 'SignalHandled'; data: { botId: string; signalId: string; action: SignalAction; outcome: 'requested' | 'unchanged' | 'refused'; status: number; reason: string | null; position?: 'kept' | 'sold-first'; refusal?: 'position-held' } }
  /**
   * A refused request. `signalId`: the id it gave when it had a well-formed one. `suppressed`: how many
   * refusals since the previous record were counted but not recorded (the cap was reached).
   */
  | { type: 'SignalRefused'; data: { botId: string; reason: SignalRefusalReason; status: number; message: string; signalId: string | null; suppressed: number; at: number } };

export const SIGNAL_BOT_EVENTS = ['SignalReceived', 'SignalHandled', 'SignalRefused'] as const;

export const SIGNAL_SETTINGS_STREAM_PREFIX = 'signal-webhook-';
export const signalSettingsStream = (botId: string) => `${SIGNAL_SETTINGS_STREAM_PREFIX}${botId}`;
