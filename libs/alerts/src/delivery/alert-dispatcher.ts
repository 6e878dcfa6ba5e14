import { Logger } from '@nestjs/common';
import { EventStore, RecordedEvent, streamHasEvents } from '@gridrocket/event-store';
import { randomUUID } from 'node:crypto';
import { ReadStore, RunningReactor, startOutboxReactor } from '@gridrocket/read-store';
import { BOT_LIST_COLLECTION, type BotDoc, type LiveBot, botDecider } from '@gridrocket/bots';
import { USERS, UserDoc } from '@gridrocket/identity';
import { TooManyRequestsError, ValidationError, systemContext } from '@gridrocket/shared';
import { OpsMeter, executeCommand, loadState } from '@gridrocket/shared/runtime';
import { ALERTING_EVENT_TYPES, Alert, AlertSourceEvent, alertOf, cleanBotName, testAlert } from '../domain/alert-mapping';
import { ALERT_CHANNELS, ALERT_CHANNEL_LABELS, AlertChannel } from '../domain/alert.kinds';
import { AlertDeliveryRecordedData, DELIVERY_STATUSES, alertDeliveryDecider, alertDeliveryStream, deliveryIdOf } from '../domain/alert-delivery.decider';
import { AlertRateLimit } from '../domain/alert-rate';
import { AlertSettingsState, alertSettingsDecider } from '../domain/alert-settings.decider';
import { alertSettingsStream } from '../domain/alert-settings.events';
import { AlertSecrets } from './alert-secrets';
import { NotificationSink, SinkOutcome, SinkTarget } from './notification-sink.port';

export const ALERT_DISPATCHER_NAME = 'alert-dispatcher';

export interface AlertDispatcherDeps {
  events: EventStore;
  reads: ReadStore;
  secrets: AlertSecrets;
  sinks: NotificationSink[];
  /**
   * The sinks "Send a test" uses (issue 40): one try each, so the owner sees the far end's answer at once
   * (the alerts' sinks try again for up to ~15 s). Absent: `sinks`.
   */
  testSinks?: NotificationSink[];
  /** PUBLIC_URL: the messages link to `<publicUrl>/bots/<id>`. */
  publicUrl?: string;
  rate: AlertRateLimit;
  now?: () => number;
  /** Counts each recorded delivery by channel and status (gridrocket_alerts_total). */
  meter?: Pick<OpsMeter, 'alertDelivered' | 'declareAlertOutcomes'>;
  /**
   * Back-off before the n-th handling of an alert a channel answered `later` (e-mail during an SMTP
   * outage): the mail settings' MAIL_RETRY_BASE_MS × 2^(n-1), at most MAIL_RETRY_MAX_MS apart.
   */
  retryDelay?(attempt: number): number;
}

/** What "Send a test" answers (issue 40): the far end's answer, or why nothing was sent. */
export interface AlertTestResult {
  channel: AlertChannel;
  status: 'delivered' | 'failed' | 'refused' | 'rate-limited';
  /** The HTTP status (webhook, Telegram) or the SMTP reply code (e-mail); null without an answer or for a mail file. */
  code: number | null;
  /** The receiver's error in words (no secret), null when delivered. */
  error: string | null;
  at: string;
}

/** The field message of a test on a channel that is not set up and saved. */
export const TEST_CHANNEL_OFF: Record<AlertChannel, string> = {
  email: 'Turn e-mail on and save before sending a test',
  webhook: 'Turn the webhook on with its URL and secret, and save, before sending a test',
  telegram: 'Turn Telegram on with its bot token and chat id, and save, before sending a test',
};

/** Deliveries answered `later` and not recorded yet (for /api/health and /metrics). */
export interface WaitingDeliveries {
  waiting: number;
  oldestWaitingSeconds: number;
  lastError: string | null;
}

interface Waiting {
  since: number;
  attempts: number;
  lastError: string | null;
}

/**
 * The alerts reactor (DESIGN.md: "a reactor turns the bot events a user subscribed to into
 * messages, checkpointed like any reactor"). For each alerting event of a bot stream: the bot (from
 * its own stream) → the alert (pure mapping) → the owner's settings → one delivery per enabled channel.
 *
 * Exactly what a restart does: a delivery is recorded as `AlertDeliveryRecorded` in its own stream,
 * keyed by `<event id>:<channel>`; a delivery already recorded is not sent again. The checkpoint moves
 * only once every channel of the event is recorded, so a crash before that sends again at most the
 * deliveries that were sent but not yet recorded (at-least-once: receivers de-duplicate by the
 * delivery id, sent as X-GridRocket-Delivery and the body's `id`).
 *
 * A channel that answers `later` (e-mail when the mail server is down or answers 4yz after the sink's own
 * tries) records nothing: the event fails and the reactor handles it again with back-off, for as long as
 * it takes, and the channels already recorded are not sent again. Each alert is handled on its own
 * (`orderKey`: the event), so an alert mail waiting for the server holds up no other alert, not even the
 * same bot's next one on the webhook. The rate limit counts a delivery once, not once per try.
 */
export class AlertDispatcher {
  private readonly logger = new Logger('Alerts');
  private reactor: RunningReactor | null = null;
  private readonly stopping = new AbortController();
  private readonly waiting = new Map<string, Waiting>();

  constructor(private readonly deps: AlertDispatcherDeps) {
    deps.meter?.declareAlertOutcomes(ALERT_CHANNELS, DELIVERY_STATUSES);
  }

  async start(): Promise<void> {
    // New installs start at the end: nobody wants alerts for what happened before alerts existed.
    this.reactor = await startOutboxReactor(this.deps, ALERT_DISPATCHER_NAME, {
      filter: { streamPrefixes: ['bot-'], eventTypes: ALERTING_EVENT_TYPES },
      handle: (event) => this.handle(event),
      ...(this.deps.retryDelay ? { retryDelay: this.deps.retryDelay } : {}),
      onError: (err, event) => this.logger.error(`Alerts for ${event.type} of ${event.streamId} failed, will retry: ${err.name}: ${err.message}`),
    });
  }

  async stop(): Promise<void> {
    this.stopping.abort();
    await this.reactor?.stop();
    this.reactor = null;
  }

  get position(): bigint | null {
    return this.reactor?.position ?? null;
  }

  /** Deliveries a channel answered `later`, waiting for their next try. */
  waitingDeliveries(): WaitingDeliveries {
    const now = this.now();
    let oldest = now;
    let lastError: string | null = null;
    for (const w of this.waiting.values()) {
      oldest = Math.min(oldest, w.since);
      lastError = w.lastError;
    }
    return { waiting: this.waiting.size, oldestWaitingSeconds: Math.max(0, Math.round((now - oldest) / 1000)), lastError };
  }

  /** One bot event: public for tests of the mapping end to end. */
  async handle(event: RecordedEvent): Promise<void> {
    const bot = await loadState(this.deps.events, event.streamId, botDecider, { atLeast: event.revision });
    if (!bot || bot.state.kind !== 'live') return;
    const b = bot.state;
    const source: AlertSourceEvent = { id: event.id, type: event.type, data: event.data, occurredAt: event.metadata?.occurredAt ?? event.created };
    const alert = alertOf(source, {
      botId: b.botId, userId: b.userId, symbol: b.config.symbol, exchange: b.config.exchange, botType: b.botType,
      name: await this.nameOf(b), url: this.deps.publicUrl ? `${this.deps.publicUrl}/bots/${b.botId}` : undefined,
      trailingDeviation: b.config.trailingDeviation,
    });
    if (!alert) return;
    const settings = await loadState(this.deps.events, alertSettingsStream(b.userId), alertSettingsDecider);
    if (!settings || !(settings.state.kinds as readonly string[]).includes(alert.kind)) return;
    const channels = this.enabledChannels(settings.state);
    // Every channel finishes (sent and recorded, or given up) before a failure of one is reported: the
    // reactor handles a failed event again at once, and a channel still in its back-off then, not yet
    // recorded, would be sent a second time beside the first.
    const results = await Promise.allSettled(channels.map((channel) => this.deliver(alert, channel, settings.state)));
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;
  }

  /**
   * The bot's name (issue 40), where the bot context keeps one: on the folded bot (`name`, or in its
   * settings), else on its read model (the bot list's document). Null when it has none: the words then
   * use "bot" and the start of its id.
   */
  private async nameOf(b: LiveBot): Promise<string | null> {
    const own = cleanBotName((b as { name?: unknown }).name) ?? cleanBotName((b.config as { name?: unknown }).name);
    if (own) return own;
    const doc = await this.deps.reads.get<BotDoc & { name?: unknown }>(BOT_LIST_COLLECTION, b.botId).catch(() => null);
    return cleanBotName(doc?.name) ?? cleanBotName((doc?.s as { name?: unknown } | undefined)?.name) ?? cleanBotName((doc?.s?.config as { name?: unknown } | undefined)?.name);
  }

  /**
   * "Send a test" (issue 40): a test message on one channel of the user's saved settings, tried once, its
   * answer returned and recorded in the delivery log (kind `test`). A channel not set up is a 400 on
   * `channel`; the channel's rate limit applies as to every alert (429 beyond it).
   */
  async sendTest(userId: string, channel: AlertChannel): Promise<AlertTestResult> {
    const settings = (await loadState(this.deps.events, alertSettingsStream(userId), alertSettingsDecider))?.state;
    if (!settings || !this.enabledChannels(settings).includes(channel)) throw new ValidationError([{ field: 'channel', message: TEST_CHANNEL_OFF[channel] }]);
    const sink = (this.deps.testSinks ?? this.deps.sinks).find((k) => k.channel === channel);
    const target = sink ? await this.target(channel, settings, userId) : null;
    if (!sink || !target) throw new ValidationError([{ field: 'channel', message: channel === 'email' ? 'Your account has no e-mail address to send to' : TEST_CHANNEL_OFF[channel] }]);
    const now = this.now();
    if (!this.deps.rate.take(`${userId}:${channel}`, now)) {
      throw new TooManyRequestsError(60, `Too many messages on ${ALERT_CHANNEL_LABELS[channel]} this minute: try the test again in a minute`);
    }
    const id = `test-${randomUUID()}`;
    const at = new Date(now).toISOString();
    const alert = testAlert(userId, channel, id, at, this.deps.publicUrl ?? null);
    const deliveryId = deliveryIdOf(id, channel);
    const outcome = await sink.send(alert, deliveryId, target, this.stopping.signal);
    // one try: an answer that says "later" (an SMTP 4yz, no connection) is the test's failure, shown as such
    const status = outcome.status === 'rate-limited' ? 'failed' : outcome.status;
    const data: AlertDeliveryRecordedData = {
      deliveryId, userId, channel, kind: 'test', eventType: alert.eventType, botId: '', symbol: '', title: alert.title,
      status, code: outcome.code, attempts: outcome.attempts, error: outcome.error, at,
    };
    await executeCommand(this.deps.events, alertDeliveryStream(deliveryId), alertDeliveryDecider, { type: 'RecordDelivery', data }, systemContext(userId, id));
    this.deps.meter?.alertDelivered(channel, status);
    return { channel, status, code: outcome.code, error: outcome.error, at };
  }

  private enabledChannels(s: AlertSettingsState): AlertChannel[] {
    const out: AlertChannel[] = [];
    if (s.email.enabled) out.push('email');
    if (s.webhook.enabled && s.webhook.url && s.webhook.sealedSecret) out.push('webhook');
    if (s.telegram.enabled && s.telegram.chatId && s.telegram.sealedBotToken) out.push('telegram');
    return out;
  }

  private async delivered(deliveryId: string): Promise<boolean> {
    return streamHasEvents(this.deps.events, alertDeliveryStream(deliveryId));
  }

  private async target(channel: AlertChannel, s: AlertSettingsState, userId: string): Promise<SinkTarget | null> {
    switch (channel) {
      case 'email': {
        const user = await this.deps.reads.get<UserDoc>(USERS, userId);
        return user?.email ? { channel, to: user.email } : null;
      }
      case 'webhook':
        return { channel, url: s.webhook.url!, secret: this.deps.secrets.open(userId, 'webhookSecret', s.webhook.sealedSecret!) };
      case 'telegram':
        return { channel, chatId: s.telegram.chatId!, botToken: this.deps.secrets.open(userId, 'telegramBotToken', s.telegram.sealedBotToken!) };
    }
  }

  private async deliver(alert: Alert, channel: AlertChannel, s: AlertSettingsState): Promise<void> {
    const deliveryId = deliveryIdOf(alert.eventId, channel);
    if (await this.delivered(deliveryId)) {
      this.waiting.delete(deliveryId);
      return;
    }
    const sink = this.deps.sinks.find((k) => k.channel === channel);
    const target = sink ? await this.target(channel, s, alert.userId) : null;
    const earlier = this.waiting.get(deliveryId);
    let outcome: SinkOutcome;
    if (!sink || !target) outcome = { status: 'failed', code: null, attempts: 0, error: 'No address for this channel' };
    else if (!earlier && !this.deps.rate.take(`${alert.userId}:${channel}`, this.now())) outcome = { status: 'rate-limited', code: null, attempts: 0, error: 'Too many alerts on this channel: not sent' };
    else outcome = await sink.send(alert, deliveryId, target, this.stopping.signal);
    if (outcome.later) {
      // not recorded: the reactor hands the alert back after its back-off (the class comment)
      const w = earlier ?? { since: this.now(), attempts: 0, lastError: null };
      w.attempts += outcome.attempts;
      w.lastError = outcome.error;
      this.waiting.set(deliveryId, w);
      throw new Error(`The ${channel} alert is not taken yet, will try again: ${outcome.error}`);
    }
    if (earlier) outcome = { ...outcome, attempts: earlier.attempts + outcome.attempts };
    const data: AlertDeliveryRecordedData = {
      deliveryId,
      userId: alert.userId,
      channel,
      kind: alert.kind,
      eventType: alert.eventType,
      botId: alert.botId,
      symbol: alert.symbol,
      title: alert.title,
      status: outcome.status,
      code: outcome.code,
      attempts: outcome.attempts,
      error: outcome.error,
      at: new Date(this.now()).toISOString(),
    };
    await executeCommand(this.deps.events, alertDeliveryStream(deliveryId), alertDeliveryDecider, { type: 'RecordDelivery', data }, systemContext(alert.userId, alert.eventId));
    this.waiting.delete(deliveryId);
    // counted once recorded: a delivery whose record failed is tried again, and counted then
    this.deps.meter?.alertDelivered(channel, outcome.status);
  }

  private now(): number {
    return this.deps.now?.() ?? Date.now();
  }
}
